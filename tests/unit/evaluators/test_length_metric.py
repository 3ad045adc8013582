"""Len on fixed texts against hand-computed values."""

from __future__ import annotations

import pytest

from longeval.data.records import GeneratedDocument, GeneratedSection, Record, Section
from longeval.evaluators.base import JudgeContext
from longeval.evaluators.length import LengthMetric, section_length_ratio
from longeval.llm.scripted import ScriptedModel


def _record(required: list[int]) -> Record:
    return Record(
        id="r1",
        domain="blog",
        title="T",
        sections=[Section(heading=f"S{i}", text="gold", words=w) for i, w in enumerate(required)],
    )


def _document(texts: list[str], headings: list[str] | None = None) -> GeneratedDocument:
    headings = headings or [f"S{i}" for i in range(len(texts))]
    return GeneratedDocument(
        doc_id="d1", record_id="r1", domain="blog", title="T", writer="w", paradigm="plan", planner="given",
        sections=[GeneratedSection(heading=h, text=t, required_words=0, words=0) for h, t in zip(headings, texts, strict=True)],
    )  # fmt: skip


@pytest.fixture
def context() -> JudgeContext:
    return JudgeContext(judge=ScriptedModel())  # strict: Len must make no call


def test_ratio_is_capped_at_one() -> None:
    assert section_length_ratio(10, 5) == 0.5
    assert section_length_ratio(10, 30) == 1.0


async def test_len_is_the_mean_of_capped_section_ratios(context: JudgeContext) -> None:
    # 5/10 = 0.5; 20/20 = 1; 60/40 capped at 1 -> mean 2.5/3 = 83.33...
    document = _document(["a " * 5, "b " * 20, "c\n" * 60])
    result = await LengthMetric().evaluate(document, _record([10, 20, 40]), context)
    assert result.value == pytest.approx(250 / 3)
    assert [s["produced"] for s in result.metadata["sections"]] == [5, 20, 60]
    assert result.raw is None and not result.unscored


async def test_whitespace_counter_splits_on_any_whitespace(context: JudgeContext) -> None:
    # "one  two\tthree\nfour" is 4 words; 4 of 8 required -> 50.
    result = await LengthMetric().evaluate(_document(["one  two\tthree\nfour"]), _record([8]), context)
    assert result.value == pytest.approx(50.0)


async def test_a_missing_section_counts_zero_words(context: JudgeContext) -> None:
    # Section S1 is absent (matched by heading): ratios 1 and 0 -> 50.
    document = _document(["x " * 10], headings=["S0"])
    result = await LengthMetric().evaluate(document, _record([10, 10]), context)
    assert result.value == pytest.approx(50.0)
    assert result.metadata["sections"][1]["missing"] is True


async def test_sections_without_a_required_length_are_skipped(context: JudgeContext) -> None:
    record = Record(
        id="r1", domain="blog", title="T",
        sections=[Section(heading="S0", text="", words=0), Section(heading="S1", text="gold", words=4)],
    )  # fmt: skip
    result = await LengthMetric().evaluate(_document(["", "a b"]), record, context)
    assert result.value == pytest.approx(50.0)
    assert "ratio" not in result.metadata["sections"][0]
