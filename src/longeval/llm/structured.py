"""Structured output: ask with a JSON schema, validate with pydantic, one corrective retry, then unscored.

A failure is never turned into a value: the caller gets `value=None`, the error and every raw reply.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from longeval.llm.types import ChatModel, Completion, Message
from longeval.prompts import load_prompt

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


@dataclass
class StructuredResult(Generic[T]):
    value: T | None
    raw: str
    error: str | None = None
    completions: list[Completion] = field(default_factory=list)
    raw_replies: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.value is not None

    @property
    def cached(self) -> bool:
        return bool(self.completions) and all(c.cached for c in self.completions)


def extract_json(text: str) -> str:
    """The JSON object inside a reply: models wrap it in code fences or prose."""
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1)
    start = text.find("{")
    end = text.rfind("}")
    if start == -1 or end < start:
        return text.strip()
    return text[start : end + 1]


def parse_reply(text: str, schema: type[T]) -> T:
    """Validate a reply; raises ValueError with a short reason a model can act on."""
    try:
        return schema.model_validate_json(extract_json(text))
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'reply'}: {e['msg']}" for e in exc.errors()[:5])
        raise ValueError(f"the JSON did not match the schema ({problems})") from exc


async def complete_structured(
    model: ChatModel,
    messages: list[Message],
    *,
    schema: type[T],
    purpose: str,
    max_tokens: int = 512,
    temperature: float = 0.0,
    seed: int = 0,
    validate: Callable[[T], str | None] | None = None,
) -> StructuredResult[T]:
    """`validate` adds checks beyond the schema (e.g. one item per checklist entry): it returns a
    reason to reject the reply, or None; a rejected reply gets the same corrective retry."""
    json_schema = schema.model_json_schema()
    completions: list[Completion] = []
    raws: list[str] = []
    conversation = list(messages)
    error = ""
    for attempt in range(2):  # the first try and one corrective retry
        completion = await model.complete(
            conversation,
            purpose=purpose,
            max_tokens=max_tokens,
            temperature=temperature,
            seed=seed + attempt,
            json_schema=json_schema,
        )
        completions.append(completion)
        raws.append(completion.text)
        try:
            value = parse_reply(completion.text, schema)
            rejection = validate(value) if validate is not None else None
            if rejection is not None:
                raise ValueError(rejection)
        except ValueError as exc:
            error = str(exc)
            correction = load_prompt("structured_correction").render(
                error=error, schema=json.dumps(json_schema, sort_keys=True)
            )
            conversation = [
                *messages,
                Message(role="assistant", content=completion.text),
                Message(role="user", content=correction),
            ]
            continue
        return StructuredResult(value=value, raw=completion.text, completions=completions, raw_replies=raws)
    return StructuredResult(
        value=None,
        raw=raws[-1],
        error=f"unscored after a corrective retry: {error}",
        completions=completions,
        raw_replies=raws,
    )
