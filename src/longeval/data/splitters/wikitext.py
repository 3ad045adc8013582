"""MediaWiki wikitext (raw Wikipedia articles) into sections.

`== Heading ==` lines split the article (level = number of `=` signs, normalised so `==` is 1);
text before the first heading is the lead. Headings inside templates, comments or `<pre>` blocks do
not count. The article's subject, bold in its first sentence, is its title.
"""

from __future__ import annotations

import html
import re

from longeval.data.splitters.base import SplitDocument, SplitSection, dedupe, normalize_levels
from longeval.data.splitters.wikimarkup import clean_block, clean_inline, matching_spans, replace_spans, strip_tables

_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_HEADING = re.compile(r"^(={1,6})[ \t]*([^=\s].*?)[ \t]*\1[ \t]*$", re.M)
_VERBATIM = re.compile(r"<(pre|nowiki|syntaxhighlight|source)\b[^>]*>.*?</\1\s*>", re.I | re.S)
_BOLD_SUBJECT = re.compile(r"'''(.+?)'''")


def _masked_spans(text: str) -> list[tuple[int, int]]:
    spans = matching_spans(text, "{{", "}}")
    spans += [(m.start(), m.end()) for m in _VERBATIM.finditer(text)]
    return spans


def split_wikitext(source: str) -> SplitDocument:
    text = source.replace("\r\n", "\n")
    if "&lt;" in text and "<" not in text:  # an XML-dump export: the markup itself is entity-escaped
        text = html.unescape(text)
    text = _COMMENT.sub("", text)
    masked = _masked_spans(text)
    headings = [m for m in _HEADING.finditer(text) if not any(start <= m.start() < end for start, end in masked)]
    references: list[str] = []
    lead_raw = text[: headings[0].start()] if headings else text
    sections: list[SplitSection] = []
    for n, match in enumerate(headings):
        end = headings[n + 1].start() if n + 1 < len(headings) else len(text)
        heading = clean_inline(match.group(2), references)
        body = clean_block(text[match.end() : end], references)
        sections.append(SplitSection(heading or match.group(2).strip(), len(match.group(1)), body))

    subject = _BOLD_SUBJECT.search(strip_tables(replace_spans(lead_raw, "{{", "}}", lambda _: "")))
    title = clean_inline(subject.group(1), []) if subject else None
    return SplitDocument(
        title=title or None,
        sections=normalize_levels(sections),
        lead=clean_block(lead_raw, references),
        references=dedupe(references),
    )
