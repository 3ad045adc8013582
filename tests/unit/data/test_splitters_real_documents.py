"""Real documents from ../shared/data: every PEP and every Wikipedia article splits into its real sections.

Expected headings are read from the source with plain regular expressions, independently of the
splitters, and compared in order (with their levels).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from longeval.data.splitters import split_document

SHARED_DATA = Path(__file__).resolve().parents[3] / ".." / "shared" / "data"
PEPS = sorted((SHARED_DATA / "peps").glob("pep-*.rst"))
ARTICLES = sorted((SHARED_DATA / "wikipedia").glob("*.txt"))

# An RST title: a blank line, an optional overline, the title, an underline of one repeated punctuation
# character, as long as the title or at least 4 characters (docutils accepts a short one with a warning).
RST_TITLE = re.compile(r"(?m)^\n(?:([=\-~^*'+#.\"])\1+\n)?(\S[^\n]*)\n(([=\-~^*'+#.\"])\4{2,})[ \t]*$")
WIKI_HEADING = re.compile(r"(?m)^(={2,6})[ \t]*(.+?)[ \t]*\1[ \t]*$")


def rank_levels(styles: list[object]) -> list[int]:
    order: dict[object, int] = {}
    for style in styles:
        order.setdefault(style, len(order) + 1)
    return [order[s] for s in styles]


def expected_pep_outline(source: str) -> list[tuple[int, str]]:
    found = [m for m in RST_TITLE.findall(source) if len(m[2]) >= min(len(m[1]), 4)]
    titles = [title.replace("``", "").strip() for _, title, _, _ in found]
    return list(zip(rank_levels([(over != "", char) for over, _, _, char in found]), titles, strict=True))


def plain_wiki_heading(text: str) -> str:
    text = re.sub(r"<ref[^>]*>.*?</ref>|<ref[^>]*/>|\{\{[^{}]*\}\}|'{2,}", "", text)
    text = re.sub(r"\[\[(?:[^|\]]*\|)?([^\]]*)\]\]", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def expected_wiki_outline(source: str) -> list[tuple[int, str]]:
    found = WIKI_HEADING.findall(re.sub(r"<!--.*?-->", "", source, flags=re.S))
    counts = sorted({len(marks) for marks, _ in found})
    return [(counts.index(len(marks)) + 1, plain_wiki_heading(text)) for marks, text in found]


@pytest.mark.skipif(not PEPS, reason=f"no PEPs in {SHARED_DATA / 'peps'} (shared data absent)")
@pytest.mark.parametrize("path", PEPS, ids=lambda p: p.name)
def test_pep_splits_into_its_sections(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    doc = split_document(source, name=path.name)
    assert [(s.level, s.heading) for s in doc.sections] == expected_pep_outline(source)
    index = {e["file"]: e for e in json.loads((SHARED_DATA / "peps" / "index.json").read_text(encoding="utf-8"))}
    assert doc.title == index[path.name]["title"]
    kept = [s.heading for s in doc.content_sections()]
    assert "Abstract" in kept and "Copyright" not in kept and "References" not in kept
    body = "\n".join(s.text for s in doc.sections)
    assert not re.search(r"\[#?\w*\]_|:pep:`", body), "footnote references and roles are cleaned"
    if re.search(r"(?m)^\.\. \[[^\]]+\][ \t]+\S", source):  # a footnote with its text
        assert doc.references, "footnotes become references"


@pytest.mark.skipif(not ARTICLES, reason=f"no articles in {SHARED_DATA / 'wikipedia'} (shared data absent)")
@pytest.mark.parametrize("path", ARTICLES, ids=lambda p: p.name)
def test_wikipedia_article_splits_cleanly(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    doc = split_document(source, name=path.name)
    assert [(s.level, s.heading) for s in doc.sections] == expected_wiki_outline(source)
    cleaned = "\n".join([doc.lead, *(s.text for s in doc.sections)])
    for markup in ("{{", "}}", "[[", "<ref"):
        assert markup not in cleaned, f"{markup!r} left in the gold text"
    if re.search(r"<ref|&lt;ref", source):
        assert doc.references, "<ref> citations become references"
    assert len(cleaned.split()) > 0.3 * len(source.split()), "cleaning kept the prose"
    assert doc.title and doc.lead
    boilerplate = {
        "see also",
        "references",
        "external links",
        "further reading",
        "notes",
        "weblinks",
        "einzelnachweise",
        "literatur",
        "siehe auch",
    }
    assert not boilerplate & {s.heading.lower() for s in doc.content_sections()}
