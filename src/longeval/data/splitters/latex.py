"""LaTeX papers into sections.

`\\section`, `\\subsection`, ... (starred or not, with an optional short title) split the body; the
`abstract` environment becomes an "Abstract" section; `\\bibitem` entries become references.
Floats are dropped, verbatim blocks kept as they are, and formatting commands reduced to their text.
"""

from __future__ import annotations

import re

from longeval.data.splitters.base import SplitDocument, SplitSection, dedupe, normalize_levels, tidy_text

_LEVELS = {
    "part": 0,
    "chapter": 1,
    "section": 2,
    "subsection": 3,
    "subsubsection": 4,
    "paragraph": 5,
    "subparagraph": 6,
}
_HEADING = re.compile(
    r"\\(part|chapter|section|subsection|subsubsection|paragraph|subparagraph)\*?\s*(?:\[[^\]]*\])?\s*\{"
)
_COMMENT = re.compile(r"(?<!\\)%.*$", re.M)
_VERBATIM = re.compile(r"\\begin\{(verbatim|lstlisting|minted|Verbatim|comment)\}.*?\\end\{\1\}", re.S)
_FLOATS = re.compile(r"\\begin\{(figure\*?|table\*?|tikzpicture|wrapfigure|algorithm\*?)\}.*?\\end\{\1\}", re.S)
_ABSTRACT = re.compile(r"\\begin\{abstract\}(.*?)\\end\{abstract\}", re.S)
_BIBLIOGRAPHY = re.compile(r"\\begin\{thebibliography\}(?:\{[^}]*\})?(.*?)\\end\{thebibliography\}", re.S)
_BIBITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{[^}]*\}")
_DROPPED_WITH_ARG = re.compile(
    r"\\(cite[a-z]*|ref|eqref|autoref|cref|Cref|label|footnote|bibliographystyle|bibliography|"
    r"includegraphics|vspace|hspace|thanks)\*?\s*(?:\[[^\]]*\])*\s*\{[^{}]*\}"
)
_HREF = re.compile(r"\\href\s*\{[^{}]*\}\s*\{([^{}]*)\}")
_KEEP_ARG = re.compile(r"\\[a-zA-Z]+\*?\s*\{([^{}]*)\}")
_BARE_COMMAND = re.compile(r"\\[a-zA-Z]+\*?(?:\[[^\]]*\])?")
_ITEM = re.compile(r"\\item\s*(?:\[([^\]]*)\])?\s*")


def balanced_group(text: str, open_at: int) -> tuple[str, int]:
    """The text inside the `{...}` opening at `open_at`, and the index after its closing brace."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "{" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif text[i] == "}" and text[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[open_at + 1 : i], i + 1
    return text[open_at + 1 :], len(text)


def clean_latex(text: str) -> str:
    verbatim: list[str] = []

    def hold(match: re.Match[str]) -> str:
        verbatim.append(re.sub(r"\\(begin|end)\{[^}]*\}(\[[^\]]*\])?", "", match.group(0)).strip("\n"))
        return f"\x00{len(verbatim) - 1}\x00"

    text = _VERBATIM.sub(hold, text)
    text = _FLOATS.sub("", text)
    text = _ITEM.sub(lambda m: f"\n- {m.group(1) + ': ' if m.group(1) else ''}", text)
    text = re.sub(r"\\(begin|end)\{[^}]*\}(\{[^}]*\})?", "\n", text)
    text = _HREF.sub(r"\1", text)
    for _ in range(4):  # nested formatting: \textbf{\emph{x}}
        text = _DROPPED_WITH_ARG.sub("", text)
        text = _KEEP_ARG.sub(r"\1", text)
    text = text.replace("\\\\", "\n").replace("~", " ").replace("``", '"').replace("''", '"').replace("---", "—")
    text = text.replace("--", "–")
    text = re.sub(r"\\([%&#_$])", r"\1", text)
    text = _BARE_COMMAND.sub("", text)
    text = text.replace("{", "").replace("}", "")
    text = re.sub(r"[ \t]+([,.;:)])", r"\1", text)
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"\x00(\d+)\x00", lambda m: verbatim[int(m.group(1))], text)
    return tidy_text(text)


def split_latex(source: str) -> SplitDocument:
    text = _COMMENT.sub("", source.replace("\r\n", "\n"))
    title_match = re.search(r"\\title\s*(?:\[[^\]]*\])?\s*\{", text)
    title = clean_latex(balanced_group(text, title_match.end() - 1)[0]) if title_match else None
    body_match = re.search(r"\\begin\{document\}(.*?)(?:\\end\{document\}|\Z)", text, re.S)
    body = body_match.group(1) if body_match else text

    references: list[str] = []
    for bibliography in _BIBLIOGRAPHY.finditer(body):
        entries = _BIBITEM.split(bibliography.group(1))[1:]
        references.extend(clean_latex(entry).replace("\n", " ") for entry in entries)
    body = _BIBLIOGRAPHY.sub("", body)
    masked = _VERBATIM.sub(lambda m: " " * len(m.group(0)), body)  # no headings inside verbatim

    abstract_match = _ABSTRACT.search(body)
    abstract = clean_latex(abstract_match.group(1)) if abstract_match else ""
    if abstract_match:
        body = body[: abstract_match.start()] + " " * len(abstract_match.group(0)) + body[abstract_match.end() :]

    found: list[tuple[int, int, str, int]] = []  # (start, body start, heading, level)
    for match in _HEADING.finditer(masked):
        heading, after = balanced_group(body, match.end() - 1)
        found.append((match.start(), after, clean_latex(heading), _LEVELS[match.group(1)]))
    sections = [
        SplitSection(heading, level, clean_latex(body[after : found[n + 1][0] if n + 1 < len(found) else len(body)]))
        for n, (_, after, heading, level) in enumerate(found)
    ]
    if abstract:
        top = min((s.level for s in sections), default=2)
        sections.insert(0, SplitSection("Abstract", top, abstract))
    lead = body[: found[0][0]] if found else body
    lead = re.sub(r"\\(maketitle|title|author|date|affil|affiliation)\b\*?(\[[^\]]*\])?(\{[^{}]*\})?", "", lead)
    return SplitDocument(
        title=title or None,
        sections=normalize_levels(sections),
        lead=clean_latex(lead),
        references=dedupe(references),
    )
