from __future__ import annotations

import pytest

from longeval.llm.scripted import ScriptedModel, UnscriptedCallError
from longeval.llm.types import ChatModel, Message

USER = [Message(role="user", content="Write about rivers.")]


async def test_unscripted_call_fails_and_is_recorded() -> None:
    model = ScriptedModel().script("write.section", "text")
    with pytest.raises(UnscriptedCallError, match="judge.redundancy"):
        await model.complete(USER, purpose="judge.redundancy")
    assert [c.purpose for c in model.calls] == ["judge.redundancy"]


async def test_replies_by_purpose_list_then_exhausted() -> None:
    model = ScriptedModel().script("judge.x", ["one", "two"])
    assert (await model.complete(USER, purpose="judge.x")).text == "one"
    assert (await model.complete(USER, purpose="judge.x")).text == "two"
    with pytest.raises(UnscriptedCallError):
        await model.complete(USER, purpose="judge.x")


async def test_predicate_and_callable_replies_and_override() -> None:
    model = ScriptedModel()
    model.script("write.section", "default")
    model.script("write.section", lambda msgs: msgs[-1]["content"].upper(), when=lambda p: "rivers" in p)
    assert (await model.complete(USER, purpose="write.section")).text == "WRITE ABOUT RIVERS."
    other = [Message(role="user", content="Write about hills.")]
    assert (await model.complete(other, purpose="write.section")).text == "default"
    assert len(model.calls_for("write.section")) == 2


def test_scripted_model_satisfies_the_protocol() -> None:
    assert isinstance(ScriptedModel(), ChatModel)
