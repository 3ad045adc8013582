"""Where the writer goes next: pure functions of the state, tested directly.

Domain rules (sections are recognised by heading, never by position):
- arXiv: a Related Work section goes to `related_work` with the references; every other later section
  first goes to `results_judge` (when the record has experiment results), which sends it to
  `results_section` or `section`.
- Wikipedia: the references go to the first section (see `first_section_gets_references`).
- Blog: neither.
"""

from __future__ import annotations

from typing import Literal

from longeval.data.records import section_role
from longeval.graph.writer_state import WriterState, next_index

NextNode = Literal["related_work", "results_judge", "section", "assemble"]
AfterJudge = Literal["results_section", "section"]


def _has_any(items: list[str] | None) -> bool:
    return any(item.strip() for item in items or [])


def first_section_gets_references(state: WriterState) -> bool:
    record = state["record"]
    return record["domain"] == "wikipedia" and _has_any(record.get("references"))


def route_next_section(state: WriterState) -> NextNode:
    """After any writing step: the node that writes the next section, or `assemble` when all are written."""
    if state.get("paradigm") == "direct":
        return "assemble"  # the direct paradigm wrote everything in its one call
    index = next_index(state)
    sections = state.get("sections", [])
    if index >= len(sections):
        return "assemble"
    record = state["record"]
    if record["domain"] != "arxiv":
        return "section"
    if section_role(sections[index]["heading"]) == "related_work" and _has_any(record.get("references")):
        return "related_work"
    if _has_any(record.get("experiment_results")):
        return "results_judge"
    return "section"


def route_after_results_judge(state: WriterState) -> AfterJudge:
    return "results_section" if state.get("needs_results") else "section"
