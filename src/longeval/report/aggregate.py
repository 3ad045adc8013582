"""From score rows to table rows: one per (run, domain, writer, paradigm, planner, judge).

The numbers come from the evaluation's own aggregation (`evaluators.aggregate.summarise`, applied to
one domain's rows at a time), so a report and `longeval evaluate` never disagree: a cell is the mean
of the scored rows, unscored rows are counted and never averaged in, Overall is the mean of the
metrics that apply to the domain. Which metrics apply to which domain is the metrics' own declaration.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from statistics import fmean

from longeval.report.load import RunData

# The paper's Table 4 and Table 6 columns, by the metrics' labels.
TABLE4_LABELS: tuple[str, ...] = ("Intro", "RW", "EA", "ME", "Cont-fol", "Len", "Red", "Con")
TABLE6_LABELS: tuple[str, ...] = ("Cont-fol", "Red", "Len")


@dataclass(frozen=True)
class GroupKey:
    run: str
    domain: str
    writer: str
    paradigm: str
    planner: str
    judge: str


@dataclass
class Cell:
    applies: bool
    value: float | None = None
    n: int = 0  # scored rows
    unscored: int = 0


@dataclass
class GroupRow:
    key: GroupKey
    documents: int
    cells: dict[str, Cell] = field(default_factory=dict)

    @property
    def overall(self) -> float | None:
        values = [c.value for c in self.cells.values() if c.applies and c.value is not None]
        return fmean(values) if values else None

    @property
    def overall_partial(self) -> bool:
        """An applicable metric has no value, so Overall is over fewer metrics than the domain has."""
        return any(c.applies and c.value is None for c in self.cells.values())

    @property
    def unscored(self) -> int:
        return sum(c.unscored for c in self.cells.values())


def applicable_labels(domain: str) -> set[str]:
    from longeval.evaluators.aggregate import metric_label
    from longeval.evaluators.catalog import metrics_for_domain

    return {metric_label(name) for name in metrics_for_domain(domain)}  # type: ignore[arg-type]


def aggregate_run(run: RunData) -> list[GroupRow]:
    from longeval.evaluators.aggregate import summarise

    documents: dict[tuple[str, str, str, str], set[str]] = defaultdict(set)
    for doc in run.documents:
        documents[(doc.domain, doc.writer, doc.paradigm, doc.planner)].add(doc.doc_id)
    for row in run.scores:  # scores of documents imported from elsewhere count too
        documents[(row["domain"], row["writer"], row["paradigm"], row["planner"])].add(row["doc_id"])

    rows: list[GroupRow] = []
    for judge in run.judges:
        for domain in sorted({d for d, *_ in documents}):
            applicable = applicable_labels(domain)
            systems = {
                (s.writer, s.paradigm, s.planner): s
                for s in summarise([r for r in run.scores if r["domain"] == domain], judge=judge)
            }
            for group in sorted(g for g in documents if g[0] == domain):
                _, writer, paradigm, planner = group
                row = GroupRow(GroupKey(run.label, domain, writer, paradigm, planner, judge), len(documents[group]))
                for label in TABLE4_LABELS:
                    row.cells[label] = Cell(applies=label in applicable)
                system = systems.get((writer, paradigm, planner))
                for metric in system.metrics if system is not None else []:
                    cell = row.cells.setdefault(metric.label, Cell(applies=metric.label in applicable))
                    cell.value, cell.n, cell.unscored = metric.value, metric.n, metric.unscored
                rows.append(row)
    return rows


def paradigm_pairs(rows: list[GroupRow]) -> list[tuple[GroupRow, GroupRow]]:
    """(direct, plan) rows of the same run, domain, writer and judge: the paper's Table 6."""
    by_key: dict[tuple[str, str, str, str], dict[str, GroupRow]] = defaultdict(dict)
    for row in rows:
        k = row.key
        by_key[(k.run, k.domain, k.writer, k.judge)].setdefault(k.paradigm, row)
    return [(pair["direct"], pair["plan"]) for _, pair in sorted(by_key.items()) if {"direct", "plan"} <= pair.keys()]
