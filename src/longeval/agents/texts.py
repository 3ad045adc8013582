"""Small text helpers shared by the writers: what to call a document, how to lay out context, cleaning replies."""

from __future__ import annotations

import re
from collections.abc import Sequence

from longeval.data.records import Domain

DOCUMENT_KIND: dict[Domain, str] = {"arxiv": "paper", "blog": "blog post", "wikipedia": "Wikipedia article"}
NONE_GIVEN = "(none given)"

_LEADING_HEADING = re.compile(r"^\s*(?:#{1,6}\s*|\*\*)?(?P<title>[^\n]{1,200}?)(?:\*\*)?\s*:?\s*\n")


def document_kind(domain: Domain) -> str:
    return DOCUMENT_KIND[domain]


def format_previous(title: str, sections: Sequence[tuple[str, str]]) -> str:
    """Every earlier section, in order, as Markdown: the prompt's prefix, identical from call to call."""
    body = "\n\n".join(f"## {heading}\n\n{text}" for heading, text in sections)
    return f"# {title}\n\n{body}"


def format_references(references: Sequence[str]) -> str:
    return "\n".join(f"[{i}] {ref.strip()}" for i, ref in enumerate(references, start=1)) or NONE_GIVEN


def format_results(results: Sequence[str]) -> str:
    return "\n\n".join(r.strip() for r in results if r.strip()) or NONE_GIVEN


def normalise_heading(heading: str) -> str:
    """ "2.1 Related Work:" -> "related work": numbering, markup and case do not matter."""
    text = re.sub(r"[#*_`:]", " ", heading.lower())
    text = re.sub(r"^\s*(?:[0-9ivx]+[.)]?\s*)+", " ", text)
    return " ".join(text.split())


def clean_section_text(text: str, heading: str) -> str:
    """Drop a heading the model repeated at the top of its section (the document adds its own)."""
    text = text.strip()
    first = _LEADING_HEADING.match(text + "\n")
    if first and normalise_heading(first.group("title")) == normalise_heading(heading):
        text = text[first.end() :].strip()
    return text
