"""Cont-fol: does each section cover its content plan? Judge 0-10 per section, mean over sections."""

from __future__ import annotations

import asyncio

from longeval.data.records import GeneratedDocument, Record
from longeval.evaluators.base import ALL_DOMAINS, METRICS, JudgeContext, MetricResult
from longeval.evaluators.judging import ZERO_TO_TEN, JudgeSpec, SectionOutcome, ask_judge, sections_result
from longeval.evaluators.sections import SectionPair, align_sections

CONTENT_FOLLOWING = JudgeSpec("judge_content_following", "judge.content_following", ZERO_TO_TEN)


class ContentFollowingMetric:
    name = "cont-fol"
    label = "Cont-fol"
    domains = ALL_DOMAINS
    needs_judge = True

    def applies_to(self, record: Record) -> bool:
        return record.domain in self.domains and any(s.plan.strip() for s in record.sections)

    async def _judge_section(self, pair: SectionPair, title: str, context: JudgeContext) -> SectionOutcome:
        if not pair.gold.plan.strip():
            return SectionOutcome(pair, None, "the record gives no content plan for this section")
        if pair.generated is None:
            return SectionOutcome(pair, None, "the document has no section matching this heading")
        verdict = await ask_judge(
            CONTENT_FOLLOWING,
            context,
            title=title,
            heading=pair.gold.heading,
            plan=pair.gold.plan,
            generated=pair.generated.text,
        )
        return SectionOutcome(pair, verdict)

    async def evaluate(self, document: GeneratedDocument, record: Record, context: JudgeContext) -> MetricResult:
        pairs = align_sections(record, document)
        outcomes = await asyncio.gather(*(self._judge_section(p, record.title, context) for p in pairs))
        return sections_result(CONTENT_FOLLOWING, outcomes)


METRICS.register("cont-fol")(ContentFollowingMetric())
