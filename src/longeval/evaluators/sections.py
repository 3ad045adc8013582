"""Pairing a generated document's sections with the record's gold sections.

Writers keep the record's headings and order, so sections pair by position when the counts match;
otherwise by normalised heading. A gold section with no generated counterpart pairs with None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from longeval.data.records import GeneratedDocument, GeneratedSection, Record, Section, SectionRole

_NUMBERING = re.compile(r"^[\divxlc]+(\.\d+)*[.)]?\s+", re.I)
_SPACES = re.compile(r"\s+")

# Sections whose rubric is another metric's (Intro, RW) or that describe neither method nor results.
NOT_BODY: frozenset[SectionRole] = frozenset({"abstract", "introduction", "related_work", "conclusion"})


@dataclass(frozen=True)
class SectionPair:
    index: int  # position of the gold section in the record
    gold: Section
    generated: GeneratedSection | None

    @property
    def generated_text(self) -> str:
        return self.generated.text if self.generated is not None else ""


def normalise_heading(heading: str) -> str:
    heading = _NUMBERING.sub("", heading.strip().strip("#").strip())
    return _SPACES.sub(" ", heading).casefold()


def align_sections(record: Record, document: GeneratedDocument) -> list[SectionPair]:
    if len(document.sections) == len(record.sections):
        return [
            SectionPair(i, gold, gen)
            for i, (gold, gen) in enumerate(zip(record.sections, document.sections, strict=True))
        ]
    by_heading: dict[str, GeneratedSection] = {}
    for gen in document.sections:
        by_heading.setdefault(normalise_heading(gen.heading), gen)
    return [
        SectionPair(i, gold, by_heading.get(normalise_heading(gold.heading))) for i, gold in enumerate(record.sections)
    ]


def introduction_pair(pairs: list[SectionPair]) -> SectionPair | None:
    """The introduction: found by heading; else, as the paper's code, the first section after an abstract."""
    for pair in pairs:
        if pair.gold.role == "introduction":
            return pair
    for pair in pairs:
        if pair.gold.role != "abstract":
            return pair
    return None


def body_pairs(pairs: list[SectionPair]) -> list[SectionPair]:
    """Sections judged for method description or experiment analysis (EA and ME): all but the
    introduction, abstract, related work and conclusion."""
    intro = introduction_pair(pairs)
    return [p for p in pairs if p.gold.role not in NOT_BODY and (intro is None or p.index != intro.index)]
