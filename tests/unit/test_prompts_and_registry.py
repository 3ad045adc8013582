from __future__ import annotations

import pytest

from longeval.prompts import Prompt, PromptError, load_prompt, prompt_hashes
from longeval.registry import Registry, UnknownNameError


def test_strict_rendering_rejects_missing_and_unused_variables() -> None:
    prompt = Prompt("t", "=== system ===\nYou judge {{what}}.\n=== user ===\nText: {{text}}")
    messages = prompt.render_messages(what="essays", text="hello {{not a var}}")
    assert messages == [
        {"role": "system", "content": "You judge essays."},
        {"role": "user", "content": "Text: hello {{not a var}}"},
    ]
    with pytest.raises(PromptError, match="missing variables \\['text'\\]"):
        prompt.render_messages(what="x")
    with pytest.raises(PromptError, match="unused variables \\['extra'\\]"):
        prompt.render_messages(what="x", text="y", extra="z")


def test_shipped_prompt_loads_with_a_stable_hash() -> None:
    prompt = load_prompt("structured_correction")
    assert prompt.variables == {"error", "schema"}
    assert prompt.hash == load_prompt("structured_correction").hash and len(prompt.hash) == 12
    assert prompt_hashes()["structured_correction"] == prompt.hash


def test_unknown_prompt_suggests_a_close_name() -> None:
    with pytest.raises(PromptError, match="did you mean structured_correction"):
        load_prompt("structured_corection")


def test_registry_did_you_mean() -> None:
    registry: Registry[int] = Registry("planner")
    registry.register("outline")(1)
    registry.register("given")(2)
    assert registry.get("given") == 2
    with pytest.raises(UnknownNameError, match="Did you mean outline\\? Known: given, outline"):
        registry.get("outlin")
    with pytest.raises(ValueError, match="twice"):
        registry.register("given")(3)
