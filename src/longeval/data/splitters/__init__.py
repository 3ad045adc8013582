"""Split a document (Markdown, reStructuredText, LaTeX, MediaWiki wikitext) into sections.

doc = split_document(text, "auto", name="pep-0498.rst")
doc.title, doc.lead, doc.references
doc.sections            # every heading with its level and cleaned text
doc.content_sections()  # without references, "See also", "External links" and similar
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePath

from longeval.data.splitters.base import (
    BIBLIOGRAPHY_HEADINGS,
    FORMATS,
    DocumentFormat,
    SplitDocument,
    SplitSection,
    dedupe,
    is_boilerplate,
    normalize_heading,
)
from longeval.data.splitters.latex import split_latex
from longeval.data.splitters.markdown import split_markdown
from longeval.data.splitters.rst import split_rst
from longeval.data.splitters.wikitext import split_wikitext

__all__ = [
    "FORMATS",
    "DocumentFormat",
    "SplitDocument",
    "SplitSection",
    "detect_format",
    "is_boilerplate",
    "split_document",
]

SPLITTERS: dict[DocumentFormat, Callable[[str], SplitDocument]] = {
    "md": split_markdown,
    "rst": split_rst,
    "latex": split_latex,
    "wikitext": split_wikitext,
}
_SUFFIXES: dict[str, DocumentFormat] = {
    ".md": "md",
    ".markdown": "md",
    ".rst": "rst",
    ".rest": "rst",
    ".tex": "latex",
    ".latex": "latex",
    ".wiki": "wikitext",
    ".wikitext": "wikitext",
    ".mediawiki": "wikitext",
}
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)]|\[\w+\])\s+(.+)$", re.M)


class UnknownFormatError(ValueError):
    pass


def detect_format(text: str, name: str = "") -> DocumentFormat:
    """The format from the file suffix, else from the text (for `.txt` and unnamed input)."""
    suffix = PurePath(name).suffix.lower()
    if suffix in _SUFFIXES:
        return _SUFFIXES[suffix]
    if re.search(r"\\(documentclass|begin\{document\}|section\*?\{)", text):
        return "latex"
    if re.search(r"^={2,6}[^=\n].*?={2,6}\s*$", text, re.M) or "{{" in text or "[[" in text:
        return "wikitext"
    if re.search(r"^\S.*\n([=\-~^*'\"+#])\1{2,}\s*$", text, re.M):
        return "rst"
    if re.search(r"^ {0,3}#{1,6}\s+\S", text, re.M):
        return "md"
    raise UnknownFormatError(
        f"{name or 'input'}: cannot tell the format (no Markdown, reStructuredText, LaTeX or wikitext "
        f"headings found); pass --format with one of {', '.join(FORMATS)}"
    )


def _bibliography_entries(sections: list[SplitSection]) -> list[str]:
    """List items of bibliography-like sections and their subsections."""
    entries: list[str] = []
    inside_level: int | None = None
    for section in sections:
        if inside_level is not None and section.level <= inside_level:
            inside_level = None
        if inside_level is None and normalize_heading(section.heading) in BIBLIOGRAPHY_HEADINGS:
            inside_level = section.level
        if inside_level is not None:
            entries.extend(item.strip() for item in _LIST_ITEM.findall(section.text))
    return entries


def split_document(text: str, fmt: DocumentFormat | str = "auto", *, name: str = "") -> SplitDocument:
    if fmt == "auto":
        fmt = detect_format(text, name)
    if fmt not in SPLITTERS:
        raise UnknownFormatError(f"unknown format {fmt!r}; use auto or one of {', '.join(FORMATS)}")
    document = SPLITTERS[fmt](text)  # type: ignore[index]
    document.references = dedupe([*document.references, *_bibliography_entries(document.sections)])
    return document
