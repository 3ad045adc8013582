"""Curation: real documents to LongEval records (without plans), filters, and the Table 2 summary.

A document is split into sections (`longeval.data.splitters`); boilerplate is left out; sections
deeper than `section_depth` are folded into their parent (their headings kept as Markdown lines),
so a record has the paper's granularity: one plan of 4-5 sentences per top-level section. In blogs
and Wikipedia articles the text before the first heading is the introduction when the document has
none, and otherwise opens it.
Plans are written by `curation_plans`; the review sheet lives in `curation_review`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from longeval.data.records import Domain, Record, Section, count_words
from longeval.data.splitters import SplitDocument, SplitSection

# Technical documents (PEPs, RFCs) open with a motivation or rationale instead of an "Introduction".
_INTRODUCTION_LIKE = re.compile(r"\b(introduction|overview|motivation|rationale|background)\b", re.I)
LEAD_MIN_WORDS = 20  # a shorter lead (a dateline, an author line) is not an introduction


@dataclass(frozen=True)
class CurationSettings:
    domain: Domain
    min_words: int = 2000
    section_depth: int = 1
    max_input_words: int = 1500  # longer sections are shown to the model cut to this many words
    plan_max_tokens: int = 240  # 4-5 sentences; a reply cut off here is trimmed to its last sentence
    temperature: float = 0.0
    seed: int = 0


@dataclass(frozen=True)
class DroppedDocument:
    source: str
    reasons: list[str]


@dataclass
class CurationResult:
    records: list[Record] = field(default_factory=list)
    dropped: list[DroppedDocument] = field(default_factory=list)
    plans_requested: int = 0
    plans_reused: int = 0


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "doc"


def title_from_filename(path: Path) -> str:
    return re.sub(r"[_\s]+|(?<=\w)-(?=\w)", " ", path.stem).strip()


def fold_sections(sections: list[SplitSection], depth: int) -> list[Section]:
    """Sections at levels <= depth, each holding the text of its deeper subsections."""
    folded: list[tuple[str, int, list[str]]] = []
    for section in sections:
        if section.level <= depth or not folded:
            folded.append((section.heading, min(section.level, depth), [section.text] if section.text else []))
            continue
        marker = "#" * min(section.level + 1, 6)
        body = f"{marker} {section.heading}\n\n{section.text}" if section.text else f"{marker} {section.heading}"
        folded[-1][2].append(body)
    return [
        Section(heading=heading, text="\n\n".join(parts).strip(), level=level)
        for heading, level, parts in folded
        if any(count_words(p) for p in parts) and "\n\n".join(parts).strip()
    ]


def has_introduction(sections: list[Section]) -> bool:
    return any(s.role == "introduction" or _INTRODUCTION_LIKE.search(s.heading) for s in sections)


def record_from_document(
    document: SplitDocument, *, source: Path, domain: Domain, section_depth: int = 1
) -> Record | None:
    """The record of a document, without plans; None when it has no sections with text."""
    sections = fold_sections(document.content_sections(), section_depth)
    lead = document.lead.strip()
    # A paper's text before its first heading is front matter (authors, notices), not an introduction.
    if domain != "arxiv" and count_words(lead) >= LEAD_MIN_WORDS:
        intro = next((s for s in sections if s.role == "introduction"), None)
        if intro is None:
            at = 1 if sections and sections[0].role == "abstract" else 0
            sections.insert(at, Section(heading="Introduction", text=lead))
        else:
            intro.text = f"{lead}\n\n{intro.text}"
            intro.words = count_words(intro.text)
    if not sections:
        return None
    return Record(
        id=f"{domain}-{slug(source.stem)}",
        domain=domain,
        title=document.title or title_from_filename(source),
        sections=sections,
        references=document.references,
    )


def drop_reasons(record: Record, settings: CurationSettings) -> list[str]:
    """Why a record fails the filters (empty when it passes)."""
    reasons: list[str] = []
    if record.gold_words < settings.min_words:
        reasons.append(f"too short: {record.gold_words} gold words < --min-words {settings.min_words}")
    if settings.domain == "arxiv" and record.find_section("abstract") is None:
        reasons.append("missing an abstract (arXiv records need one)")
    if settings.domain in ("arxiv", "blog") and not has_introduction(record.sections):
        reasons.append(
            f"missing an introduction ({settings.domain} records need a section such as Introduction, "
            f"Overview, Motivation or Rationale{', or text before the first heading' if settings.domain == 'blog' else ''})"
        )
    return reasons


@dataclass(frozen=True)
class DomainSummary:
    domain: str
    count: int
    mean_gold_words: float
    mean_plan_words: float

    @property
    def ratio(self) -> float:
        """Compression: plan words / gold words (the paper reports 20-30%)."""
        return self.mean_plan_words / self.mean_gold_words if self.mean_gold_words else 0.0


def summarize(records: list[Record]) -> list[DomainSummary]:
    """The paper's Table 2: per domain the mean gold words, mean plan words, their ratio, the count."""
    by_domain: dict[str, list[Record]] = {}
    for record in records:
        by_domain.setdefault(record.domain, []).append(record)
    return [
        DomainSummary(
            domain=domain,
            count=len(group),
            mean_gold_words=sum(r.gold_words for r in group) / len(group),
            mean_plan_words=sum(r.plan_words for r in group) / len(group),
        )
        for domain, group in sorted(by_domain.items())
    ]
