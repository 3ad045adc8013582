"""Routing is a pure function of the state: every domain rule, checked without running a graph."""

from __future__ import annotations

from typing import Any

import pytest

from longeval.agents.config import WriterConfig
from longeval.data.records import Record
from longeval.graph.writer_routing import (
    first_section_gets_references,
    route_after_results_judge,
    route_next_section,
)
from longeval.graph.writer_state import WriterState, initial_state
from tests.graph.writer_helpers import make_record


def state_at(record: Record, written: int, **extra: Any) -> WriterState:
    state = initial_state(record, "doc", WriterConfig())
    state["sections"] = [{"heading": s.heading, "plan": s.plan, "words": s.words} for s in record.sections]
    state["written"] = [
        {"heading": s.heading, "text": "x", "required_words": s.words, "words": 1, "seconds": 0.0}
        for s in record.sections[:written]
    ]
    state.update(extra)  # type: ignore[typeddict-item]
    return state


def test_arxiv_routes_by_heading(arxiv_record: Record) -> None:
    # Abstract, 1 Introduction, 2 Related Work, 3 Method, 4 Experiments, 5 Conclusion
    routes = [route_next_section(state_at(arxiv_record, i)) for i in range(1, 7)]
    assert routes == ["results_judge", "related_work", "results_judge", "results_judge", "results_judge", "assemble"]


def test_related_work_is_found_by_heading_not_position() -> None:
    record = make_record("arxiv", ["Abstract", "Background", "Method", "Prior Work and Context", "Conclusion"])
    assert route_next_section(state_at(record, 3)) == "related_work"
    assert route_next_section(state_at(record, 1)) == "results_judge"


def test_arxiv_without_references_or_results_writes_plain_sections() -> None:
    record = make_record("arxiv", ["Abstract", "Related Work", "Experiments"], references=False, results=False)
    assert route_next_section(state_at(record, 1)) == "section"
    assert route_next_section(state_at(record, 2)) == "section"


def test_empty_strings_count_as_no_results() -> None:
    record = make_record("arxiv", ["Abstract", "Experiments"], results=False)
    record = record.model_copy(update={"experiment_results": ["", "  "]})
    assert route_next_section(state_at(record, 1)) == "section"


@pytest.mark.parametrize("domain", ["wikipedia", "blog"])
def test_other_domains_never_judge_or_use_related_work(domain: str) -> None:
    record = make_record(domain, ["Introduction", "Related Work", "Experiments", "End"])
    assert [route_next_section(state_at(record, i)) for i in range(1, 5)] == ["section"] * 3 + ["assemble"]


def test_only_wikipedia_gives_references_to_the_first_section() -> None:
    assert first_section_gets_references(state_at(make_record("wikipedia", ["Overview"]), 0))
    assert not first_section_gets_references(state_at(make_record("wikipedia", ["Overview"], references=False), 0))
    assert not first_section_gets_references(state_at(make_record("arxiv", ["Abstract"]), 0))
    assert not first_section_gets_references(state_at(make_record("blog", ["Intro"]), 0))


def test_results_judge_verdict_routes_both_ways(arxiv_record: Record) -> None:
    assert route_after_results_judge(state_at(arxiv_record, 4, needs_results=True)) == "results_section"
    assert route_after_results_judge(state_at(arxiv_record, 4, needs_results=False)) == "section"


def test_direct_paradigm_goes_straight_to_assemble(arxiv_record: Record) -> None:
    assert route_next_section(state_at(arxiv_record, 0, paradigm="direct")) == "assemble"
