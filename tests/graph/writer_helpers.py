"""Helpers for writer tests: records of each domain, and a scripted writer whose sections say which section they are."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from longeval.data.records import Record, Section
from longeval.llm.scripted import ScriptedModel
from longeval.llm.types import Message

WRITE_PURPOSES = ("write.first_section", "write.section", "write.related_work", "write.results_section")
_ASKED_HEADING = re.compile(r'(?:write the section|Write) "([^"]+)"')


def asked_heading(messages: list[Message]) -> str:
    found = _ASKED_HEADING.search(messages[-1]["content"])
    assert found, "a writing prompt names the section it asks for"
    return found.group(1)


def body_of(heading: str) -> str:
    return f"BODY[{heading}] " + "lorem " * 9


def section_reply(messages: list[Message]) -> str:
    return body_of(asked_heading(messages))


def judge_says_yes_for(*headings: str) -> Callable[[list[Message]], str]:
    def reply(messages: list[Message]) -> str:
        found = re.search(r'next section is "([^"]+)"', messages[-1]["content"])
        assert found, "the results judge's prompt names the section"
        return json.dumps({"needs_results": any(h in found.group(1) for h in headings)})

    return reply


def scripted_writer(judge_yes: tuple[str, ...] = ("Experiments",)) -> ScriptedModel:
    model = ScriptedModel()
    for purpose in WRITE_PURPOSES:
        model.script(purpose, section_reply)
    model.script("judge.results_needed", judge_says_yes_for(*judge_yes))
    return model


def make_record(domain: str, headings: list[str], *, references: bool = True, results: bool = True) -> Record:
    return Record(
        id=f"{domain}-1",
        domain=domain,  # type: ignore[arg-type]
        title=f"A {domain} document",
        sections=[Section(heading=h, text="gold " * (40 + 10 * i), plan=f"PLAN[{h}]") for i, h in enumerate(headings)],
        references=["Smith 2020. REF-ONE.", "Lee 2021. REF-TWO."] if references else [],
        experiment_results=["RESULTS-TABLE: accuracy 91.2 vs 88.0"] if results else [],
    )


ARXIV_HEADINGS = ["Abstract", "1 Introduction", "2 Related Work", "3 Method", "4 Experiments", "5 Conclusion"]
