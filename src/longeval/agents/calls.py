"""Rendering a prompt template and calling a model with it, keeping a log of the call."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from longeval.agents.types import CallLog
from longeval.llm.structured import StructuredResult, complete_structured
from longeval.llm.types import ChatModel
from longeval.prompts import load_prompt

T = TypeVar("T", bound=BaseModel)


async def call_prompt(
    model: ChatModel,
    prompt_name: str,
    *,
    purpose: str,
    max_tokens: int,
    temperature: float,
    seed: int,
    **values: object,
) -> CallLog:
    prompt = load_prompt(prompt_name)
    completion = await model.complete(
        prompt.render_messages(**values),
        purpose=purpose,
        max_tokens=max_tokens,
        temperature=temperature,
        seed=seed,
    )
    return CallLog(purpose=purpose, prompt=prompt.name, prompt_hash=prompt.hash, completion=completion)


async def call_structured(
    model: ChatModel,
    prompt_name: str,
    *,
    schema: type[T],
    purpose: str,
    max_tokens: int,
    temperature: float,
    seed: int,
    **values: object,
) -> tuple[StructuredResult[T], list[CallLog]]:
    """A structured call; every completion (the first and a corrective retry) is logged."""
    prompt = load_prompt(prompt_name)
    result = await complete_structured(
        model,
        prompt.render_messages(**values),
        schema=schema,
        purpose=purpose,
        max_tokens=max_tokens,
        temperature=temperature,
        seed=seed,
    )
    logs = [
        CallLog(purpose=purpose, prompt=prompt.name, prompt_hash=prompt.hash, completion=c) for c in result.completions
    ]
    return result, logs
