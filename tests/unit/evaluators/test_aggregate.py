"""The per-metric table: unscored items are counted, never averaged in; Overall is the mean of the metrics."""

from __future__ import annotations

import pytest

from longeval.evaluators.aggregate import pooled_table, summarise


def _row(doc: str, metric: str, value: float | None, *, judge: str = "j1", unscored: bool = False,
         writer: str = "w", repeat: int = 0) -> dict:  # fmt: skip
    return {"doc_id": doc, "metric": metric, "judge": judge, "repeat": repeat, "value": value,
            "unscored": unscored, "writer": writer, "paradigm": "plan", "planner": "given"}  # fmt: skip


def test_unscored_rows_are_counted_not_averaged() -> None:
    rows = [_row("a", "red", 80.0), _row("b", "red", None, unscored=True), _row("c", "red", 40.0)]
    [table] = summarise(rows, judge="j1")
    [red] = table.metrics
    assert (red.value, red.n, red.unscored) == (60.0, 2, 1)


def test_not_applicable_rows_are_neither_scored_nor_unscored() -> None:
    [table] = summarise([_row("a", "ea", None), _row("b", "ea", 50.0)], judge="j1")
    [ea] = table.metrics
    assert (ea.value, ea.n, ea.unscored, ea.not_applicable) == (50.0, 1, 0, 1)


def test_overall_is_the_mean_of_the_metric_means() -> None:
    rows = [_row("a", "len", 100.0, judge="none"), _row("b", "len", 50.0, judge="none"),
            _row("a", "red", 30.0), _row("a", "ea", None, unscored=True)]  # fmt: skip
    [table] = summarise(rows, judge="j1")
    assert [m.metric for m in table.metrics] == ["len", "red", "ea"]
    assert table.overall == pytest.approx((75.0 + 30.0) / 2)  # EA has no value, so it is not in Overall


def test_deterministic_rows_join_every_judge_and_systems_are_separate() -> None:
    rows = [_row("a", "len", 100.0, judge="none"), _row("a", "red", 10.0, judge="j2"),
            _row("b", "red", 20.0, writer="other")]  # fmt: skip
    [j2] = summarise(rows, judge="j2")
    assert {m.metric for m in j2.metrics} == {"len", "red"}
    tables = summarise(rows, judge="j1")
    assert [t.writer for t in tables] == ["other", "w"]


def test_pooled_table_keeps_requested_metrics_even_without_rows() -> None:
    table = pooled_table([_row("a", "red", 10.0)], judge="j1", metrics=["red", "con"])
    assert [(m.metric, m.n) for m in table] == [("red", 1), ("con", 0)]
