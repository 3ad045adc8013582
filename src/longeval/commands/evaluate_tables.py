"""Rich tables and progress for `longeval evaluate` and `longeval judge-check`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from longeval.evaluation import EvaluationSummary, ReplacementLevel
from longeval.evaluators.aggregate import SystemSummary, metric_label, overall
from longeval.evaluators.validity import Agreement, RepeatInterval


def _number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def system_table(summary: SystemSummary) -> Table:
    table = Table(title=f"{summary.system}\njudge {summary.judge}", min_width=60)
    for column in ("metric", "value", "n", "unscored"):
        table.add_column(column, justify="left" if column == "metric" else "right")
    for metric in summary.metrics:
        table.add_row(metric.label, _number(metric.value), str(metric.n), str(metric.unscored))
    table.add_row("Overall", _number(summary.overall), "", str(summary.unscored), style="bold")
    return table


def interval_table(judge: str, intervals: list[RepeatInterval]) -> Table:
    table = Table(title=f"repeated judging, judge {judge}\nmean of the per-repeat means, 95% CI", min_width=60)
    for column in ("metric", "repeats", "mean", "95% CI"):
        table.add_column(column, justify="left" if column == "metric" else "right")
    for item in intervals:
        ci = item.interval
        table.add_row(
            item.label, str(item.repeats), _number(item.mean), "-" if ci is None else f"{ci[0]:.1f} - {ci[1]:.1f}"
        )
    return table


def agreement_table(first: str, second: str, agreements: list[Agreement]) -> Table:
    table = Table(title=f"judge agreement: {first} vs {second}\nmean difference = first - second", min_width=60)
    for column in ("metric", "n", "Spearman", "Pearson", "mean difference"):
        table.add_column(column, justify="left" if column == "metric" else "right")
    for item in agreements:
        table.add_row(
            item.label, str(item.n), _number(item.spearman, 3), _number(item.pearson, 3), _number(item.mean_difference)
        )
    return table


def replacement_table(judge: str, levels: list[ReplacementLevel]) -> Table:
    table = Table(title=f"random replacement, judge {judge}\neach metric per share of sections replaced", min_width=60)
    table.add_column("metric")
    for level in levels:
        table.add_column(f"{level.share:.0%}", justify="right")
    metrics = [m.metric for m in levels[0].table]
    for name in metrics:
        cells = []
        for level in levels:
            entry = next((m for m in level.table if m.metric == name), None)
            cells.append("-" if entry is None else _number(entry.value))
        table.add_row(metric_label(name), *cells)
    table.add_row("Overall", *(_number(overall(level.table)) for level in levels), style="bold")
    table.add_row("sections replaced", *(str(len(level.replacements)) for level in levels), style="dim")
    return table


def print_summary(console: Console, summary: EvaluationSummary) -> None:
    for judge in summary.judges:
        for table in summary.tables[judge]:
            console.print(system_table(table))
        if judge in summary.intervals:
            console.print(interval_table(judge, summary.intervals[judge]))
    if summary.agreement:
        console.print(agreement_table(summary.judges[0], summary.judges[1], summary.agreement))
    console.print(tally_line(summary), soft_wrap=True, highlight=False)


def tally_line(summary: EvaluationSummary) -> str:
    t = summary.tally
    return (
        f"results written now: {t['scored'] + t['unscored'] + t['not_applicable']} "
        f"(scored {t['scored']}, unscored {t['unscored']}, not applicable {t['not_applicable']}); "
        f"already in scores.jsonl: {t['skipped']}; failed: {t['failed']}\n"
        f"judge calls: {t['calls']} (answered from cache: {t['cached_calls']}); "
        f"unscored items in the table(s): {summary.unscored}; scores: {summary.run / 'scores.jsonl'}"
    )


@contextmanager
def evaluation_progress(console: Console) -> Iterator[tuple[Any, Any]]:
    """A progress bar; yields the (on_plan, on_result) callbacks that drive it."""
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console
    ) as progress:
        bar = progress.add_task("planning", total=None)

        def on_plan(jobs: int, skipped: int) -> None:
            progress.reset(bar, total=jobs, description=f"judging ({skipped} already written)")

        def on_result(row: dict[str, Any]) -> None:
            what = f"{row['metric']} {row['doc_id']}"
            if row.get("failed"):
                progress.console.print(f"[red]failed[/red] {what}: {row['error']}", highlight=False)
            progress.update(bar, advance=1, description=f"judged {what}"[:80])

        yield on_plan, on_result
