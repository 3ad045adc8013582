"""Each judge metric with the scripted judge: what its prompt carries, how its verdict maps to 0-100,
and that a malformed verdict becomes unscored (raw reply kept), never 0."""

from __future__ import annotations

import pytest

from longeval.evaluators.base import JudgeContext
from longeval.evaluators.catalog import get_metric
from longeval.llm.scripted import ScriptedModel
from tests.fakes.longeval_documents import make_document, make_record


def _context(model: ScriptedModel) -> JudgeContext:
    return JudgeContext(judge=model, seed=5)


@pytest.mark.parametrize(
    ("metric", "purpose", "score", "expected"),
    [
        ("red", "judge.redundancy", 10, 100.0),  # 1-10: (s - 1) / 9 * 100
        ("con", "judge.consistency", 1, 0.0),
        ("intro", "judge.introduction", 7, 600 / 9),
        ("rw", "judge.related_work", 4, 300 / 9),
    ],
)
async def test_document_level_verdict_maps_one_to_ten_onto_0_100(
    metric: str, purpose: str, score: int, expected: float
) -> None:
    model = ScriptedModel().script(purpose, f'{{"score": {score}}}')
    result = await get_metric(metric).evaluate(make_document(make_record()), make_record(), _context(model))
    assert result.value == pytest.approx(expected)
    assert result.raw == f'{{"score": {score}}}'
    assert result.metadata["prompt_hash"] and result.metadata["score"] == score
    assert len(model.calls) == 1 and model.calls[0].seed == 5
    assert model.calls[0].json_schema is not None and "score" in model.calls[0].json_schema["properties"]


async def test_content_following_judges_each_section_with_its_plan_on_0_to_10() -> None:
    record = make_record("blog")
    grades = iter(["2", "5", "10"])
    model = ScriptedModel().script("judge.content_following", lambda messages: f'{{"score": {next(grades)}}}')
    result = await get_metric("cont-fol").evaluate(make_document(record), record, _context(model))
    prompts = [call.prompt for call in model.calls]
    for section, prompt in zip(record.sections, prompts, strict=True):
        assert section.plan in prompt and f"Written:{section.heading}" in prompt
    # 0-10: score * 10 -> 20, 50, 100; mean 56.67
    assert result.value == pytest.approx(170 / 3)
    assert [s["percent"] for s in result.metadata["sections"]] == [20.0, 50.0, 100.0]


async def test_redundancy_and_consistency_read_the_whole_document() -> None:
    record = make_record()
    model = ScriptedModel().script("judge.redundancy", '{"score": 6}').script("judge.consistency", '{"score": 6}')
    for name in ("red", "con"):
        await get_metric(name).evaluate(make_document(record), record, _context(model))
    for call in model.calls:
        for section in record.sections:
            assert f"Written:{section.heading}" in call.prompt


async def test_introduction_prompt_carries_gold_and_generated_introduction() -> None:
    record = make_record()
    model = ScriptedModel().script("judge.introduction", '{"score": 8}')
    result = await get_metric("intro").evaluate(make_document(record), record, _context(model))
    prompt = model.calls[0].prompt
    assert record.sections[1].text.strip() in prompt  # "1 Introduction", not the abstract
    assert "Written:1 Introduction" in prompt and "Written:Abstract" not in prompt
    assert result.metadata["section"]["heading"] == "1 Introduction"


async def test_related_work_prompt_carries_gold_section_and_references() -> None:
    record = make_record()
    model = ScriptedModel().script("judge.related_work", '{"score": 8}')
    await get_metric("rw").evaluate(make_document(record), record, _context(model))
    prompt = model.calls[0].prompt
    assert record.sections[2].text.strip() in prompt and "Written:2 Related Work" in prompt
    assert record.references[0] in prompt
    assert "Written:3 Method" not in prompt


async def test_related_work_on_wikipedia_compares_whole_articles() -> None:
    record = make_record("wikipedia")
    model = ScriptedModel().script("judge.related_work", '{"score": 8}')
    await get_metric("rw").evaluate(make_document(record), record, _context(model))
    prompt = model.calls[0].prompt
    for section in record.sections:
        assert section.text.strip() in prompt and f"Written:{section.heading}" in prompt


@pytest.mark.parametrize("metric", ["red", "con", "intro", "rw"])
async def test_malformed_verdict_gets_one_corrective_retry_then_is_unscored(metric: str) -> None:
    purpose = {"red": "judge.redundancy", "con": "judge.consistency", "intro": "judge.introduction",
               "rw": "judge.related_work"}[metric]  # fmt: skip
    model = ScriptedModel().script(purpose, ["a seven, I think", '{"score": 42}'])
    result = await get_metric(metric).evaluate(make_document(make_record()), make_record(), _context(model))
    assert result.value is None and result.unscored
    assert result.raw == '{"score": 42}'
    assert result.metadata["raw_replies"] == ["a seven, I think", '{"score": 42}']
    assert "unscored" in result.metadata["unscored_reason"]
    assert len(model.calls) == 2  # the first try and one corrective retry, no more


async def test_corrected_verdict_is_scored() -> None:
    model = ScriptedModel().script("judge.redundancy", ["no json here", '```json\n{"score": 4}\n```'])
    result = await get_metric("red").evaluate(make_document(make_record()), make_record(), _context(model))
    assert result.value == pytest.approx(300 / 9)
    assert "no json here" in model.calls[1].prompt  # the retry shows the model its bad reply


async def test_section_metric_keeps_scored_sections_when_one_is_malformed() -> None:
    record = make_record("blog")
    model = ScriptedModel()
    model.script("judge.content_following", '{"score": 8}')
    model.script("judge.content_following", ["broken", "still broken"], when=lambda p: "Written:The borrow" in p)
    result = await get_metric("cont-fol").evaluate(make_document(record), record, _context(model))
    assert result.value == pytest.approx(80.0)  # the unscored section is left out, not counted as 0
    assert result.metadata["unscored_sections"] == 1
    unscored = [s for s in result.metadata["sections"] if s["percent"] is None]
    assert unscored[0]["heading"] == "The borrow checker" and unscored[0]["raw_replies"] == ["broken", "still broken"]


async def test_all_sections_malformed_is_unscored_not_zero() -> None:
    record = make_record("blog")
    model = ScriptedModel().script("judge.content_following", "nope")
    result = await get_metric("cont-fol").evaluate(make_document(record), record, _context(model))
    assert result.value is None and result.unscored


async def test_empty_document_is_unscored_without_a_call() -> None:
    record = make_record("blog")
    result = await get_metric("red").evaluate(
        make_document(record, words_per_section=0), record, _context(ScriptedModel())
    )
    assert result.value is None and result.unscored
