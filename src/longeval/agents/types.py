"""Values the writing agents exchange with the graph: planned sections, drafts, and the calls behind them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from longeval.llm.types import Completion


class PlannedSection(TypedDict):
    """One section to write: its heading, its content plan and the words it must reach."""

    heading: str
    plan: str
    words: int


@dataclass(frozen=True)
class CallLog:
    """One model call of a step, named by its purpose and the prompt template it rendered."""

    purpose: str
    prompt: str
    prompt_hash: str
    completion: Completion


@dataclass
class Draft:
    """A step's text and every call that produced it (length control may add calls)."""

    text: str
    calls: list[CallLog] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def calls_summary(calls: list[CallLog]) -> dict[str, Any]:
    """Totals of a step's calls, as trace events report them."""
    return {
        "prompt": calls[0].prompt if calls else None,
        "prompt_hash": calls[0].prompt_hash if calls else None,
        "prompts": [{"name": c.prompt, "hash": c.prompt_hash, "purpose": c.purpose} for c in calls],
        "calls": len(calls),
        "prompt_tokens": sum(c.completion.prompt_tokens for c in calls),
        "completion_tokens": sum(c.completion.completion_tokens for c in calls),
        "latency_s": round(sum(c.completion.latency_s for c in calls), 4),
        "cached": bool(calls) and all(c.completion.cached for c in calls),
    }
