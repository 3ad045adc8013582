"""Length: each section is asked for its words with max_tokens sized from them; optional closed loop."""

from __future__ import annotations

from pathlib import Path

from longeval.agents.config import WriterConfig, max_tokens_for
from longeval.agents.length import length_verdict
from longeval.data.records import Record, Section
from longeval.llm.scripted import ScriptedModel
from longeval.runs import RunDir, read_jsonl
from longeval.writing import write_record


def one_section(words: int) -> Record:
    return Record(id="len", domain="blog", title="T", sections=[Section(heading="Intro", plan="P", words=words)])


async def run_one(model: ScriptedModel, config: WriterConfig, tmp_path: Path, words: int = 100):
    run = RunDir(tmp_path / "run")
    doc = await write_record(one_section(words), writer=model, results_judge=model, config=config, run=run)
    return doc, read_jsonl(run.trace_path)


def test_max_tokens_follow_the_required_words_up_to_the_cap() -> None:
    assert max_tokens_for(100, 4096) == 214
    assert max_tokens_for(10_000, 4096) == 4096
    assert WriterConfig(length_scale=0.1).required_words(470) == 47
    assert WriterConfig(default_section_words=300).required_words(0) == 300


def test_length_band() -> None:
    assert length_verdict(79, 100, 0.2) == "short"
    assert length_verdict(80, 100, 0.2) == "ok"
    assert length_verdict(120, 100, 0.2) == "ok"
    assert length_verdict(121, 100, 0.2) == "long"


async def test_the_prompt_asks_for_at_least_the_required_words(tmp_path: Path) -> None:
    model = ScriptedModel().script("write.first_section", "word " * 100)
    await run_one(model, WriterConfig(), tmp_path, words=100)
    assert "at least 100 words" in model.calls[0].prompt
    assert model.calls[0].max_tokens == 214


async def test_off_by_default_a_short_section_stays_short(tmp_path: Path) -> None:
    model = ScriptedModel().script("write.first_section", "word " * 10)
    doc, _ = await run_one(model, WriterConfig(), tmp_path)
    assert len(model.calls) == 1 and doc.sections[0].words == 10


async def test_a_short_section_is_continued_until_inside_the_band(tmp_path: Path) -> None:
    model = (
        ScriptedModel()
        .script("write.first_section", "start " * 50)
        .script("write.continue", ["more " * 20, "end " * 20])
    )
    doc, events = await run_one(model, WriterConfig(length_control=True, length_rounds=3), tmp_path)
    assert [c.purpose for c in model.calls] == ["write.first_section", "write.continue", "write.continue"]
    assert doc.sections[0].words == 90
    assert doc.sections[0].text.startswith("start") and doc.sections[0].text.endswith("end")
    assert "needs at least 100" in model.calls[1].prompt and "about 50 more words" in model.calls[1].prompt
    assert model.calls[1].seed != model.calls[2].seed  # a retry is a new request, not the cached one
    step = [e for e in events if e["node"] == "first_section"][0]
    assert step["calls"] == 3 and step["length_rounds"] == 2 and step["words"] == 90


async def test_a_long_section_is_tightened(tmp_path: Path) -> None:
    model = ScriptedModel().script("write.first_section", "long " * 300).script("write.tighten", "tight " * 105)
    doc, _ = await run_one(model, WriterConfig(length_control=True), tmp_path)
    assert [c.purpose for c in model.calls] == ["write.first_section", "write.tighten"]
    assert doc.sections[0].text == ("tight " * 105).strip()


async def test_extra_calls_are_bounded(tmp_path: Path) -> None:
    model = ScriptedModel().script("write.first_section", "a").script("write.continue", "b")
    doc, _ = await run_one(model, WriterConfig(length_control=True, length_rounds=2), tmp_path)
    assert [c.purpose for c in model.calls] == ["write.first_section", "write.continue", "write.continue"]
    assert doc.sections[0].text == "a\n\nb\n\nb"
