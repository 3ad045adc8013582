"""HelloEval judging: one structured call per task scores every checklist item on 0/0.25/0.5/0.75/1.

A reply that is not valid JSON, or that scores the wrong number of items, gets one corrective
retry; after that the task is written as *unscored* with the raw replies and counted, never
dropped and never turned into a score. The paper's judge settings are the defaults: temperature
0.8, seed 42, up to 4,096 tokens, and responses longer than 16,000 nltk tokens cut to that length.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import structlog
from pydantic import BaseModel, Field, create_model, field_validator

from longeval.evaluators.measures import nltk_word_tokenize
from longeval.hellobench.scoring import ALLOWED_SCORES, weighted_score
from longeval.hellobench.tasks import Task, load_weights
from longeval.llm.structured import complete_structured
from longeval.llm.types import ChatModel, Message, ModelError
from longeval.prompts import load_prompt
from longeval.runs import JsonlStore, now_iso

log = structlog.get_logger(__name__)

JUDGE_PROMPT = "hellobench_judge"
JUDGE_PURPOSE = "hellobench.judge"
METRIC = "helloeval"


class ChecklistItemScore(BaseModel):
    checklist_id: int = Field(ge=0)
    reason: str
    evaluation_score: float = Field(json_schema_extra={"enum": list(ALLOWED_SCORES)})

    @field_validator("evaluation_score")
    @classmethod
    def _on_the_scale(cls, value: float) -> float:
        if value not in ALLOWED_SCORES:
            raise ValueError(f"{value} is not one of 0, 0.25, 0.5, 0.75, 1")
        return value


class ChecklistVerdict(BaseModel):
    checklist_wise_evaluation: list[ChecklistItemScore]


@cache
def verdict_schema(items: int) -> type[ChecklistVerdict]:
    """The verdict with exactly `items` entries, ids 0..items-1: constrained decoders (llama.cpp, vLLM)
    then emit a well-formed reply; the checks hold for every backend because pydantic validates it."""
    item = create_model(
        f"ChecklistItemScore{items}",
        __base__=ChecklistItemScore,
        checklist_id=(int, Field(ge=0, le=items - 1)),
    )
    return create_model(
        f"ChecklistVerdict{items}",
        __base__=ChecklistVerdict,
        checklist_wise_evaluation=(list[item], Field(min_length=items, max_length=items)),  # type: ignore[valid-type]
    )


class JudgeSettings(BaseModel):
    temperature: float = Field(default=0.8, ge=0.0)
    max_tokens: int = Field(default=4096, ge=1)
    seed: int = 42
    max_response_tokens: int | None = Field(default=16000, ge=1)


@dataclass
class JudgeSummary:
    scored: int = 0
    unscored: list[tuple[str, str]] = field(default_factory=list)  # (task id, reason): written as unscored
    skipped: int = 0  # already judged by this judge
    failed: list[tuple[str, str]] = field(default_factory=list)  # model call failed for good: not written


def checklist_check(task: Task) -> Callable[[ChecklistVerdict], str | None]:
    """Reject a verdict that does not score each checklist item exactly once."""
    expected = len(task.checklist)

    def check(verdict: ChecklistVerdict) -> str | None:
        items = verdict.checklist_wise_evaluation
        if len(items) != expected:
            return f"the checklist has {expected} items but the reply scored {len(items)}; score each item once"
        ids = sorted(item.checklist_id for item in items)
        if ids != list(range(expected)):
            return f"checklist_id values must be 0..{expected - 1} once each, got {ids}"
        return None

    return check


def truncate_response(response: str, max_tokens: int | None) -> tuple[str, bool]:
    """Cut a very long response to its first `max_tokens` nltk tokens, as the paper's judge input."""
    if max_tokens is None:
        return response, False
    tokens = nltk_word_tokenize(response)
    if len(tokens) <= max_tokens:
        return response, False
    return " ".join(tokens[:max_tokens]), True


def judge_messages(task: Task, response: str) -> list[Message]:
    checklist = [{"checklist_id": i, "checklist_content": item} for i, item in enumerate(task.checklist)]
    return load_prompt(JUDGE_PROMPT).render_messages(
        instruction=task.instruction,
        response=response,
        checklist=json.dumps(checklist, ensure_ascii=False, indent=1),
        num_checklist=len(task.checklist),
    )


async def judge_task(task: Task, response: str, judge: ChatModel, settings: JudgeSettings) -> dict[str, Any]:
    """The scores.jsonl row for one task: scored, or unscored with the reason and raw replies."""
    shown, truncated = truncate_response(response, settings.max_response_tokens)
    result = await complete_structured(
        judge,
        judge_messages(task, shown),
        schema=verdict_schema(len(task.checklist)),
        purpose=JUDGE_PURPOSE,
        max_tokens=settings.max_tokens,
        temperature=settings.temperature,
        seed=settings.seed,
        validate=checklist_check(task),
    )
    row: dict[str, Any] = {
        "doc_id": task.id,
        "metric": METRIC,
        "judge": judge.name,
        "repeat": 0,
        "judge_endpoint": judge.endpoint,
        "category": task.category,
        "subcategory": task.subcategory,
        "length_constraint": task.length_constraint,
        "response_truncated": truncated,
        "raw_replies": result.raw_replies,
        "prompt_hash": load_prompt(JUDGE_PROMPT).hash,
        "written_at": now_iso(),
    }
    if result.value is None:
        return {**row, "status": "unscored", "error": result.error, "checklist_wise_evaluation": None}
    items = sorted(result.value.checklist_wise_evaluation, key=lambda item: item.checklist_id)
    scores = [item.evaluation_score for item in items]
    return {
        **row,
        "status": "scored",
        "error": None,
        "checklist_wise_evaluation": [item.model_dump() for item in items],
        "weighted_score": weighted_score(scores, load_weights()[task.subcategory]),
    }


def judged_key(task_id: str, judge: ChatModel) -> str:
    return f"{task_id}|{METRIC}|{judge.name}|0"


async def judge_responses(
    tasks: dict[str, Task],
    generations: list[dict[str, Any]],
    judge: ChatModel,
    store: JsonlStore,
    settings: JudgeSettings,
    *,
    on_done: Callable[[str], None] | None = None,
) -> JudgeSummary:
    """Judge every generation not yet judged by `judge`; rows are appended as they complete."""
    summary = JudgeSummary()
    pending = [g for g in generations if judged_key(g["doc_id"], judge) not in store]
    summary.skipped = len(generations) - len(pending)
    missing = [g["doc_id"] for g in pending if g["doc_id"] not in tasks]
    if missing:
        raise ValueError(f"generations without a task record in the run folder: {', '.join(missing[:5])}")

    async def run_one(generation: dict[str, Any]) -> None:
        task = tasks[generation["doc_id"]]
        try:
            row = await judge_task(task, generation["response"], judge, settings)
        except ModelError as exc:
            log.warning("hellobench.judge_failed", task=task.id, error=str(exc))
            summary.failed.append((task.id, str(exc)))
        else:
            store.append(row)
            if row["status"] == "scored":
                summary.scored += 1
            else:
                summary.unscored.append((task.id, row["error"]))
        if on_done is not None:
            on_done(task.id)

    await asyncio.gather(*(run_one(g) for g in pending))
    return summary
