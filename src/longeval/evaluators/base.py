"""One interface for every metric: a generated document and its record in, a `MetricResult` out.

A metric is registered by name in `METRICS`; `longeval.evaluators.catalog` imports every family so
the registry is full. Judge metrics call the judge only through `JudgeContext.judge` (a `ChatModel`),
so the endpoint's shared limits, cache and usage accounting apply to every call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from longeval.data.records import Domain, GeneratedDocument, Record
from longeval.llm.types import ChatModel, Completion
from longeval.registry import Registry

# The `judge` field of a deterministic metric's score row: its value does not depend on a judge,
# so one row serves every judge and every repeat.
NO_JUDGE = "none"


@dataclass
class MetricResult:
    """One metric on one document. `value` is 0-100, or None when unscored (never 0 for a failure)."""

    value: float | None
    raw: str | None = None
    explanation: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    completions: list[Completion] = field(default_factory=list)
    # False when the document turns out to have nothing this metric measures (e.g. EA on a paper
    # with no experiment analysis): no value, yet not a failure either.
    applicable: bool = True

    @property
    def unscored(self) -> bool:
        return self.value is None and self.applicable

    def __post_init__(self) -> None:
        if self.value is not None and not 0.0 <= self.value <= 100.0:
            raise ValueError(f"a metric value must lie in 0-100, got {self.value}")


@dataclass
class JudgeContext:
    """What a judge metric needs besides the document: the judge and how to sample it."""

    judge: ChatModel
    seed: int = 0
    temperature: float = 0.0
    # Shared by the EA and ME branches of one document and seed, so the yes/no step runs once.
    memo: dict[tuple[str, ...], asyncio.Future[Any]] = field(default_factory=dict)

    async def once(self, key: tuple[str, ...], compute: Callable[[], Awaitable[Any]]) -> tuple[Any, bool]:
        """Run `compute` once per key; concurrent callers with the same key await the same result.

        Returns the result and whether this caller started the computation (so that the calls it
        made are counted once)."""
        started = key not in self.memo
        if started:
            self.memo[key] = asyncio.ensure_future(compute())
        return await self.memo[key], started


class Metric(Protocol):
    """A metric unit. `domains` is where it applies (the paper's Table 4)."""

    name: str  # the registry name, used on the command line and in scores.jsonl
    label: str  # the paper's column name
    domains: frozenset[Domain]
    needs_judge: bool

    def applies_to(self, record: Record) -> bool:
        """Whether the record has what the metric measures (domain and sections)."""
        ...

    async def evaluate(self, document: GeneratedDocument, record: Record, context: JudgeContext) -> MetricResult: ...


METRICS: Registry[Metric] = Registry("metric")

ALL_DOMAINS: frozenset[Domain] = frozenset({"arxiv", "blog", "wikipedia"})
