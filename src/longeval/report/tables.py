"""Markdown tables in the paper's layouts: Table 4 (metrics per domain and writer), Table 6 (direct
vs plan), and the usage of a run."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from longeval.report.aggregate import TABLE4_LABELS, TABLE6_LABELS, Cell, GroupRow, paradigm_pairs

NOT_APPLICABLE = "-"
NOT_SCORED = "n/s"

SCALE_NOTE = (
    "Scores are 0-100. Len: mean over sections of min(1, written / required words) x 100. "
    "Cont-fol (judge 0-10): grade x 10. Other judge metrics (1-10): (grade - 1) / 9 x 100. "
    'Overall: mean of the metrics that apply to the domain. "-": the metric does not apply to the domain; '
    f'"{NOT_SCORED}": it applies but no document has a score; "*": Overall leaves out a metric with no score. '
    "n: documents; unscored: judgements left unscored (never counted as 0)."
)


def integer(value: float) -> str:
    """Round half up, as tables in papers do (Python's round() rounds half to even)."""
    return str(math.floor(value + 0.5))


def cell_text(cell: Cell | None) -> str:
    if cell is None or not cell.applies:
        return NOT_APPLICABLE
    return NOT_SCORED if cell.value is None else integer(cell.value)


def overall_text(row: GroupRow) -> str:
    overall = row.overall
    if overall is None:
        return NOT_SCORED
    return integer(overall) + ("*" if row.overall_partial else "")


def markdown_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in body]
    return "\n".join(lines)


def _identity(row: GroupRow, *, runs: bool, judges: bool, paradigm: bool) -> list[str]:
    k = row.key
    cells = [k.run] if runs else []
    cells += [k.domain, k.writer]
    if paradigm:
        cells.append(k.paradigm if k.paradigm == "direct" else f"{k.paradigm} ({k.planner})")
    if judges:
        cells.append(k.judge)
    return cells


def _identity_header(*, runs: bool, judges: bool, paradigm: bool) -> list[str]:
    header = ["Run"] if runs else []
    header += ["Domain", "Writer"]
    if paradigm:
        header.append("Paradigm")
    if judges:
        header.append("Judge")
    return header


def table4(rows: list[GroupRow]) -> str:
    """Per domain and writer: Overall, Intro, RW, EA, ME, Cont-fol, Len, Red, Con, n, unscored."""
    runs = len({r.key.run for r in rows}) > 1
    judges = len({r.key.judge for r in rows}) > 1
    paradigm = len({(r.key.paradigm, r.key.planner) for r in rows}) > 1
    header = _identity_header(runs=runs, judges=judges, paradigm=paradigm)
    header += ["Overall", *TABLE4_LABELS, "n", "unscored"]
    body = [
        _identity(r, runs=runs, judges=judges, paradigm=paradigm)
        + [overall_text(r)]
        + [cell_text(r.cells.get(label)) for label in TABLE4_LABELS]
        + [str(r.documents), str(r.unscored)]
        for r in rows
    ]
    return markdown_table(header, body)


def table6(rows: list[GroupRow]) -> str | None:
    """Direct vs plan-based writing (Overall, Cont-fol, Red, Len), where both paradigms ran."""
    pairs = paradigm_pairs(rows)
    if not pairs:
        return None
    runs = len({r.key.run for r in rows}) > 1
    judges = len({r.key.judge for r in rows}) > 1
    header = [*_identity_header(runs=runs, judges=judges, paradigm=True), "Overall", *TABLE6_LABELS, "n"]
    body = []
    for direct, plan in pairs:
        for row in (direct, plan):
            body.append(
                _identity(row, runs=runs, judges=judges, paradigm=True)
                + [overall_text(row)]
                + [cell_text(row.cells.get(label)) for label in TABLE6_LABELS]
                + [str(row.documents)]
            )
    return markdown_table(header, body)


def _int(value: Any) -> str:
    return f"{int(value or 0):,}"


def usage_table(usage: dict[str, Any]) -> str | None:
    """Calls, cache hits and tokens per purpose (summed over models), with totals."""
    purposes: dict[str, dict[str, float]] = {}
    for entry in usage.get("by_model_purpose", []):
        agg = purposes.setdefault(entry["purpose"], {})
        for name in ("calls", "cache_hits", "prompt_tokens", "completion_tokens", "latency_s", "failures"):
            agg[name] = agg.get(name, 0) + (entry.get(name) or 0)
    if not purposes:
        return None
    header = ["Purpose", "Calls", "Cache hits", "Prompt tokens", "Completion tokens", "Model seconds", "Failures"]
    body = [
        [
            purpose,
            _int(c["calls"]),
            _int(c["cache_hits"]),
            _int(c["prompt_tokens"]),
            _int(c["completion_tokens"]),
            f"{c['latency_s']:.1f}",
            _int(c["failures"]),
        ]
        for purpose, c in sorted(purposes.items())
    ]
    t = usage.get("totals", {})
    body.append(
        [
            "**total**",
            _int(t.get("calls")),
            _int(t.get("cache_hits")),
            _int(t.get("prompt_tokens")),
            _int(t.get("completion_tokens")),
            f"{float(t.get('latency_s') or 0):.1f}",
            _int(t.get("failures")),
        ]
    )
    return markdown_table(header, body)
