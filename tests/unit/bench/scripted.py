"""Scripted writer and judge backends for bench tests: deterministic replies that differ per prompt."""

from __future__ import annotations

import hashlib
import json
import re

from longeval.llm.scripted import ScriptedModel
from longeval.llm.types import Message

WRITING_PURPOSES = (
    "write.first_section",
    "write.section",
    "write.related_work",
    "write.results_section",
    "write.continue",
    "write.tighten",
)
JUDGE_SCORE_PURPOSES = (
    "judge.content_following",
    "judge.redundancy",
    "judge.consistency",
    "judge.introduction",
    "judge.related_work",
    "judge.experiment_analysis",
    "judge.method",
)
_OUTLINE_HEADING = re.compile(r"^## (.+?) \(at least \d+ words\)$", re.M)


def digest(messages: list[Message]) -> int:
    text = "\n".join(m["content"] for m in messages)
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


def section_text(messages: list[Message]) -> str:
    words = 20 + digest(messages) % 40
    return " ".join(f"w{(digest(messages) + i) % 97}" for i in range(words))


def direct_text(messages: list[Message]) -> str:
    prompt = "\n".join(m["content"] for m in messages)
    headings = _OUTLINE_HEADING.findall(prompt)
    return "\n\n".join(f"## {h}\n\n{section_text(messages)} {i}" for i, h in enumerate(headings))


def grade(messages: list[Message]) -> str:
    return json.dumps({"score": 1 + digest(messages) % 10})


def yes_no(field: str, answer: bool | None = None):
    def reply(messages: list[Message]) -> str:
        return json.dumps({field: answer if answer is not None else digest(messages) % 2 == 0})

    return reply


def scripted_writer(name: str = "scripted-writer", *, results_answer: bool | None = None) -> ScriptedModel:
    model = ScriptedModel(model_name=name, endpoint_name=f"scripted://{name}")
    for purpose in WRITING_PURPOSES:
        model.script(purpose, section_text)
    model.script("write.direct", direct_text)
    model.script("judge.results_needed", yes_no("needs_results", results_answer))
    return model


def scripted_judge(name: str = "scripted-judge", *, ea_answer: bool | None = None) -> ScriptedModel:
    model = ScriptedModel(model_name=name, endpoint_name=f"scripted://{name}")
    for purpose in JUDGE_SCORE_PURPOSES:
        model.script(purpose, grade)
    model.script("judge.ea_applies", yes_no("analyses_experiments", ea_answer))
    return model
