"""MediaWiki markup to plain text: templates, tables, links, refs and tags.

Templates are dropped except a few that carry running text (`convert`, `lang`, `quote`, ...);
citations inside `<ref>` and short-footnote templates (`sfn`, `harvnb`) become references.
"""

from __future__ import annotations

import calendar
import html
import re
from collections.abc import Callable

_REF_SELF = re.compile(r"<ref\b[^>]*/\s*>", re.I)
_REF = re.compile(r"<ref\b[^>]*>(.*?)</ref\s*>", re.I | re.S)
_REFERENCES = re.compile(r"<references\b[^>]*/\s*>|<references\b[^>]*>.*?</references\s*>", re.I | re.S)
_DROPPED_TAGS = re.compile(
    r"<(gallery|timeline|imagemap|score|graph|math|chem|mapframe|templatestyles)\b[^>]*>.*?</\1\s*>", re.I | re.S
)
_BREAK = re.compile(r"<br\s*/?>", re.I)
_TAG = re.compile(r"</?[a-zA-Z][\w-]*(?:\s[^<>]*)?/?>")
_EXTERNAL = re.compile(r"\[(?:https?:|ftp:|//)[^\s\]]+(?:\s+([^\]]*))?\]")
_BOLD_ITALIC = re.compile(r"'{2,5}")
_MAGIC = re.compile(r"__[A-Z]+__")
_DROPPED_NAMESPACES = re.compile(r"^\s*:?\s*(file|image|datei|bild|lêer|beeld|category|kategorie|media)\s*:", re.I)
_INTERLANGUAGE = re.compile(r"^[a-z]{2,3}(-[a-z]+)?:")

_CITE_FIELDS = {
    "author": ("author", "authors", "last", "last1", "autor", "hrsg", "editor", "vauthors"),
    "first": ("first", "first1"),
    "title": ("title", "titel", "chapter", "trans-title"),
    "work": ("work", "website", "journal", "newspaper", "magazine", "werk", "periodical", "sammelwerk"),
    "publisher": ("publisher", "verlag", "agency"),
    "date": ("date", "year", "datum", "jahr"),
    "url": ("url",),
}
_SHORT_FOOTNOTES = {"sfn", "harvnb", "harv", "harvtxt", "harvs", "sfnp", "harvp"}


def matching_spans(text: str, opening: str, closing: str) -> list[tuple[int, int]]:
    """Outermost balanced spans of `opening ... closing` (an unclosed one runs to the end)."""
    spans: list[tuple[int, int]] = []
    depth, start, i = 0, 0, 0
    while i < len(text):
        if text.startswith(opening, i):
            if depth == 0:
                start = i
            depth += 1
            i += len(opening)
        elif depth and text.startswith(closing, i):
            depth -= 1
            i += len(closing)
            if depth == 0:
                spans.append((start, i))
        else:
            i += 1
    if depth:
        spans.append((start, len(text)))
    return spans


def replace_spans(text: str, opening: str, closing: str, render: Callable[[str], str]) -> str:
    out, last = [], 0
    for start, end in matching_spans(text, opening, closing):
        out.append(text[last:start])
        out.append(render(text[start + len(opening) : end - len(closing)]))
        last = end
    out.append(text[last:])
    return "".join(out)


def split_args(body: str) -> list[str]:
    """Split template arguments on `|` outside nested templates and links."""
    parts, depth, current = [], 0, []
    i = 0
    while i < len(body):
        pair = body[i : i + 2]
        if pair in ("{{", "[["):
            depth += 1
            current.append(pair)
            i += 2
            continue
        if pair in ("}}", "]]") and depth:
            depth -= 1
            current.append(pair)
            i += 2
            continue
        if body[i] == "|" and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(body[i])
        i += 1
    parts.append("".join(current))
    return parts


def _template_parts(body: str) -> tuple[str, list[str], dict[str, str]]:
    name, *args = split_args(body)
    positional: list[str] = []
    named: dict[str, str] = {}
    for arg in args:
        key, eq, value = arg.partition("=")
        if eq and re.fullmatch(r"\s*[\w -]+\s*", key):
            named[key.strip().lower()] = value.strip()
        else:
            positional.append(arg.strip())
    return name.strip().lower().replace("_", " "), positional, named


def _date(positional: list[str]) -> str:
    numbers = [p for p in positional if p.isdigit()][:3]
    if len(numbers) == 3 and 1 <= int(numbers[1]) <= 12:
        return f"{int(numbers[2])} {calendar.month_name[int(numbers[1])]} {numbers[0]}"
    return " ".join(numbers)


def _render_template(body: str, references: list[str]) -> str:
    name, pos, named = _template_parts(body)
    first = pos[0] if pos else ""
    if name in _SHORT_FOOTNOTES:
        citation = " ".join(p for p in pos if p) + (f", p. {named['p']}" if "p" in named else "")
        if citation and name in ("sfn", "sfnp"):
            references.append(clean_inline(citation, references))
            return ""
        return clean_inline(citation, references) if name in ("harvtxt", "harvs") else ""
    if any(key in named for key in _CITE_FIELDS["title"]) and (
        name.startswith("cite")
        or name in ("citation", "internetquelle", "literatur", "cite web", "google books", "sep entry", "webarchive")
    ):
        return clean_inline(format_citation(named), references)
    if name == "convert" and pos:
        unit = pos[1] if len(pos) > 1 else ""
        if len(pos) > 3 and pos[1] in ("-", "–", "to", "and"):
            return f"{pos[0]}–{pos[2]} {pos[3]}"
        return f"{pos[0]} {unit}".strip()
    if name == "lang" or name.startswith("lang-") or name in ("transl", "lsj"):
        return clean_inline(pos[-1] if pos else "", references)
    if name in (
        "nowrap",
        "nobr",
        "small",
        "smaller",
        "big",
        "em",
        "strong",
        "longitem",
        "url",
        "nihongo",
        "abbr",
        "ill",
        "interlanguage link",
        "not a typo",
        "visible anchor",
        "formatdate",
        "flag",
        "sc",
        "small caps",
        "linktext",
        "nowrap begin",
        "sic",
        "lang-en",
    ):
        return clean_inline(first, references)
    if name in ("quote", "blockquote", "cquote", "quotation", "zitat", "quote box"):
        return clean_inline(named.get("text") or named.get("quote") or first, references)
    if name in ("hlist", "ublist", "flatlist", "plainlist"):
        return ", ".join(clean_inline(p, references) for p in pos if p.strip())
    if name == "isbn":
        return f"ISBN {first}"
    if name in ("circa", "c."):
        return f"c. {first}"
    if name in ("as of",):
        return f"As of {' '.join(pos)}"
    if name in ("birth date", "death date", "birth date and age", "death date and age", "start date", "dts"):
        return _date(pos)
    if name in ("ndash", "snd", "spaced ndash", "–"):
        return " – "
    if name in ("mdash", "emdash", "spaced mdash", "—"):
        return " — "
    if name in ("nbsp", "spaces"):
        return " "
    if name in ("'", "`"):
        return "'"
    if name == "okina":
        return "ʻ"
    if name == "frac" and pos:
        return "/".join(pos)
    return ""


def format_citation(named: dict[str, str]) -> str:
    def field(kind: str) -> str:
        return next((named[k] for k in _CITE_FIELDS[kind] if named.get(k)), "")

    author = field("author")
    if author and field("first"):
        author = f"{author}, {field('first')}"
    parts = [author, field("title"), field("work"), field("publisher"), field("date"), field("url")]
    return ". ".join(p.strip().rstrip(".") for p in parts if p.strip())


def _render_link(body: str) -> str:
    if _DROPPED_NAMESPACES.match(body) or _INTERLANGUAGE.match(body):
        return ""
    target, _, label = body.partition("|")
    return label or target.split("#")[0] or target


def _render_external(match: re.Match[str], keep_url: bool) -> str:
    label = (match.group(1) or "").strip()
    if not keep_url:
        return label
    url = match.group(0)[1:].split()[0].rstrip("]")
    return f"{label} ({url})" if label else url


def strip_tables(text: str) -> str:
    out: list[str] = []
    depth = 0
    for line in text.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith("{|"):
            depth += 1
            continue
        if depth and stripped.startswith("|}"):
            depth -= 1
            continue
        if depth == 0:
            out.append(line)
    return "\n".join(out)


def extract_refs(text: str, references: list[str]) -> str:
    """Collect `<ref>` citations into `references` and cut them (and `<references>`) out of `text`."""
    text = _REF_SELF.sub("", text)

    def keep(match: re.Match[str]) -> str:
        cited = clean_inline(match.group(1), references, keep_urls=True)
        if cited:
            references.append(cited)
        return ""

    text = _REF.sub(keep, text)
    return _REFERENCES.sub("", text)


def clean_inline(text: str, references: list[str], *, keep_urls: bool = False) -> str:
    """Markup of a heading, a citation or a paragraph to plain text (citations keep their URLs)."""
    text = extract_refs(text, references)
    text = _DROPPED_TAGS.sub("", text)
    text = replace_spans(text, "{{", "}}", lambda body: _render_template(body, references))
    text = replace_spans(text, "[[", "]]", _render_link)
    text = _EXTERNAL.sub(lambda m: _render_external(m, keep_urls), text)
    text = _BOLD_ITALIC.sub("", text)
    text = _BREAK.sub(" ", text)
    text = _TAG.sub("", text)
    text = _MAGIC.sub("", text)
    text = html.unescape(text).replace("\xa0", " ")
    text = re.sub(r"\(\s*[,;:]?\s*\)|\[\s*\]", "", text)
    text = re.sub(r"[ \t]+([,.;:])", r"\1", text)
    return re.sub(r"[ \t]{2,}", " ", text).strip()


def clean_block(text: str, references: list[str]) -> str:
    """A section body: tables and templates out, list markers as '- ', prose kept."""
    text = extract_refs(text, references)
    text = replace_spans(text, "{{", "}}", lambda body: _render_template(body, references))
    text = strip_tables(text)
    text = replace_spans(text, "[[", "]]", _render_link)  # file links may span lines
    lines: list[str] = []
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line.startswith(("|", "!")) or re.fullmatch(r"-{4,}", line):
            lines.append("")
            continue
        marker = re.match(r"^([*#:;]+)\s*", line)
        body = clean_inline(line[marker.end() :] if marker else line, references)
        if marker and body and marker.group(1)[-1] in "*#":
            body = f"- {body}"
        lines.append(body)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
