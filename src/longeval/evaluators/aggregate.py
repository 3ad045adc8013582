"""From score rows to the per-metric table: mean, n, unscored; Overall = mean of the applicable metrics.

Unscored rows are counted and never averaged in. Rows of deterministic metrics (judge "none")
belong to every judge's table. Documents are grouped by system (writer, paradigm, planner).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from longeval.evaluators.base import METRICS, NO_JUDGE
from longeval.evaluators.catalog import LONGEVAL_METRICS


@dataclass
class MetricSummary:
    metric: str
    label: str
    value: float | None
    n: int
    unscored: int
    not_applicable: int = 0


@dataclass
class SystemSummary:
    """One system's table under one judge."""

    judge: str
    writer: str
    paradigm: str
    planner: str
    metrics: list[MetricSummary] = field(default_factory=list)

    @property
    def system(self) -> str:
        return f"{self.writer} / {self.paradigm} / {self.planner}"

    @property
    def overall(self) -> float | None:
        return overall(self.metrics)

    @property
    def unscored(self) -> int:
        return sum(m.unscored for m in self.metrics)


def metric_label(name: str) -> str:
    return METRICS.get(name).label if name in METRICS else name


def is_scored(row: dict[str, Any]) -> bool:
    return row.get("value") is not None


def summarise_metric(metric: str, rows: Iterable[dict[str, Any]]) -> MetricSummary:
    rows = list(rows)
    values = [float(r["value"]) for r in rows if is_scored(r)]
    return MetricSummary(
        metric=metric,
        label=metric_label(metric),
        value=fmean(values) if values else None,
        n=len(values),
        unscored=sum(1 for r in rows if r.get("unscored")),
        not_applicable=sum(1 for r in rows if not is_scored(r) and not r.get("unscored")),
    )


def rows_for_judge(rows: Iterable[dict[str, Any]], judge: str) -> list[dict[str, Any]]:
    return [r for r in rows if r.get("judge") in (judge, NO_JUDGE)]


def summarise(rows: Iterable[dict[str, Any]], *, judge: str, metrics: list[str] | None = None) -> list[SystemSummary]:
    """One table per system, metrics in the paper's order (only those with rows, or those asked for)."""
    by_system: dict[tuple[str, str, str], dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for row in rows_for_judge(rows, judge):
        system = (str(row.get("writer", "")), str(row.get("paradigm", "")), str(row.get("planner", "")))
        by_system[system][row["metric"]].append(row)
    order = {name: i for i, name in enumerate(LONGEVAL_METRICS)}
    summaries = []
    for (writer, paradigm, planner), per_metric in sorted(by_system.items()):
        names = metrics if metrics is not None else list(per_metric)
        names = sorted(names, key=lambda n: (order.get(n, len(order)), n))
        summaries.append(
            SystemSummary(
                judge=judge,
                writer=writer,
                paradigm=paradigm,
                planner=planner,
                metrics=[summarise_metric(name, per_metric.get(name, [])) for name in names],
            )
        )
    return summaries


def pooled_table(
    rows: Iterable[dict[str, Any]], *, judge: str, metrics: list[str] | None = None
) -> list[MetricSummary]:
    """One table over every system's documents (for judge checks, where systems do not matter)."""
    per_metric: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows_for_judge(rows, judge):
        per_metric[row["metric"]].append(row)
    order = {name: i for i, name in enumerate(LONGEVAL_METRICS)}
    names = sorted(metrics if metrics is not None else per_metric, key=lambda n: (order.get(n, len(order)), n))
    return [summarise_metric(name, per_metric.get(name, [])) for name in names]


def overall(metrics: Iterable[MetricSummary]) -> float | None:
    values = [m.value for m in metrics if m.value is not None]
    return fmean(values) if values else None
