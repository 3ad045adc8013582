"""EA (experiment analysis) and ME (method description), judged per body section against the gold section.

As in the paper's code, a yes/no judge first decides whether each gold body section analyses
experiments: those sections are graded for EA, the others for ME. Where EA does not apply (blogs,
Wikipedia; the paper's Table 4) there is no yes/no step and every body section is graded for ME.
The decision is about the gold section alone, so one call serves EA and ME (shared through the
judge context) and every writer's document of the record.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from pydantic import BaseModel

from longeval.data.records import GeneratedDocument, Record
from longeval.evaluators.base import ALL_DOMAINS, METRICS, JudgeContext, MetricResult
from longeval.evaluators.judging import (
    ONE_TO_TEN,
    JudgeSpec,
    SectionOutcome,
    ask_judge,
    bullet_list,
    sections_result,
)
from longeval.evaluators.sections import SectionPair, align_sections, body_pairs
from longeval.llm.structured import complete_structured
from longeval.llm.types import Completion
from longeval.prompts import load_prompt

EXPERIMENT_ANALYSIS = JudgeSpec("judge_experiment_analysis", "judge.experiment_analysis", ONE_TO_TEN)
METHOD = JudgeSpec("judge_method", "judge.method", ONE_TO_TEN)
EA_APPLIES_PROMPT = "judge_ea_applies"
EA_APPLIES_PURPOSE = "judge.ea_applies"
EA_DOMAINS = frozenset({"arxiv"})


class ExperimentSectionVerdict(BaseModel):
    analyses_experiments: bool


@dataclass
class SectionKind:
    """The yes/no step for one gold section: True, False, or None when the reply was unusable."""

    analyses_experiments: bool | None
    raw: str
    error: str | None = None
    completions: list[Completion] = field(default_factory=list)


async def classify_section(record: Record, pair: SectionPair, context: JudgeContext) -> tuple[SectionKind, bool]:
    """The yes/no decision for a gold section, computed once per judge context; and whether this call made it."""

    async def compute() -> SectionKind:
        messages = load_prompt(EA_APPLIES_PROMPT).render_messages(heading=pair.gold.heading, gold=pair.gold.text)
        result = await complete_structured(
            context.judge,
            messages,
            schema=ExperimentSectionVerdict,
            purpose=EA_APPLIES_PURPOSE,
            max_tokens=32,
            temperature=context.temperature,
            seed=context.seed,
        )
        decision = result.value.analyses_experiments if result.value is not None else None
        return SectionKind(decision, result.raw, result.error, result.completions)

    return await context.once(("ea_applies", record.id, str(pair.index)), compute)


class _BodySectionJudge:
    spec: JudgeSpec
    wants_experiments: bool
    needs_judge = True

    domains: frozenset = ALL_DOMAINS

    def applies_to(self, record: Record) -> bool:
        return record.domain in self.domains and any(
            s.role not in ("abstract", "introduction") and s.text.strip() for s in record.sections
        )

    def _values(self, pair: SectionPair, record: Record) -> dict[str, object]:
        assert pair.generated is not None
        return {
            "title": record.title,
            "heading": pair.gold.heading,
            "plan": pair.gold.plan.strip() or "(none given)",
            "gold": pair.gold.text,
            "generated": pair.generated.text,
        }

    async def _judge_section(
        self, pair: SectionPair, record: Record, context: JudgeContext, extra: list[Completion]
    ) -> SectionOutcome | None:
        """The section's outcome, or None when the section belongs to the other metric."""
        if record.domain in EA_DOMAINS:
            kind, made_here = await classify_section(record, pair, context)
            if made_here:
                extra.extend(kind.completions)
            if kind.analyses_experiments is None:
                return SectionOutcome(pair, None, f"the yes/no step was unscored ({kind.error}); raw: {kind.raw!r}")
            if kind.analyses_experiments != self.wants_experiments:
                return None
        elif self.wants_experiments:
            return None
        if pair.generated is None:
            return SectionOutcome(pair, None, "the document has no section matching this heading")
        verdict = await ask_judge(self.spec, context, **self._values(pair, record))
        return SectionOutcome(pair, verdict)

    async def evaluate(self, document: GeneratedDocument, record: Record, context: JudgeContext) -> MetricResult:
        pairs = [p for p in body_pairs(align_sections(record, document)) if p.gold.text.strip()]
        step_completions: list[Completion] = []
        outcomes = await asyncio.gather(*(self._judge_section(p, record, context, step_completions) for p in pairs))
        judged = [o for o in outcomes if o is not None]
        if not judged:
            kind = "analyses experiments" if self.wants_experiments else "describes a method"
            return MetricResult(
                None,
                None,
                f"not applicable: no gold body section {kind}",
                {"prompt": self.spec.prompt, "prompt_hash": self.spec.prompt_hash},
                step_completions,
                applicable=False,
            )
        result = sections_result(self.spec, judged)
        result.completions = step_completions + result.completions
        if record.domain in EA_DOMAINS:
            result.metadata["ea_applies_prompt_hash"] = load_prompt(EA_APPLIES_PROMPT).hash
        return result


class ExperimentAnalysisMetric(_BodySectionJudge):
    name = "ea"
    label = "EA"
    spec = EXPERIMENT_ANALYSIS
    wants_experiments = True
    domains = EA_DOMAINS

    def _values(self, pair: SectionPair, record: Record) -> dict[str, object]:
        return {**super()._values(pair, record), "results": bullet_list(record.experiment_results)}


class MethodMetric(_BodySectionJudge):
    name = "me"
    label = "ME"
    spec = METHOD
    wants_experiments = False


METRICS.register("ea")(ExperimentAnalysisMetric())
METRICS.register("me")(MethodMetric())
