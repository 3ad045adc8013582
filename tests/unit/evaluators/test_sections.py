"""Pairing generated sections with gold sections; the introduction and body sections."""

from __future__ import annotations

from longeval.data.records import GeneratedSection
from longeval.evaluators.sections import align_sections, body_pairs, introduction_pair, normalise_heading
from tests.fakes.longeval_documents import make_document, make_record


def test_same_count_pairs_by_position() -> None:
    record = make_record("arxiv")
    document = make_document(record)
    pairs = align_sections(record, document)
    assert [p.generated.heading for p in pairs if p.generated] == [s.heading for s in record.sections]


def test_other_counts_pair_by_normalised_heading() -> None:
    record = make_record("arxiv")
    document = make_document(record)
    kept = [GeneratedSection(heading="## 3. method", text="m", required_words=1, words=1)]
    pairs = align_sections(record, document.model_copy(update={"sections": kept}))
    assert [p.generated is not None for p in pairs] == [False, False, False, True, False, False]


def test_normalise_heading_drops_numbering_and_case() -> None:
    assert normalise_heading("2.1 Related  Work") == "related work"
    assert normalise_heading("IV. Results") == "results"


def test_introduction_by_heading_else_first_section_after_abstract() -> None:
    arxiv = align_sections(make_record("arxiv"), make_document(make_record("arxiv")))
    assert introduction_pair(arxiv).gold.heading == "1 Introduction"
    blog = align_sections(make_record("blog"), make_document(make_record("blog")))
    assert introduction_pair(blog).gold.heading == "Why I moved to Rust"


def test_body_sections_leave_out_abstract_introduction_related_work_and_conclusion() -> None:
    pairs = align_sections(make_record("arxiv"), make_document(make_record("arxiv")))
    assert [p.gold.heading for p in body_pairs(pairs)] == ["3 Method", "4 Experiments"]
