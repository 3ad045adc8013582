"""Splitters on fixtures written for the tests: LaTeX, Markdown, reStructuredText, wikitext."""

from __future__ import annotations

from pathlib import Path

import pytest

from longeval.data.splitters import SplitDocument, UnknownFormatError, detect_format, split_document

FIXTURES = Path(__file__).parent / "fixtures"


def outline(document: SplitDocument) -> list[tuple[int, str]]:
    return [(s.level, s.heading) for s in document.sections]


def test_latex_sections_levels_abstract_and_bibliography() -> None:
    doc = split_document((FIXTURES / "paper.tex").read_text(encoding="utf-8"), name="paper.tex")
    assert doc.title == "Sparse Routing for Tiny Language Models"
    assert outline(doc) == [
        (1, "Abstract"),
        (1, "Introduction"),
        (1, "Related Work"),
        (2, "Routing functions"),
        (3, "Load balancing"),  # \subsubsection*
        (1, "Method"),
        (1, "Experiments"),
        (1, "Conclusion"),  # \section*
    ]
    by_heading = {s.heading: s.text for s in doc.sections}
    assert by_heading["Abstract"].startswith("We study how sparse routing")
    assert "4%" in by_heading["Abstract"]
    assert by_heading["Introduction"].startswith("Small models are cheap to run but write poorly.")
    assert "\\cite" not in by_heading["Introduction"] and "three experiments" in by_heading["Introduction"]
    assert "This is code, not a heading" in by_heading["Method"]  # verbatim kept, not split on
    assert "Routing diagram" not in by_heading["Method"]  # floats dropped
    assert "- Perplexity drops from 31.2 to 29.9." in by_heading["Experiments"]
    assert "comment" not in " ".join(by_heading)  # a \section inside a % comment is no section
    assert doc.references == [
        "R. Jacobs et al. Adaptive mixtures of local experts. Neural Computation, 1991.",
        "N. Shazeer et al. Outrageously large neural networks. ICLR, 2017.",
    ]


def test_markdown_headings_code_fences_and_links() -> None:
    doc = split_document((FIXTURES / "post.md").read_text(encoding="utf-8"), name="post.md")
    assert doc.title == "Keeping a Sourdough Starter Alive"  # from front matter
    assert outline(doc) == [
        (1, "Introduction"),
        (1, "Feeding schedule"),
        (2, "Weekends"),
        (1, "Troubleshooting"),  # setext heading
        (1, "See also"),
    ]
    schedule = doc.sections[1].text
    assert "# this line starts with a hash but is code" in schedule and "## neither is this one" in schedule
    assert doc.lead.startswith("A starter is a small colony")
    assert "Read the feeding guide before you start" in doc.sections[0].text  # link text kept, URL gone
    assert "jar.png" not in doc.sections[3].text
    assert [s.heading for s in doc.content_sections()] == [
        "Introduction",
        "Feeding schedule",
        "Weekends",
        "Troubleshooting",
    ]
    assert "A. Baker, Starters at Home, 2021." in doc.references
    assert any("https://example.org/guide" in r for r in doc.references)


def test_markdown_single_h1_is_the_title() -> None:
    doc = split_document("# My Post\n\nHello there.\n\n## Part one\n\nText.\n\n## Part two\n\nMore.\n", "md")
    assert doc.title == "My Post" and doc.lead == "Hello there."
    assert outline(doc) == [(1, "Part one"), (1, "Part two")]


RST = """\
=========
The Title
=========

Opening words.

Overview
========

See :pep:`8` and ``code`` with a note [#note]_.

Details
-------

Nested text::

    Not a heading
    =============

References
==========

.. [#note] A. Author, A Footnote, 2020.
.. _Python: https://www.python.org
"""


def test_rst_styles_literal_blocks_and_footnotes() -> None:
    doc = split_document(RST, name="doc.rst")
    assert doc.title == "The Title"
    assert outline(doc) == [(1, "Overview"), (2, "Details"), (1, "References")]
    assert doc.sections[0].text == "See PEP 8 and code with a note."
    assert "Not a heading" in doc.sections[1].text
    assert doc.references == ["A. Author, A Footnote, 2020.", "Python: https://www.python.org"]
    assert [s.heading for s in doc.content_sections()] == ["Overview", "Details"]


WIKI = """\
{{Infobox settlement
| name = Exampleton
| population = {{formatnum:1000}}
}}
'''Exampleton''' is a town<ref>{{cite web|title=About Exampleton|publisher=Town Council|url=http://example.org}}</ref> \
on the [[River Test|river]], about {{convert|5|km}} from the coast.<ref name="a">Smith, J. (2001). ''A History''.</ref>
<!-- == Hidden heading == -->
== History ==
[[File:Town.jpg|thumb|The town in [[1900]]]]
Founded in 1200.<ref name="a" /> It grew.
{| class="wikitable"
! Year !! People
|-
| 1900 || 500
|}
=== Modern times ===
* Markets
* Fairs
== See also ==
* [[Other town]]
== References ==
{{reflist}}
[[Category:Towns]]
"""


def test_wikitext_cleaning_and_references() -> None:
    doc = split_document(WIKI, name="Exampleton.wiki")
    assert doc.title == "Exampleton"
    assert outline(doc) == [(1, "History"), (2, "Modern times"), (1, "See also"), (1, "References")]
    assert doc.lead == "Exampleton is a town on the river, about 5 km from the coast."
    assert doc.sections[0].text == "Founded in 1200. It grew."
    assert doc.sections[1].text == "- Markets\n- Fairs"
    assert doc.references == [
        "About Exampleton. Town Council. http://example.org",
        "Smith, J. (2001). A History.",
    ]
    assert [s.heading for s in doc.content_sections()] == ["History", "Modern times"]


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("x", "a.md", "md"),
        ("x", "a.rst", "rst"),
        ("x", "a.tex", "latex"),
        ("== A ==\ntext", "a.txt", "wikitext"),
        ("\\section{A}\ntext", "a.txt", "latex"),
        ("Title\n=====\n\ntext", "a.txt", "rst"),
        ("## A\ntext", "a.txt", "md"),
    ],
)
def test_detect_format(text: str, name: str, expected: str) -> None:
    assert detect_format(text, name) == expected


def test_undetectable_format_names_the_flag() -> None:
    with pytest.raises(UnknownFormatError, match="--format"):
        detect_format("just words", "notes.txt")
    with pytest.raises(UnknownFormatError, match="unknown format"):
        split_document("x", "docx")
