"""Judges against the gold text: Intro (the introduction) and RW (the related work; for Wikipedia,
the whole article, as the paper does)."""

from __future__ import annotations

from longeval.data.records import GeneratedDocument, Record
from longeval.evaluators.base import ALL_DOMAINS, METRICS, JudgeContext, MetricResult
from longeval.evaluators.judging import ONE_TO_TEN, JudgeSpec, ask_judge, bullet_list, document_result
from longeval.evaluators.sections import align_sections, introduction_pair

INTRODUCTION = JudgeSpec("judge_introduction", "judge.introduction", ONE_TO_TEN)
RELATED_WORK = JudgeSpec("judge_related_work", "judge.related_work", ONE_TO_TEN)


def _unscored(reason: str) -> MetricResult:
    return MetricResult(None, None, f"unscored: {reason}", {"unscored_reason": reason})


def gold_article(record: Record) -> str:
    return "\n\n".join(f"## {s.heading}\n\n{s.text}" for s in record.sections)


class IntroductionMetric:
    name = "intro"
    label = "Intro"
    domains = ALL_DOMAINS
    needs_judge = True

    def applies_to(self, record: Record) -> bool:
        return record.domain in self.domains and any(s.role != "abstract" and s.text.strip() for s in record.sections)

    async def evaluate(self, document: GeneratedDocument, record: Record, context: JudgeContext) -> MetricResult:
        pair = introduction_pair(align_sections(record, document))
        if pair is None or not pair.gold.text.strip():
            return _unscored("the record has no gold introduction")
        if pair.generated is None:
            return _unscored(f"the document has no section matching {pair.gold.heading!r}")
        verdict = await ask_judge(
            INTRODUCTION, context, title=record.title, gold=pair.gold.text, generated=pair.generated.text
        )
        result = document_result(INTRODUCTION, verdict)
        result.metadata["section"] = {"index": pair.index, "heading": pair.gold.heading}
        return result


class RelatedWorkMetric:
    name = "rw"
    label = "RW"
    domains = frozenset({"arxiv", "wikipedia"})
    needs_judge = True

    def applies_to(self, record: Record) -> bool:
        if record.domain not in self.domains:
            return False
        if record.domain == "wikipedia":
            return any(s.text.strip() for s in record.sections)
        gold = record.find_section("related_work")
        return gold is not None and bool(gold.text.strip())

    async def evaluate(self, document: GeneratedDocument, record: Record, context: JudgeContext) -> MetricResult:
        references = bullet_list(record.references)
        if record.domain == "wikipedia":
            verdict = await ask_judge(
                RELATED_WORK,
                context,
                title=record.title,
                references=references,
                unit="article",
                gold=gold_article(record),
                generated=document.text,
            )
            return document_result(RELATED_WORK, verdict)
        pair = next((p for p in align_sections(record, document) if p.gold.role == "related_work"), None)
        if pair is None or not pair.gold.text.strip():
            return _unscored("the record has no gold related-work section")
        if pair.generated is None:
            return _unscored(f"the document has no section matching {pair.gold.heading!r}")
        verdict = await ask_judge(
            RELATED_WORK,
            context,
            title=record.title,
            references=references,
            unit="related-work section",
            gold=pair.gold.text,
            generated=pair.generated.text,
        )
        result = document_result(RELATED_WORK, verdict)
        result.metadata["section"] = {"index": pair.index, "heading": pair.gold.heading}
        return result


METRICS.register("intro")(IntroductionMetric())
METRICS.register("rw")(RelatedWorkMetric())
