"""A run's report: `report.md` with the paper's tables, the usage and the plots beside it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from longeval.report.aggregate import GroupRow, aggregate_run
from longeval.report.load import RunData
from longeval.report.plots import plot_information_content, plot_section_lengths
from longeval.report.tables import SCALE_NOTE, table4, table6, usage_table

INFORMATION_PLOT = "fig1_information_content.png"
SECTION_LENGTH_PLOT = "section_lengths.png"
STAGE_ORDER = ("write", "evaluate")


@dataclass
class Report:
    markdown: str
    rows: list[GroupRow]
    plots: list[Path] = field(default_factory=list)


def _runs_section(runs: Sequence[RunData]) -> str:
    lines = ["## Runs", ""]
    for run in runs:
        p = run.provenance
        config = p.get("config", {})
        lines.append(
            f"- **{run.label}** (`{run.path}`): command `{p.get('command', '?')}`, longeval {p.get('version', '?')}"
            f" at commit `{(p.get('git_commit') or 'unknown')[:12]}`; models {p.get('models', {})}; "
            f"dataset `{config.get('dataset', '?')}` (hash `{p.get('dataset_hash')}`); seed {p.get('seed')}; "
            f"started {p.get('started', '?')}, finished {p.get('finished') or 'not yet'}"
            f"{', resumed ' + str(p['resumed']) + ' time(s)' if p.get('resumed') else ''}"
        )
        stopped = p.get("bench", {}).get("stopped")
        if stopped:
            lines.append(f"  - stopped early: {stopped}; rerun the same command to continue")
    return "\n".join(lines)


def usage_summary(run: RunData) -> str:
    totals: dict[str, Any] = run.usage.get("totals", {})
    documents = len(run.documents)
    bench: dict[str, Any] = run.provenance.get("bench", {})
    calls = int(totals.get("calls") or 0)
    tokens = int(totals.get("prompt_tokens") or 0) + int(totals.get("completion_tokens") or 0)
    parts = [
        f"{documents} document{'' if documents == 1 else 's'}",
        f"{calls:,} calls ({int(totals.get('cache_hits') or 0):,} from the cache)",
    ]
    parts.append(f"{tokens:,} tokens")
    if documents:
        parts.append(f"{calls / documents:.1f} calls and {tokens / documents:,.0f} tokens per document")
    if "wall_s" in bench:
        stage_s: dict[str, float] = bench.get("stage_s", {})
        order = sorted(stage_s, key=lambda name: (STAGE_ORDER.index(name) if name in STAGE_ORDER else 99, name))
        stages = ", ".join(f"{name} {stage_s[name]:.0f} s" for name in order)
        parts.append(f"wall time {bench['wall_s']:.0f} s" + (f" ({stages})" if stages else ""))
    return "; ".join(parts) + "."


def _usage_section(runs: Sequence[RunData]) -> str:
    blocks = ["## Usage", ""]
    for run in runs:
        if len(runs) > 1:
            blocks += [f"### {run.label}", ""]
        blocks += [usage_summary(run), ""]
        table = usage_table(run.usage)
        blocks += [table or "No usage recorded (usage.json is missing).", ""]
    return "\n".join(blocks).rstrip()


def build_report(runs: Sequence[RunData], out_dir: Path, *, plots: bool = True) -> Report:
    """Render the report of one or more runs; plots are written into `out_dir`."""
    rows = [row for run in runs for row in aggregate_run(run)]
    title = "# longeval report" + (f": {runs[0].label}" if len(runs) == 1 else f": {len(runs)} runs")
    parts = [title, "", _runs_section(runs), ""]
    parts += ["## Table 4: metrics per domain and writer", ""]
    parts += [table4(rows) if rows else "No documents or scores yet.", "", SCALE_NOTE, ""]
    paradigms = table6(rows)
    if paradigms is not None:
        parts += ["## Table 6: direct vs plan-based writing", "", paradigms, ""]
    parts += [_usage_section(runs), ""]
    written: list[Path] = []
    if plots:
        for maker, name in ((plot_information_content, INFORMATION_PLOT), (plot_section_lengths, SECTION_LENGTH_PLOT)):
            path = maker(runs, out_dir / name)
            if path is not None:
                written.append(path)
        if written:
            parts += ["## Plots", ""]
            parts += [f"![{p.stem}]({p.name})" for p in written]
            parts.append("")
    return Report(markdown="\n".join(parts).rstrip() + "\n", rows=rows, plots=written)


def write_report(runs: Sequence[RunData], out_dir: Path, *, plots: bool = True) -> tuple[Report, Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    report = build_report(runs, out_dir, plots=plots)
    path = out_dir / "report.md"
    path.write_text(report.markdown, encoding="utf-8")
    return report, path
