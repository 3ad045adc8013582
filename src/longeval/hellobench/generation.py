"""Generating HelloBench responses: one call per task, concurrent under the model's shared limits, resumable.

The paper sends the task's instruction as the only user message and samples at temperature 0.8 with
up to 16,384 new tokens; those are the defaults here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import structlog
from pydantic import BaseModel, Field

from longeval.hellobench.tasks import Task
from longeval.llm.types import ChatModel, ModelError
from longeval.prompts import load_prompt
from longeval.runs import JsonlStore, now_iso

log = structlog.get_logger(__name__)

GENERATE_PROMPT = "hellobench_generate"
GENERATE_PURPOSE = "hellobench.generate"


class GenerationSettings(BaseModel):
    temperature: float = Field(default=0.8, ge=0.0)
    max_tokens: int = Field(default=16384, ge=1)
    seed: int = 0


@dataclass
class GenerationSummary:
    generated: int = 0
    skipped: int = 0  # already in the run folder
    failed: list[tuple[str, str]] = field(default_factory=list)  # (task id, error): not written, retried on rerun


def generation_row(task: Task, response: str, model: ChatModel, completion: dict[str, Any]) -> dict[str, Any]:
    return {
        "doc_id": task.id,
        "category": task.category,
        "subcategory": task.subcategory,
        "length_constraint": task.length_constraint,
        "instruction": task.instruction,
        "response": response,
        "model": model.name,
        "endpoint": model.endpoint,
        "finish_reason": completion["finish_reason"],
        "prompt_tokens": completion["prompt_tokens"],
        "completion_tokens": completion["completion_tokens"],
        "latency_s": completion["latency_s"],
        "cached": completion["cached"],
        "prompt_hash": load_prompt(GENERATE_PROMPT).hash,
        "written_at": now_iso(),
    }


async def generate_responses(
    tasks: list[Task],
    model: ChatModel,
    store: JsonlStore,
    settings: GenerationSettings,
    *,
    on_done: Callable[[str], None] | None = None,
) -> GenerationSummary:
    """Generate every task not yet in `store`; each response is appended as soon as it arrives.

    All pending tasks start at once and wait on the model's per-endpoint limits, which bound
    the calls in flight. A task whose call fails for good is reported, not written.
    """
    summary = GenerationSummary()
    pending = [t for t in tasks if t.id not in store]
    summary.skipped = len(tasks) - len(pending)
    prompt = load_prompt(GENERATE_PROMPT)

    async def run_one(task: Task) -> None:
        try:
            completion = await model.complete(
                prompt.render_messages(instruction=task.instruction),
                purpose=GENERATE_PURPOSE,
                max_tokens=settings.max_tokens,
                temperature=settings.temperature,
                seed=settings.seed,
            )
        except ModelError as exc:
            log.warning("hellobench.generate_failed", task=task.id, error=str(exc))
            summary.failed.append((task.id, str(exc)))
        else:
            store.append(generation_row(task, completion.text, model, completion.to_dict()))
            summary.generated += 1
        if on_done is not None:
            on_done(task.id)

    await asyncio.gather(*(run_one(task) for task in pending))
    return summary
