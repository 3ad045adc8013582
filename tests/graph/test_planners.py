"""Each planner behind the `plan` node: given, outline, none (direct); and the registry's errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from longeval.agents.config import WriterConfig
from longeval.agents.direct_writer import split_by_headings
from longeval.agents.planners import PLANNERS, PlannerError
from longeval.data.records import Record, Section
from longeval.llm.scripted import ScriptedModel
from longeval.runs import RunDir, read_jsonl
from longeval.writing import write_record
from tests.graph.writer_helpers import WRITE_PURPOSES, scripted_writer


async def test_given_planner_uses_the_records_plan_and_scaled_lengths(arxiv_record: Record) -> None:
    config = WriterConfig(length_scale=0.5)
    outcome = await PLANNERS.get("given").plan(arxiv_record, ScriptedModel(), config)
    assert outcome.calls == []
    assert [s["plan"] for s in outcome.sections] == [s.plan for s in arxiv_record.sections]
    assert [s["words"] for s in outcome.sections] == [round(s.words * 0.5) for s in arxiv_record.sections]


async def test_given_planner_refuses_a_record_without_plans() -> None:
    record = Record(id="r9", domain="blog", title="T", sections=[Section(heading="Intro", text="some gold text")])
    with pytest.raises(PlannerError, match=r"record 'r9'.*'Intro'.*--planner outline"):
        await PLANNERS.get("given").plan(record, ScriptedModel(), WriterConfig())


def test_unknown_planner_is_refused_with_the_known_names() -> None:
    with pytest.raises(
        ValidationError, match=r"unknown planner 'outlin'\. Did you mean outline\? Known: given, none, outline"
    ):
        WriterConfig(planner="outlin")
    assert WriterConfig(planner="none").paradigm == "direct"
    assert WriterConfig(planner="outline").paradigm == "plan"


async def test_outline_planner_writes_plans_for_a_title_only_job(tmp_path: Path) -> None:
    record = Record(
        id="t1",
        domain="blog",
        title="Gardening on a balcony",
        brief="Small spaces, big harvests.",
        sections=[Section(heading=f"Section {i}", words=300) for i in range(1, 4)],
    )
    outline = {
        "sections": [
            {"heading": "Why balconies", "plan": "PLAN-A", "words": 100},
            {"heading": "Choosing pots", "plan": "PLAN-B", "words": 100},
            {"heading": "Harvest", "plan": "PLAN-C", "words": 200},
        ]
    }
    model = scripted_writer()
    model.script("plan.outline", json.dumps(outline))
    run = RunDir(tmp_path / "run")
    doc = await write_record(record, writer=model, results_judge=model, config=WriterConfig(planner="outline"), run=run)

    plan_call = model.calls_for("plan.outline")[0]
    assert "Gardening on a balcony" in plan_call.prompt and "Small spaces, big harvests." in plan_call.prompt
    assert "3 sections" in plan_call.prompt and plan_call.json_schema is not None
    assert [s.heading for s in doc.sections] == ["Why balconies", "Choosing pots", "Harvest"]
    # Budgets keep the model's proportions but add up to the requested 900 words.
    assert [s.required_words for s in doc.sections] == [225, 225, 450]
    assert "PLAN-B" in model.calls_for("write.section")[0].prompt
    plan_event = read_jsonl(run.trace_path)[0]
    assert plan_event["node"] == "plan" and plan_event["prompt"] == "plan_outline" and plan_event["calls"] == 1


async def test_outline_planner_keeps_a_records_headings(arxiv_record: Record) -> None:
    model = ScriptedModel().script(
        "plan.outline",
        json.dumps({"sections": [{"heading": "1 Introduction", "plan": "NEW-PLAN", "words": 50}]}),
    )
    outcome = await PLANNERS.get("outline").plan(arxiv_record, model, WriterConfig())
    assert [s["heading"] for s in outcome.sections] == [s.heading for s in arxiv_record.sections]
    assert outcome.sections[1]["plan"] == "NEW-PLAN"  # matched by heading
    assert "2 Related Work" in model.calls[0].prompt  # the headings are given to the model
    assert sum(s["words"] for s in outcome.sections) == pytest.approx(
        arxiv_record.required_words, abs=len(arxiv_record.sections)
    )


async def test_outline_planner_fails_clearly_without_a_usable_outline(arxiv_record: Record) -> None:
    model = ScriptedModel().script("plan.outline", "Here is my outline: intro, body, end")
    with pytest.raises(PlannerError, match=r"record 'arxiv-1'.*no usable outline"):
        await PLANNERS.get("outline").plan(arxiv_record, model, WriterConfig())
    assert len(model.calls) == 2  # the first try and one corrective retry


async def test_direct_paradigm_makes_exactly_one_writing_call(arxiv_record: Record, tmp_path: Path) -> None:
    headings = [s.heading for s in arxiv_record.sections]
    reply = "\n\n".join(f"## {h}\n\nDIRECT text of {h}." for h in headings)
    model = ScriptedModel().script("write.direct", reply)
    run = RunDir(tmp_path / "run")
    doc = await write_record(
        arxiv_record, writer=model, results_judge=model, config=WriterConfig(planner="none"), run=run
    )

    assert [c.purpose for c in model.calls] == ["write.direct"]
    prompt = model.calls[0].prompt
    assert all(s.plan in prompt for s in arxiv_record.sections)
    assert f"at least {arxiv_record.required_words} words" in prompt
    assert "REF-ONE" in prompt and "RESULTS-TABLE" in prompt
    assert doc.paradigm == "direct" and doc.planner == "none"
    assert [s.text for s in doc.sections] == [f"DIRECT text of {h}." for h in headings]
    assert [e["node"] for e in read_jsonl(run.trace_path)] == ["plan", "first_section", "assemble"]
    assert not any(c.purpose in WRITE_PURPOSES for c in model.calls)


def test_direct_reply_is_split_by_heading_whatever_the_numbering_or_order() -> None:
    text = "# Title\n\n## 2. Method\n\nM text\n\n**Introduction**\n\nI text\n\n## Extra\n\nX"
    assert split_by_headings(text, ["Introduction", "Method", "Conclusion"]) == ["I text", "M text", ""]
    assert split_by_headings("no headings at all", ["A", "B"]) == ["no headings at all", ""]
    assert split_by_headings("## One\n\n1\n\n## Two\n\n2", ["Alpha", "Beta"]) == ["1", "2"]  # renamed, in order
