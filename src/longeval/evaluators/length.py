"""Len: per section `min(1, words written / words required)`, mean over sections, x100.

Words are counted with the `whitespace` counter, as LongEval's code counts them. The required
length of a section is the record's (the gold length, or a planner's budget). A gold section the
document leaves out counts as 0 words written; a section with no required length is skipped.
"""

from __future__ import annotations

from statistics import fmean
from typing import Any

from longeval.data.records import GeneratedDocument, Record
from longeval.evaluators.base import ALL_DOMAINS, METRICS, JudgeContext, MetricResult
from longeval.evaluators.measures import count_words
from longeval.evaluators.sections import align_sections


def section_length_ratio(required: int, produced: int) -> float:
    return min(1.0, produced / required)


class LengthMetric:
    name = "len"
    label = "Len"
    domains = ALL_DOMAINS
    needs_judge = False

    def applies_to(self, record: Record) -> bool:
        return record.domain in self.domains and any(s.words > 0 for s in record.sections)

    async def evaluate(self, document: GeneratedDocument, record: Record, context: JudgeContext) -> MetricResult:
        per_section: list[dict[str, Any]] = []
        for pair in align_sections(record, document):
            produced = count_words(pair.generated_text, "whitespace")
            entry: dict[str, Any] = {
                "index": pair.index,
                "heading": pair.gold.heading,
                "required": pair.gold.words,
                "produced": produced,
            }
            if pair.generated is None:
                entry["missing"] = True
            if pair.gold.words > 0:
                entry["ratio"] = section_length_ratio(pair.gold.words, produced)
            per_section.append(entry)
        ratios = [e["ratio"] for e in per_section if "ratio" in e]
        if not ratios:
            return MetricResult(None, None, "unscored: no section has a required length", {"sections": per_section})
        value = 100.0 * fmean(ratios)
        produced_total = sum(e["produced"] for e in per_section)
        required_total = sum(e["required"] for e in per_section)
        explanation = f"{produced_total} of {required_total} required words; mean section ratio {value:.1f}%"
        return MetricResult(value, None, explanation, {"sections": per_section, "counter": "whitespace"})


METRICS.register("len")(LengthMetric())
