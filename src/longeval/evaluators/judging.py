"""Judge metrics as declarations: a prompt file, a verdict schema and a scale.

Scales map linearly onto 0-100:
- 0-10 (content-following): `score * 10`;
- 1-10 (every other judge metric): `(score - 1) / 9 * 100`, so the lowest grade is 0 and the highest 100.
A reply that does not parse gets one corrective retry (`complete_structured`); after that the item is
unscored with the raw reply kept, never scored 0.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from pydantic import BaseModel, Field

from longeval.evaluators.base import JudgeContext, MetricResult
from longeval.evaluators.sections import SectionPair
from longeval.llm.structured import complete_structured
from longeval.llm.types import Completion
from longeval.prompts import load_prompt


class ScoreVerdict(BaseModel):
    score: float


class ZeroToTenVerdict(ScoreVerdict):
    score: float = Field(ge=0, le=10, description="the grade, 0 to 10")


class OneToTenVerdict(ScoreVerdict):
    score: float = Field(ge=1, le=10, description="the grade, 1 to 10")


@dataclass(frozen=True)
class JudgeScale:
    low: int
    high: int
    verdict: type[ScoreVerdict]

    def to_percent(self, score: float) -> float:
        return (score - self.low) / (self.high - self.low) * 100.0


ZERO_TO_TEN = JudgeScale(0, 10, ZeroToTenVerdict)
ONE_TO_TEN = JudgeScale(1, 10, OneToTenVerdict)


@dataclass(frozen=True)
class JudgeSpec:
    prompt: str  # a template under prompts/templates
    purpose: str  # "judge.<what>", for usage, traces and scripted tests
    scale: JudgeScale
    max_tokens: int = 64

    @property
    def prompt_hash(self) -> str:
        return load_prompt(self.prompt).hash


@dataclass
class Verdict:
    """One judge call: the grade and its 0-100 value, or the reason it is unscored."""

    score: float | None
    percent: float | None
    raw: str
    error: str | None = None
    completions: list[Completion] = field(default_factory=list)


async def ask_judge(spec: JudgeSpec, context: JudgeContext, **values: object) -> Verdict:
    messages = load_prompt(spec.prompt).render_messages(**values)
    result = await complete_structured(
        context.judge,
        messages,
        schema=spec.scale.verdict,
        purpose=spec.purpose,
        max_tokens=spec.max_tokens,
        temperature=context.temperature,
        seed=context.seed,
    )
    if result.value is None:
        return Verdict(None, None, result.raw, result.error, result.completions)
    score = result.value.score
    return Verdict(score, spec.scale.to_percent(score), result.raw, None, result.completions)


def document_result(spec: JudgeSpec, verdict: Verdict) -> MetricResult:
    """A document-level metric: one judge call is the whole result."""
    metadata: dict[str, Any] = {"prompt": spec.prompt, "prompt_hash": spec.prompt_hash, "score": verdict.score}
    if verdict.error is not None:
        metadata["unscored_reason"] = verdict.error
        metadata["raw_replies"] = [c.text for c in verdict.completions]
    explanation = (
        f"judge grade {verdict.score:g} on {spec.scale.low}-{spec.scale.high}"
        if verdict.score is not None
        else "unscored: the judge's reply did not match the verdict schema"
    )
    return MetricResult(verdict.percent, verdict.raw, explanation, metadata, verdict.completions)


@dataclass
class SectionOutcome:
    pair: SectionPair
    verdict: Verdict | None  # None when the section could not be judged (see `reason`)
    reason: str | None = None


def sections_result(spec: JudgeSpec, outcomes: Sequence[SectionOutcome]) -> MetricResult:
    """A section-level metric: the mean of the sections that were scored; the others are listed."""
    per_section: list[dict[str, Any]] = []
    completions: list[Completion] = []
    raws: list[str] = []
    for outcome in outcomes:
        entry: dict[str, Any] = {"index": outcome.pair.index, "heading": outcome.pair.gold.heading}
        verdict = outcome.verdict
        if verdict is not None:
            completions.extend(verdict.completions)
            raws.append(verdict.raw)
            entry.update(score=verdict.score, percent=verdict.percent)
            if verdict.error is not None:
                entry.update(unscored_reason=verdict.error, raw_replies=[c.text for c in verdict.completions])
        else:
            entry.update(score=None, percent=None, unscored_reason=outcome.reason)
        per_section.append(entry)
    scored = [e["percent"] for e in per_section if e["percent"] is not None]
    unscored = [e for e in per_section if e["percent"] is None]
    metadata: dict[str, Any] = {
        "prompt": spec.prompt,
        "prompt_hash": spec.prompt_hash,
        "sections": per_section,
        "unscored_sections": len(unscored),
    }
    if not scored:
        reasons = sorted({str(e["unscored_reason"]) for e in unscored})
        metadata["unscored_reason"] = "; ".join(reasons) or "no section to judge"
        return MetricResult(None, json.dumps(raws), "unscored: no section was scored", metadata, completions)
    explanation = f"mean of {len(scored)} section grades" + (f"; {len(unscored)} unscored" if unscored else "")
    return MetricResult(fmean(scored), json.dumps(raws), explanation, metadata, completions)


def bullet_list(items: Sequence[str], *, empty: str = "(none given)") -> str:
    cleaned = [item.strip() for item in items if item.strip()]
    return "\n".join(f"- {item}" for item in cleaned) if cleaned else empty
