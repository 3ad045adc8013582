"""Document-level judges: Red (repetition across the document) and Con (sections connect, stay consistent)."""

from __future__ import annotations

from longeval.data.records import GeneratedDocument, Record
from longeval.evaluators.base import ALL_DOMAINS, METRICS, JudgeContext, MetricResult
from longeval.evaluators.judging import ONE_TO_TEN, JudgeSpec, ask_judge, document_result

REDUNDANCY = JudgeSpec("judge_redundancy", "judge.redundancy", ONE_TO_TEN)
CONSISTENCY = JudgeSpec("judge_consistency", "judge.consistency", ONE_TO_TEN)


class _WholeDocumentJudge:
    spec: JudgeSpec
    domains = ALL_DOMAINS
    needs_judge = True

    def applies_to(self, record: Record) -> bool:
        return record.domain in self.domains

    async def evaluate(self, document: GeneratedDocument, record: Record, context: JudgeContext) -> MetricResult:
        if not any(s.text.strip() for s in document.sections):
            return MetricResult(
                None, None, "unscored: the document is empty", {"unscored_reason": "the document has no text"}
            )
        verdict = await ask_judge(self.spec, context, generated=document.text)
        return document_result(self.spec, verdict)


class RedundancyMetric(_WholeDocumentJudge):
    name = "red"
    label = "Red"
    spec = REDUNDANCY
    domains = frozenset({"arxiv", "blog"})  # Table 4: not reported for Wikipedia


class ConsistencyMetric(_WholeDocumentJudge):
    name = "con"
    label = "Con"
    spec = CONSISTENCY


METRICS.register("red")(RedundancyMetric())
METRICS.register("con")(ConsistencyMetric())
