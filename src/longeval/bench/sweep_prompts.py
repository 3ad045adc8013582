"""Prompts for the length sweep: each asks for a text of a given required length.

Two sources:
- `plans`: a record's content plan (the sample dataset or a records file), the whole document as one
  text of the required length, as the paper's length experiment (its Figure 2) asks;
- `ruler`: LongBench-Write style instructions ("Write a 1000-word China travel guide"), read in place
  from a JSONL file with a `prompt` field (e.g. LongWriter's `longwrite_ruler.jsonl`); the length in
  the instruction is replaced by each required length. English instructions only, one per topic.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from longeval.agents.texts import document_kind
from longeval.data.records import Record
from longeval.llm.types import Message
from longeval.prompts import load_prompt

SweepSource = Literal["plans", "ruler"]
_LENGTH_PHRASE = re.compile(r"\b\d[\d,]*(?=(?:-| )words?\b)", re.I)


class SweepInputError(ValueError):
    """A prompts file the sweep cannot use: names the file, line and what is wrong."""


@dataclass(frozen=True)
class SweepPrompt:
    prompt_id: str
    source: SweepSource
    template: str  # an instruction with `{words}` where the length goes, or a record's plan

    def messages(self, words: int, record: Record | None = None) -> list[Message]:
        if self.source == "ruler":
            instruction = self.template.replace("{words}", str(words))
            return load_prompt("length_sweep_instruction").render_messages(instruction=instruction)
        assert record is not None
        plan = "\n\n".join(f"## {s.heading}\n{s.plan.strip()}" for s in record.sections)
        return load_prompt("length_sweep_plan").render_messages(
            kind=document_kind(record.domain), title=record.title, plan=plan, words=words
        )


def plan_prompts(records: list[Record], count: int) -> tuple[list[SweepPrompt], dict[str, Record]]:
    """The first `count` records that have a content plan for every section."""
    usable = [r for r in records if all(s.plan.strip() for s in r.sections)][:count]
    if not usable:
        raise SweepInputError("no record with a content plan for every section; use --source ruler")
    return [SweepPrompt(r.id, "plans", r.id) for r in usable], {r.id: r for r in usable}


def ruler_prompts(path: Path, count: int) -> list[SweepPrompt]:
    """One English instruction per topic, its length phrase made a `{words}` slot."""
    if not path.is_file():
        raise SweepInputError(f"--prompts-file: {path} does not exist")
    prompts: dict[str, SweepPrompt] = {}
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise SweepInputError(f"{path}:{line_no}: not valid JSON ({exc.msg})") from exc
        text = row.get("prompt") if isinstance(row, dict) else None
        if not isinstance(text, str) or not text.strip():
            raise SweepInputError(f"{path}:{line_no}: field prompt: a non-empty string is required")
        if not text.isascii() or not _LENGTH_PHRASE.search(text):
            continue  # the sweep measures English word counts, and needs a length to replace
        template = _LENGTH_PHRASE.sub("{words}", text.replace("{", "(").replace("}", ")"), count=1)
        topic = template.casefold()
        if topic not in prompts:
            prompts[topic] = SweepPrompt(f"ruler-{line_no}", "ruler", template)
        if len(prompts) == count:
            break
    if not prompts:
        raise SweepInputError(f"{path}: no English instruction with a length phrase like '1000-word'")
    return list(prompts.values())
