"""EA and ME: the yes/no step decides which gold body sections analyse experiments; its call is shared."""

from __future__ import annotations

import asyncio

import pytest

from longeval.evaluators.base import JudgeContext
from longeval.evaluators.catalog import get_metric
from longeval.llm.scripted import ScriptedModel
from tests.fakes.longeval_documents import make_document, make_record


def _judge() -> ScriptedModel:
    model = ScriptedModel()
    model.script("judge.ea_applies", '{"analyses_experiments": false}')
    model.script("judge.ea_applies", '{"analyses_experiments": true}', when=lambda p: "GLUE" in p)
    model.script("judge.experiment_analysis", '{"score": 10}')
    model.script("judge.method", '{"score": 4}')
    return model


async def test_ea_grades_experiment_sections_with_the_results_and_gold() -> None:
    record = make_record("arxiv")
    model = _judge()
    result = await get_metric("ea").evaluate(make_document(record), record, JudgeContext(judge=model))
    assert result.value == pytest.approx(100.0)
    [call] = model.calls_for("judge.experiment_analysis")
    assert "Written:4 Experiments" in call.prompt
    assert record.sections[4].text.strip() in call.prompt  # the gold section
    assert record.sections[4].plan in call.prompt  # the plan
    assert record.experiment_results[0] in call.prompt  # the results
    # the yes/no step sees the gold body sections only (method, experiments), never intro or related work
    asked = [c.prompt for c in model.calls_for("judge.ea_applies")]
    assert len(asked) == 2 and all("Mixture models route" not in p for p in asked)


async def test_me_grades_the_other_body_sections() -> None:
    record = make_record("arxiv")
    model = _judge()
    result = await get_metric("me").evaluate(make_document(record), record, JudgeContext(judge=model))
    assert result.value == pytest.approx(300 / 9)
    [call] = model.calls_for("judge.method")
    assert "Written:3 Method" in call.prompt and record.sections[3].text.strip() in call.prompt


async def test_ea_and_me_share_one_yes_no_call_per_section() -> None:
    record = make_record("arxiv")
    model = _judge()
    context = JudgeContext(judge=model)
    document = make_document(record)
    ea, me = await asyncio.gather(
        get_metric("ea").evaluate(document, record, context), get_metric("me").evaluate(document, record, context)
    )
    assert len(model.calls_for("judge.ea_applies")) == 2
    # the yes/no calls are counted once, with whichever metric made them
    assert sum(c.purpose == "judge.ea_applies" for c in ea.completions + me.completions) == 2


async def test_blog_me_needs_no_yes_no_step() -> None:
    record = make_record("blog")
    model = ScriptedModel().script("judge.method", '{"score": 10}')
    result = await get_metric("me").evaluate(make_document(record), record, JudgeContext(judge=model))
    assert result.value == pytest.approx(100.0)
    assert model.calls_for("judge.ea_applies") == []
    assert len(model.calls_for("judge.method")) == 2  # the sections after the introduction (the lead)


async def test_ea_without_experiment_sections_is_not_applicable_rather_than_unscored() -> None:
    record = make_record("arxiv")
    model = ScriptedModel().script("judge.ea_applies", '{"analyses_experiments": false}')
    result = await get_metric("ea").evaluate(make_document(record), record, JudgeContext(judge=model))
    assert result.value is None and not result.applicable and not result.unscored


async def test_unusable_yes_no_reply_makes_the_section_unscored() -> None:
    record = make_record("arxiv")
    model = ScriptedModel().script("judge.ea_applies", "maybe")
    result = await get_metric("me").evaluate(make_document(record), record, JudgeContext(judge=model))
    assert result.unscored
    assert all("yes/no step was unscored" in s["unscored_reason"] for s in result.metadata["sections"])


def test_domains_follow_table_4() -> None:
    from longeval.evaluators.catalog import metrics_for_domain

    assert metrics_for_domain("arxiv") == ["len", "cont-fol", "red", "con", "intro", "rw", "ea", "me"]
    assert metrics_for_domain("blog") == ["len", "cont-fol", "red", "con", "intro", "me"]
    assert metrics_for_domain("wikipedia") == ["len", "cont-fol", "con", "intro", "rw", "me"]
