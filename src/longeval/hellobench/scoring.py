"""HelloEval scoring: per task the weighted checklist score, per category `(mean - 75) * 4`, overall the mean.

Per task `S = sum_i w_i * s_i` with the sub-category's weights (which sum to 100) and item scores
`s_i` in {0, 0.25, 0.5, 0.75, 1}. A judgement whose items do not match its checklist (count, ids
or scale) is *unscored*: reported and counted, never scored 0 and never dropped silently.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel

from longeval.hellobench.tasks import CATEGORIES, Category

ALLOWED_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


class Judgement(BaseModel):
    """One task's checklist judgement, from a run folder or a released HelloBench results file."""

    id: str
    category: Category
    subcategory: str | None  # None: the task is unknown to the task index
    length_constraint: str | None = None
    items: list[dict[str, Any]] | None  # None: the judge gave no usable reply
    error: str | None = None


class TaskScore(BaseModel):
    id: str
    category: Category
    subcategory: str | None
    length_constraint: str | None
    score: float | None
    unscored_reason: str | None = None


class GroupScore(BaseModel):
    category: Category
    length_constraint: str | None
    scored: int
    unscored: int
    mean: float | None  # mean weighted score, 0-100
    category_score: float | None  # (mean - 75) * 4


class ScoreReport(BaseModel):
    groups: list[GroupScore]
    overall: float | None  # mean of the five category scores; None unless all five are scored
    scored: int
    unscored: int
    unscored_tasks: list[tuple[str, str]]
    duplicates: list[str]


def weighted_score(scores: Sequence[float], weights: Sequence[float]) -> float:
    if len(scores) != len(weights):
        raise ValueError(f"{len(scores)} item scores for {len(weights)} checklist weights")
    return sum(w * s for w, s in zip(weights, scores, strict=True))


def rescale(mean: float) -> float:
    """HelloBench's category scale: 75 maps to 0, 100 to 100."""
    return (mean - 75) * 4


def item_scores(items: list[dict[str, Any]], expected: int) -> list[float] | str:
    """The item scores in checklist order, or the reason they cannot be scored."""
    if len(items) != expected:
        return f"{len(items)} judged items for a checklist of {expected}"
    by_id: dict[int, float] = {}
    for position, item in enumerate(items):
        try:
            checklist_id = int(item.get("checklist_id", position))
            value = float(item["evaluation_score"])
        except (KeyError, TypeError, ValueError):
            return f"item {position}: no numeric checklist_id/evaluation_score"
        if value not in ALLOWED_SCORES:
            return f"item {position}: evaluation_score {value} is not one of 0, 0.25, 0.5, 0.75, 1"
        if checklist_id in by_id:
            return f"item {position}: checklist_id {checklist_id} appears twice"
        by_id[checklist_id] = value
    if sorted(by_id) != list(range(expected)):
        return f"checklist ids {sorted(by_id)} are not 0..{expected - 1}"
    return [by_id[i] for i in range(expected)]


def score_judgement(judgement: Judgement, weights: dict[str, tuple[float, ...]]) -> TaskScore:
    base = judgement.model_dump(include={"id", "category", "subcategory", "length_constraint"})
    if judgement.subcategory is None:
        return TaskScore(**base, score=None, unscored_reason="task id not in the task index")
    if judgement.items is None:
        return TaskScore(**base, score=None, unscored_reason=judgement.error or "no judgement")
    task_weights = weights.get(judgement.subcategory)
    if task_weights is None:
        return TaskScore(**base, score=None, unscored_reason=f"no weights for {judgement.subcategory!r}")
    scores = item_scores(judgement.items, len(task_weights))
    if isinstance(scores, str):
        return TaskScore(**base, score=None, unscored_reason=scores)
    return TaskScore(**base, score=weighted_score(scores, task_weights))


def summarise(task_scores: Iterable[TaskScore], *, duplicates: Sequence[str] = ()) -> ScoreReport:
    groups: dict[tuple[Category, str | None], list[TaskScore]] = {}
    for task_score in task_scores:
        groups.setdefault((task_score.category, task_score.length_constraint), []).append(task_score)
    order = {category: i for i, category in enumerate(CATEGORIES)}
    rows: list[GroupScore] = []
    for (category, constraint), members in sorted(
        groups.items(), key=lambda kv: (order[kv[0][0]], _constraint_order(kv[0][1]))
    ):
        values = [m.score for m in members if m.score is not None]
        mean = statistics.fmean(values) if values else None
        rows.append(
            GroupScore(
                category=category,
                length_constraint=constraint,
                scored=len(values),
                unscored=len(members) - len(values),
                mean=mean,
                category_score=rescale(mean) if mean is not None else None,
            )
        )
    main = {row.category: row.category_score for row in rows if row.length_constraint is None}
    complete = set(main) == set(CATEGORIES) and all(v is not None for v in main.values())
    overall = statistics.fmean(v for v in main.values() if v is not None) if complete else None
    all_scores = [m for members in groups.values() for m in members]
    unscored = [(m.id, m.unscored_reason or "") for m in all_scores if m.score is None]
    return ScoreReport(
        groups=rows,
        overall=overall,
        scored=len(all_scores) - len(unscored),
        unscored=len(unscored),
        unscored_tasks=unscored,
        duplicates=list(duplicates),
    )


def _constraint_order(constraint: str | None) -> int:
    return 0 if constraint is None else int(constraint.removesuffix("k"))
