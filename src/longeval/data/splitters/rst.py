"""reStructuredText (PEPs and Sphinx pages) into sections.

A section title is a line underlined (optionally also overlined) with one punctuation character;
levels follow the order in which adornment styles first appear, as docutils assigns them. A PEP's
RFC 822 preamble gives the title. Footnotes, citations and link targets become references.
"""

from __future__ import annotations

import re

from longeval.data.splitters.base import SplitDocument, SplitSection, dedupe, normalize_levels, tidy_text

_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_PREAMBLE_FIELD = re.compile(r"^([A-Za-z][A-Za-z-]*):[ \t]*(.*)$")
_EXPLICIT = re.compile(r"^\.\.(?:\s|$)")
_FOOTNOTE = re.compile(r"^\.\.\s+\[([^\]]+)\]\s*(.*)$")
_TARGET = re.compile(r"^\.\.\s+_([^:]+|`[^`]+`):\s*(.*)$")
_ANON_TARGET = re.compile(r"^__\s+(\S+)\s*$")
_DIRECTIVE = re.compile(r"^\.\.\s+([\w:-]+)::\s*(.*)$")
_DROPPED_DIRECTIVES = {"image", "figure", "contents", "toctree", "raw", "include", "sectnum", "header", "footer"}

_ROLE_PEP = re.compile(r":pep:`(?:[^`<]*<)?(\d+)[^`]*`")
_ROLE_RFC = re.compile(r":rfc:`(?:[^`<]*<)?(\d+)[^`]*`")
_ROLE = re.compile(r":[\w:.+-]+:`([^`<]*?)\s*(?:<[^`>]*>)?`")
_NAMED_LINK = re.compile(r"`([^`<]+?)\s*<[^`>]*>`__?")
_PLAIN_LINK = re.compile(r"`([^`]+)`__?(?=\W|$)")
_FOOTNOTE_REF = re.compile(r"[ \t\n]?\[(?:#[\w-]*|\*|\d+|[A-Za-z][\w.-]*)\]_")
_LITERAL = re.compile(r"``(.+?)``")
_STRONG = re.compile(r"\*\*(\S(?:.*?\S)?)\*\*")
_EMPHASIS = re.compile(r"(?<![\w*])\*(\S(?:[^*]*?\S)?)\*(?![\w*])")


def _clean_inline(text: str) -> str:
    text = _ROLE_PEP.sub(r"PEP \1", text)
    text = _ROLE_RFC.sub(r"RFC \1", text)
    text = _ROLE.sub(r"\1", text)
    text = _NAMED_LINK.sub(r"\1", text)
    text = _FOOTNOTE_REF.sub("", text)
    text = _LITERAL.sub(r"\1", text)
    text = _PLAIN_LINK.sub(r"\1", text)
    text = _STRONG.sub(r"\1", text)
    return _EMPHASIS.sub(r"\1", text)


def _explicit_block(lines: list[str], start: int) -> int:
    """The end (exclusive) of an explicit markup block starting at `start`: its indented lines."""
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][:1] in " \t"):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return end


def _clean_body(lines: list[str], references: list[str]) -> str:
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        anon = _ANON_TARGET.match(line)
        if anon:
            references.append(anon.group(1))
            i += 1
            continue
        if not _EXPLICIT.match(line):
            if line.strip() == "::":
                i += 1
                continue
            out.append(re.sub(r"(\S)::\s*$", r"\1:", line))
            i += 1
            continue
        end = _explicit_block(lines, i)
        block = [line, *lines[i + 1 : end]]
        joined = " ".join(part.strip() for part in block)
        if (footnote := _FOOTNOTE.match(joined)) is not None:
            references.append(_clean_inline(footnote.group(2)))
        elif (target := _TARGET.match(joined)) is not None:
            name, url = target.group(1).strip("`"), target.group(2).strip()
            references.append(f"{name}: {url}" if url else name)
        elif (directive := _DIRECTIVE.match(line)) is not None and directive.group(
            1
        ).lower() not in _DROPPED_DIRECTIVES:
            out.extend(b for b in lines[i + 1 : end] if not re.match(r"^\s+:[\w-]+:", b))
        # anything else after ".." is a comment: dropped
        i = end
    return tidy_text(_clean_inline("\n".join(out)))


def _is_title_text(line: str) -> bool:
    return bool(line.strip()) and not _ADORNMENT.match(line)


def _underline_fits(adornment: str, text: str) -> bool:
    """As docutils: an underline shorter than its title still counts when 4+ characters long."""
    width = len(adornment.rstrip())
    return width >= len(text.strip()) or width >= 4


def _find_titles(lines: list[str]) -> list[tuple[int, int, str, tuple[str, bool]]]:
    """(first line, lines used, title, style) for each section title."""
    found: list[tuple[int, int, str, tuple[str, bool]]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        previous_blank = i == 0 or not lines[i - 1].strip()
        over = _ADORNMENT.match(line)
        if over and previous_blank and i + 2 < len(lines):
            text, under = lines[i + 1], lines[i + 2]
            if _is_title_text(text) and under.rstrip() == line.rstrip() and _underline_fits(line, text):
                found.append((i, 3, text.strip(), (line[0], True)))
                i += 3
                continue
        if previous_blank and _is_title_text(line) and line[0] not in " \t" and i + 1 < len(lines):
            under = _ADORNMENT.match(lines[i + 1])
            if under and _underline_fits(lines[i + 1], line):
                found.append((i, 2, line.strip(), (lines[i + 1][0], False)))
                i += 2
                continue
        i += 1
    return found


def _read_preamble(lines: list[str]) -> tuple[dict[str, str], int]:
    """A PEP's `Field: value` header (with indented continuations) and where the body starts."""
    fields: dict[str, str] = {}
    i, last = 0, ""
    while i < len(lines) and lines[i].strip():
        match = _PREAMBLE_FIELD.match(lines[i])
        if match:
            last = match.group(1).lower()
            fields[last] = match.group(2).strip()
        elif lines[i][:1] in " \t" and last:
            fields[last] += " " + lines[i].strip()
        else:
            return {}, 0
        i += 1
    return fields, i


def split_rst(source: str) -> SplitDocument:
    lines = source.replace("\r\n", "\n").split("\n")
    fields, body_start = _read_preamble(lines)
    lines = lines[body_start:]
    title = fields.get("title")
    titles = _find_titles(lines)
    style_level: dict[tuple[str, bool], int] = {}
    for _, _, _, style in titles:
        style_level.setdefault(style, len(style_level) + 1)

    references: list[str] = []
    sections: list[SplitSection] = []
    for n, (start, used, heading, style) in enumerate(titles):
        end = titles[n + 1][0] if n + 1 < len(titles) else len(lines)
        sections.append(
            SplitSection(_clean_inline(heading), style_level[style], _clean_body(lines[start + used : end], references))
        )
    lead_lines = lines[: titles[0][0]] if titles else lines
    # Without a preamble, a first style used once, on the first title, is the document title.
    first_style_once = titles and sum(t[3] == titles[0][3] for t in titles) == 1 and len(titles) > 1
    if title is None and first_style_once:
        title = sections[0].heading
        lead_lines = [*lead_lines, sections[0].text]
        sections = sections[1:]
    return SplitDocument(
        title=title,
        sections=normalize_levels(sections),
        lead=_clean_body(lead_lines, references),
        references=dedupe(references),
    )
