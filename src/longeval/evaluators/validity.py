"""Is the judge valid? Random replacement (the paper's Table 5), two-judge agreement (Table 7) and
repeated judging with 95% confidence intervals.

Random replacement swaps a share of each document's sections for sections of other documents: a
judge that reads the text should score the result lower the more is replaced.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean, stdev
from typing import Any

from scipy import stats

from longeval.data.records import GeneratedDocument, GeneratedSection
from longeval.evaluators.aggregate import metric_label, rows_for_judge


@dataclass(frozen=True)
class Replacement:
    doc_id: str
    section_index: int
    heading: str
    source_doc_id: str
    source_section_index: int

    def to_dict(self) -> dict[str, Any]:
        return self.__dict__.copy()


def replaced_count(sections: int, share: float) -> int:
    """How many of `sections` to replace: the share rounded half up (0.3 of 5 sections is 2)."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"a replacement share must lie in 0-1, got {share}")
    return min(sections, math.floor(share * sections + 0.5))


def replace_sections(
    documents: Sequence[GeneratedDocument], share: float, *, seed: int = 0
) -> tuple[list[GeneratedDocument], list[Replacement]]:
    """Each document with `replaced_count` sections swapped for sections of other records' documents.

    A replaced section keeps its heading and required length, so the metrics still pair it with
    the gold section it stands for. Seeded per document, so the choice does not depend on order.
    """
    if len({d.record_id for d in documents}) < 2 and share > 0:
        raise ValueError("random replacement needs documents of at least two different records")
    replaced_docs: list[GeneratedDocument] = []
    report: list[Replacement] = []
    for document in documents:
        rng = random.Random(f"{seed}|{share}|{document.doc_id}")
        pool = [
            (other, i)
            for other in documents
            if other.record_id != document.record_id
            for i, section in enumerate(other.sections)
            if section.text.strip()
        ]
        count = replaced_count(len(document.sections), share)
        if count and not pool:
            raise ValueError(f"no other record's document has a non-empty section to put into {document.doc_id}")
        chosen = sorted(rng.sample(range(len(document.sections)), count))
        sections = list(document.sections)
        for index in chosen:
            source, source_index = rng.choice(pool)
            donor = source.sections[source_index]
            original = sections[index]
            sections[index] = GeneratedSection(
                heading=original.heading,
                text=donor.text,
                required_words=original.required_words,
                words=donor.words,
                seconds=0.0,
            )
            report.append(Replacement(document.doc_id, index, original.heading, source.doc_id, source_index))
        replaced_docs.append(document.model_copy(update={"sections": sections}))
    return replaced_docs, report


@dataclass
class Agreement:
    """Two judges on the same items of one metric (document-level values, paired by doc and repeat)."""

    metric: str
    label: str
    n: int
    spearman: float | None
    pearson: float | None
    mean_difference: float | None  # first judge minus second judge, in points of 0-100


def _correlation(a: list[float], b: list[float]) -> tuple[float | None, float | None]:
    # Correlation is undefined for fewer than 3 pairs or a constant side; say so rather than print nan.
    if len(a) < 3 or len(set(a)) < 2 or len(set(b)) < 2:
        return None, None
    return float(stats.spearmanr(a, b).statistic), float(stats.pearsonr(a, b).statistic)


def judge_agreement(rows: Iterable[dict[str, Any]], first: str, second: str) -> list[Agreement]:
    paired: dict[str, dict[tuple[str, int], dict[str, float]]] = defaultdict(lambda: defaultdict(dict))
    for row in rows:
        if row.get("judge") in (first, second) and row.get("value") is not None:
            paired[row["metric"]][(row["doc_id"], int(row.get("repeat", 0)))][row["judge"]] = float(row["value"])
    agreements = []
    for metric, items in paired.items():
        both = [(v[first], v[second]) for v in items.values() if first in v and second in v]
        a = [x for x, _ in both]
        b = [y for _, y in both]
        spearman, pearson = _correlation(a, b)
        agreements.append(
            Agreement(
                metric=metric,
                label=metric_label(metric),
                n=len(both),
                spearman=spearman,
                pearson=pearson,
                mean_difference=fmean(x - y for x, y in both) if both else None,
            )
        )
    return agreements


@dataclass
class RepeatInterval:
    """A metric judged K times: the mean of the per-repeat means and its 95% confidence interval."""

    metric: str
    label: str
    repeats: int
    mean: float | None
    half_width: float | None  # mean +- half_width; None with fewer than two repeats

    @property
    def interval(self) -> tuple[float, float] | None:
        if self.mean is None or self.half_width is None:
            return None
        return self.mean - self.half_width, self.mean + self.half_width


def confidence_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float | None]:
    """Mean and Student-t half width of `values` (None with fewer than two values)."""
    mean = fmean(values)
    if len(values) < 2:
        return mean, None
    t = float(stats.t.ppf((1 + level) / 2, len(values) - 1))
    return mean, t * stdev(values) / math.sqrt(len(values))


def repeat_intervals(rows: Iterable[dict[str, Any]], judge: str) -> list[RepeatInterval]:
    per_repeat: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows_for_judge(rows, judge):
        if row.get("value") is not None:
            per_repeat[row["metric"]][int(row.get("repeat", 0))].append(float(row["value"]))
    intervals = []
    for metric, by_repeat in per_repeat.items():
        means = [fmean(values) for _, values in sorted(by_repeat.items())]
        mean, half = confidence_interval(means)
        intervals.append(RepeatInterval(metric, metric_label(metric), len(means), mean, half))
    return intervals
