"""The direct paradigm: the whole document in one call, then split back into its sections by heading."""

from __future__ import annotations

import re

import structlog

from longeval.agents.calls import call_prompt
from longeval.agents.config import WriterConfig
from longeval.agents.texts import (
    NONE_GIVEN,
    document_kind,
    format_references,
    format_results,
    normalise_heading,
)
from longeval.agents.types import Draft, PlannedSection
from longeval.data.records import Record
from longeval.llm.types import ChatModel

log = structlog.get_logger(__name__)

_HEADING_LINE = re.compile(r"^\s{0,3}(?:#{1,6}\s+(?P<md>.+?)\s*#*|\*\*(?P<bold>[^*\n]+)\*\*:?)\s*$", re.M)


def format_outline(sections: list[PlannedSection]) -> str:
    return "\n\n".join(f"## {s['heading']} (at least {s['words']} words)\n{s['plan'] or NONE_GIVEN}" for s in sections)


async def write_direct(record: Record, sections: list[PlannedSection], model: ChatModel, config: WriterConfig) -> Draft:
    total = sum(s["words"] for s in sections)
    call = await call_prompt(
        model,
        "write_direct",
        purpose="write.direct",
        max_tokens=config.direct_max_tokens(total),
        temperature=config.temperature,
        seed=config.seed,
        kind=document_kind(record.domain),
        title=record.title,
        outline=format_outline(sections),
        references=format_references(record.references),
        results=format_results(record.experiment_results),
        words=total,
    )
    return Draft(text=call.completion.text.strip(), calls=[call])


def split_by_headings(text: str, headings: list[str]) -> list[str]:
    """The text under each planned heading, in plan order ("" where the model left a section out).

    Blocks are matched by normalised heading; when no heading matches but the model wrote exactly
    one block per section, blocks are taken in order (it renamed them). When the reply has no usable
    headings at all, the whole text goes to the first section rather than being lost.
    """
    marks = list(_HEADING_LINE.finditer(text))
    blocks: list[tuple[str, str]] = []
    for i, mark in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        blocks.append((normalise_heading(mark.group("md") or mark.group("bold")), text[mark.end() : end].strip()))
    wanted = [normalise_heading(h) for h in headings]
    found: dict[int, str] = {}
    used: set[int] = set()
    for i, target in enumerate(wanted):
        for j, (name, body) in enumerate(blocks):
            if j not in used and (name == target or (target and target in name)):
                found[i] = body
                used.add(j)
                break
    if found:
        return [found.get(i, "") for i in range(len(headings))]
    if len(blocks) == len(headings):
        return [body for _, body in blocks]
    log.warning("direct.no_headings", headings=len(headings), blocks=len(blocks))
    return [text.strip()] + [""] * (len(headings) - 1)
