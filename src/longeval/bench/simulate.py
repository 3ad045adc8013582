"""A model that answers without computing anything, for the dry run's plan of work.

Text replies are as long as the caller's token allowance asks for (so the writer sees sections of the
required length and length control makes no extra call); structured replies are a valid instance of
the schema asked for, with every yes/no answered `yes_no_answer`. Each call is logged with its purpose,
prompt size and an estimate of the tokens it would cost.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from longeval.agents.config import TOKEN_MARGIN, TOKENS_PER_WORD
from longeval.llm.types import Completion, Message

CHARS_PER_TOKEN = 4  # English prose; the same rule the limits use
COMPLETION_TOKENS_PER_WORD = 1.3
_OUTLINE_LINE = re.compile(r"^#{1,3} (.+?)(?: \(.*\))?\s*$", re.M)
_FILLER = ("plan", "model", "section", "results", "method", "length", "writer", "judges", "data", "table")


@dataclass(frozen=True)
class SimulatedCall:
    model: str
    purpose: str
    prompt_tokens: int
    completion_tokens: int


def schema_instance(schema: dict[str, Any], *, yes_no_answer: bool, root: dict[str, Any] | None = None) -> Any:
    """A small value valid under `schema` (the subset pydantic emits: objects, refs, bounds, arrays)."""
    root = root or schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return schema_instance(root.get("$defs", {})[name], yes_no_answer=yes_no_answer, root=root)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return schema_instance(options[0], yes_no_answer=yes_no_answer, root=root)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type", "object")
    if kind == "object":
        properties = schema.get("properties", {})
        return {k: schema_instance(v, yes_no_answer=yes_no_answer, root=root) for k, v in properties.items()}
    if kind == "boolean":
        return yes_no_answer
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        high = schema.get("maximum", schema.get("exclusiveMaximum", low + 10))
        middle = (low + high) / 2
        return int(middle) if kind == "integer" else middle
    if kind == "array":
        count = max(1, int(schema.get("minItems", 1)))
        return [schema_instance(schema.get("items", {}), yes_no_answer=yes_no_answer, root=root) for _ in range(count)]
    if kind == "string":
        return "x" * max(1, int(schema.get("minLength", 1)))
    return None


def words_for_allowance(max_tokens: int) -> int:
    """The words a caller asks for, read back from its token allowance (`agents.config.max_tokens_for`)."""
    return max(1, int((max_tokens - TOKEN_MARGIN) / TOKENS_PER_WORD) + 1)


def filler_text(words: int) -> str:
    return " ".join(_FILLER[i % len(_FILLER)] for i in range(words))


def outline_headings(messages: list[Message]) -> list[str]:
    """Markdown headings the prompt lays out (a whole-document request), without their length notes."""
    text = "\n".join(m["content"] for m in messages)
    return [m.group(1).strip() for m in _OUTLINE_LINE.finditer(text)]


def simulated_text(messages: list[Message], words: int) -> str:
    """Filler of `words` words; under the prompt's outline headings where it gives some, as a writer would."""
    headings = outline_headings(messages)
    if not headings:
        return filler_text(words)
    share = max(1, words // len(headings))
    return "\n\n".join(f"## {heading}\n\n{filler_text(share)}" for heading in headings)


@dataclass
class SimulatedModel:
    """Implements `ChatModel` under the name and endpoint of the model it stands for."""

    model_name: str
    endpoint_name: str
    yes_no_answer: bool = True
    calls: list[SimulatedCall] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.model_name

    @property
    def endpoint(self) -> str:
        return self.endpoint_name

    async def complete(
        self,
        messages: list[Message],
        *,
        purpose: str,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int = 0,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion:
        if json_schema is not None:
            text = json.dumps(schema_instance(json_schema, yes_no_answer=self.yes_no_answer))
            completion_tokens = len(text) // CHARS_PER_TOKEN + 1
        else:
            words = words_for_allowance(max_tokens)
            text = simulated_text(messages, words)
            completion_tokens = min(max_tokens, round(words * COMPLETION_TOKENS_PER_WORD))
        prompt_tokens = sum(len(m["content"]) for m in messages) // CHARS_PER_TOKEN
        self.calls.append(SimulatedCall(self.model_name, purpose, prompt_tokens, completion_tokens))
        return Completion(
            text=text,
            finish_reason="stop",
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_s=0.0,
            model=self.model_name,
            purpose=purpose,
        )
