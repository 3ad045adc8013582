"""The writer graph's typed state and its runtime context.

State holds only plain data (it is checkpointed after every step): the record as a dict, the plan,
the sections written so far (appended by a reducer), the results judge's last verdict and, at the
end, the document. Models, configuration and the event sink travel in the runtime context instead,
which is never checkpointed.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

from longeval.agents.config import WriterConfig
from longeval.agents.types import PlannedSection
from longeval.data.records import Record
from longeval.llm.types import ChatModel


class WrittenSection(TypedDict):
    heading: str
    text: str
    required_words: int
    words: int
    seconds: float


class WriterState(TypedDict, total=False):
    doc_id: str
    record: dict[str, Any]  # Record.model_dump(mode="json")
    planner: str
    paradigm: Literal["plan", "direct"]
    sections: list[PlannedSection]  # set by `plan`
    written: Annotated[list[WrittenSection], operator.add]  # one entry per written section, in order
    direct_text: str  # the direct paradigm's single reply
    needs_results: bool  # the results judge's verdict on the next section
    document: dict[str, Any]  # GeneratedDocument.model_dump(mode="json"), set by `assemble`


def _drop_event(event: dict[str, Any]) -> None:
    return None


@dataclass
class WriterContext:
    """What nodes need besides the state: models per role, the configuration and where events go."""

    writer: ChatModel
    results_judge: ChatModel
    config: WriterConfig
    event_sink: Callable[[dict[str, Any]], None] = field(default=_drop_event)


def initial_state(record: Record, doc_id: str, config: WriterConfig) -> WriterState:
    return WriterState(
        doc_id=doc_id,
        record=record.model_dump(mode="json"),
        planner=config.planner,
        paradigm=config.paradigm,
        written=[],
    )


def record_of(state: WriterState) -> Record:
    return Record.model_validate(state["record"])


def next_index(state: WriterState) -> int:
    """The section to write next: the number written so far (sections are written in plan order)."""
    return len(state.get("written", []))
