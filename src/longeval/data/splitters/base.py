"""What every splitter produces: a document's title, its sections with heading levels, and references.

Splitters keep every section they find (boilerplate included), so a test can compare headings with
the source; `content_sections()` is what curation uses: reference lists, "See also", "External
links" and their subsections left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

DocumentFormat = Literal["md", "rst", "latex", "wikitext"]
FORMATS: tuple[DocumentFormat, ...] = ("md", "rst", "latex", "wikitext")

# Headings (lowercased, trailing punctuation stripped) of sections that are apparatus, not content.
# English, plus the German and Afrikaans Wikipedia headings found in real test articles.
BOILERPLATE_HEADINGS: frozenset[str] = frozenset(
    {
        "references",
        "reference",
        "notes",
        "footnotes",
        "endnotes",
        "citations",
        "sources",
        "bibliography",
        "see also",
        "external links",
        "external link",
        "further reading",
        "notes and references",
        "references and notes",
        "works cited",
        "literature cited",
        "copyright",
        "acknowledgements",
        "acknowledgments",
        "acknowledgement",
        "acknowledgment",
        "links",
        "primary sources",
        "secondary sources",
        "explanatory notes",
        "einzelnachweise",
        "weblinks",
        "literatur",
        "siehe auch",
        "anmerkungen",
        "quellen",
        "verwysings",
        "bronne",
        "bronnelys",
        "eksterne skakels",
        "sien ook",
    }
)

# Sections whose list items are bibliography entries (collected as references).
BIBLIOGRAPHY_HEADINGS: frozenset[str] = frozenset(
    {
        "references",
        "bibliography",
        "sources",
        "works cited",
        "literature cited",
        "literatur",
        "bronnelys",
        "verwysings",
        "bronne",
        "footnotes",
        "notes and references",
        "references and notes",
        "citations",
    }
)


def normalize_heading(heading: str) -> str:
    return re.sub(r"\s+", " ", heading).strip().strip(".:").strip().lower()


def is_boilerplate(heading: str) -> bool:
    return normalize_heading(heading) in BOILERPLATE_HEADINGS


@dataclass
class SplitSection:
    heading: str
    level: int  # 1 = top level of the document's sections (the title is not a section)
    text: str  # cleaned text of this section alone, without its subsections


@dataclass
class SplitDocument:
    title: str | None
    sections: list[SplitSection]
    lead: str = ""  # text before the first heading (a Wikipedia article's introduction)
    references: list[str] = field(default_factory=list)

    def content_sections(self) -> list[SplitSection]:
        """Sections without boilerplate: a boilerplate heading drops its whole subtree."""
        kept: list[SplitSection] = []
        dropping_below: int | None = None
        for section in self.sections:
            if dropping_below is not None and section.level > dropping_below:
                continue
            dropping_below = None
            if is_boilerplate(section.heading):
                dropping_below = section.level
                continue
            kept.append(section)
        return kept


def normalize_levels(sections: list[SplitSection]) -> list[SplitSection]:
    """Shift levels so the shallowest heading is level 1, and close gaps (1, 3 -> 1, 2)."""
    if not sections:
        return sections
    distinct = sorted({s.level for s in sections})
    rank = {level: i + 1 for i, level in enumerate(distinct)}
    return [SplitSection(s.heading, min(rank[s.level], 6), s.text) for s in sections]


def tidy_text(text: str) -> str:
    """Trim trailing spaces and collapse runs of blank lines."""
    lines = [line.rstrip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def dedupe(items: list[str]) -> list[str]:
    """References in first-seen order, whitespace collapsed, repeats and scraps left out."""
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = re.sub(r"\s+", " ", item).strip()
        if re.search(r"[^\W_]{2}", key) and key not in seen:  # a lone "." or "[1]" is no reference
            seen.add(key)
            out.append(key)
    return out
