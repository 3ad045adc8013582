"""Rich tables of HelloEval scores and of the length and error analysis."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from longeval.hellobench.errors import ErrorGroup
from longeval.hellobench.scoring import ScoreReport


def _num(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def score_table(report: ScoreReport, *, title: str = "HelloEval") -> Group:
    table = Table(title=title, title_justify="left")
    table.add_column("category", no_wrap=True)
    table.add_column("constraint", no_wrap=True)
    for name in ("scored", "unscored", "mean S (0-100)", "score = (mean - 75) * 4"):
        table.add_column(name, justify="right", no_wrap=True)
    for group in report.groups:
        table.add_row(
            group.category,
            group.length_constraint or "-",
            str(group.scored),
            str(group.unscored),
            _num(group.mean),
            _num(group.category_score),
        )
    lines = [table]
    if report.overall is not None:
        lines.append(Text(f"overall (mean of the five categories): {report.overall:.2f}", style="bold"))
    else:
        lines.append(Text("overall: n/a (needs all five categories scored, without a length constraint)"))
    lines.append(Text(f"tasks scored {report.scored}, unscored {report.unscored}"))
    for task_id, reason in report.unscored_tasks[:10]:
        lines.append(Text(f"  unscored {task_id}: {reason}", style="yellow"))
    if report.unscored > 10:
        lines.append(Text(f"  ... and {report.unscored - 10} more (see --json)", style="yellow"))
    if report.duplicates:
        lines.append(Text(f"duplicate judgements ignored (first kept): {', '.join(report.duplicates[:10])}"))
    return Group(*lines)


def error_table(groups: Sequence[ErrorGroup], *, title: str = "Length and errors") -> Group:
    table = Table(title=title, title_justify="left")
    counters = list(groups[0].lengths) if groups else []
    table.add_column("model", no_wrap=True)
    table.add_column("constraint", no_wrap=True)
    table.add_column("n", justify="right")
    for counter in counters:
        table.add_column(f"{counter}\nmean / median", justify="right", no_wrap=True)
    for name in ("required", "reaching", "length-perception\nerror", "repetition", "refusal"):
        table.add_column(name, justify="right", no_wrap=True)
    for group in groups:
        table.add_row(
            group.model,
            group.length_constraint or "-",
            str(group.outputs),
            *(f"{group.lengths[c].mean:.0f} / {group.lengths[c].median:.0f}" for c in counters),
            str(group.required_words) if group.required_words else "-",
            _pct(group.reaching_share),
            _num(group.length_perception_error, 0),
            _pct(group.repetition_rate),
            _pct(group.refusal_rate),
        )
    counter = groups[0].counter if groups else "nltk"
    note = Text(
        f"reaching and length-perception error use the {counter} counter; repetition: a sentence of 5+ words "
        "occurring 3+ times; refusal: the reply opens with a refusal prefix",
        style="dim",
    )
    return Group(table, note)
