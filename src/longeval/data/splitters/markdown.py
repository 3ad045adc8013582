"""Markdown (CommonMark-style ATX and setext headings) into sections.

Fenced code blocks are kept in the text and never searched for headings (a `# comment` in code is
not a heading). Link and footnote definitions become references; inline links keep their text.
"""

from __future__ import annotations

import re

from longeval.data.splitters.base import SplitDocument, SplitSection, dedupe, normalize_levels, tidy_text

_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n(?:---|\.\.\.)\n", re.S)
_LINK_DEF = re.compile(r"^ {0,3}\[([^\]^][^\]]*)\]:[ \t]*(\S+)(.*)$", re.M)
_FOOTNOTE_DEF = re.compile(r"^ {0,3}\[\^([^\]]+)\]:[ \t]*(.+(?:\n(?: {4}|\t).+)*)", re.M)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_INLINE_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_FOOTNOTE_REF = re.compile(r"\[\^[^\]]+\]")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def _strip_heading(text: str) -> str:
    text = _INLINE_LINK.sub(r"\1", text)
    text = re.sub(r"(\*\*|__|\*|_|`)(.+?)\1", r"\2", text)
    return text.strip()


def _clean_body(text: str, references: list[str]) -> str:
    """Clean prose outside code fences; collect link and footnote definitions."""
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        chunk = "\n".join(prose)
        for match in _FOOTNOTE_DEF.finditer(chunk):
            references.append(match.group(2))
        chunk = _FOOTNOTE_DEF.sub("", chunk)
        for match in _LINK_DEF.finditer(chunk):
            title = match.group(3).strip().strip("\"'()")
            references.append(f"{title} {match.group(2)}".strip() if title else match.group(2))
        chunk = _LINK_DEF.sub("", chunk)
        chunk = _IMAGE.sub("", chunk)
        chunk = _INLINE_LINK.sub(r"\1", chunk)
        chunk = _REF_LINK.sub(r"\1", chunk)
        chunk = _FOOTNOTE_REF.sub("", chunk)
        out.append(chunk)
        prose.clear()

    fence: str | None = None
    for line in text.split("\n"):
        opening = _FENCE.match(line)
        if fence is None and opening:
            flush()
            fence = opening.group(1)
            out.append(line)
        elif fence is not None:
            out.append(line)
            if line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
                fence = None
        else:
            prose.append(line)
    flush()
    return tidy_text("\n".join(out))


def split_markdown(source: str) -> SplitDocument:
    source = _COMMENT.sub("", source.replace("\r\n", "\n"))
    title: str | None = None
    front = _FRONT_MATTER.match(source)
    if front:
        found = re.search(r"^title:\s*(.+)$", front.group(1), re.M)
        title = found.group(1).strip().strip("\"'") if found else None
        source = source[front.end() :]

    lines = source.split("\n")
    headings: list[tuple[int, int, str, int]] = []  # (start line, level, text, lines used)
    fence: str | None = None
    for i, line in enumerate(lines):
        opening = _FENCE.match(line)
        if fence is not None:
            if line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
                fence = None
            continue
        if opening:
            fence = opening.group(1)
            continue
        atx = _ATX.match(line)
        if atx and atx.group(2):
            headings.append((i, len(atx.group(1)), _strip_heading(atx.group(2)), 1))
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        setext = _SETEXT.match(nxt)
        previous_blank = i == 0 or not lines[i - 1].strip()
        if setext and line.strip() and previous_blank and not line.startswith(("    ", "\t", "- ", "* ")):
            headings.append((i, 1 if setext.group(1)[0] == "=" else 2, _strip_heading(line), 2))

    references: list[str] = []
    first = headings[0][0] if headings else len(lines)
    lead = "\n".join(lines[:first])
    sections: list[SplitSection] = []
    for n, (start, level, text, used) in enumerate(headings):
        end = headings[n + 1][0] if n + 1 < len(headings) else len(lines)
        body = _clean_body("\n".join(lines[start + used : end]), references)
        sections.append(SplitSection(text, level, body))

    # A single top-level heading that opens the document is its title, not a section.
    if title is None and sections and sections[0].level == 1 and sum(s.level == 1 for s in sections) == 1:
        title = sections[0].heading
        lead = f"{lead}\n{sections[0].text}"
        sections = sections[1:]
    return SplitDocument(
        title=title,
        sections=normalize_levels(sections),
        lead=_clean_body(lead, references),
        references=dedupe(references),
    )
