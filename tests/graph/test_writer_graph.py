"""The writer graph end to end on a scripted model: domain rules, context order, traces, skipping."""

from __future__ import annotations

from pathlib import Path

from longeval.agents.config import WriterConfig, max_tokens_for
from longeval.data.records import Record
from longeval.graph.writer_builder import WRITER_NODES, build_writer_graph
from longeval.graph.writer_state import WriterContext, initial_state
from longeval.llm.scripted import ScriptedModel
from longeval.runs import RunDir, read_jsonl
from longeval.writing import write_record
from tests.graph.writer_helpers import WRITE_PURPOSES, asked_heading, body_of, scripted_writer

TRACE_KEYS = {
    "doc_id", "index", "heading", "node", "planner", "prompt", "prompt_hash",
    "prompt_tokens", "completion_tokens", "latency_s", "words", "cached", "seconds",
}  # fmt: skip


async def write(record: Record, model: ScriptedModel, tmp_path: Path, config: WriterConfig | None = None):
    run = RunDir(tmp_path / "run")
    doc = await write_record(record, writer=model, results_judge=model, config=config or WriterConfig(), run=run)
    return doc, run


def writing_calls(model: ScriptedModel):
    return [c for c in model.calls if c.purpose in WRITE_PURPOSES]


async def test_arxiv_paper_follows_the_paper_protocol(arxiv_record: Record, tmp_path: Path) -> None:
    model = scripted_writer(judge_yes=("Experiments",))
    doc, _ = await write(arxiv_record, model, tmp_path)

    assert [c.purpose for c in model.calls] == [
        "write.first_section",  # Abstract
        "judge.results_needed", "write.section",  # 1 Introduction: judged, no results
        "write.related_work",  # 2 Related Work: with the references, not judged
        "judge.results_needed", "write.section",  # 3 Method
        "judge.results_needed", "write.results_section",  # 4 Experiments: judged yes
        "judge.results_needed", "write.section",  # 5 Conclusion
    ]  # fmt: skip
    assert [s.heading for s in doc.sections] == [s.heading for s in arxiv_record.sections]
    assert [s.text for s in doc.sections] == [body_of(s.heading).strip() for s in arxiv_record.sections]
    assert [s.required_words for s in doc.sections] == [s.words for s in arxiv_record.sections]
    by_purpose = {c.purpose: c.prompt for c in writing_calls(model)}
    assert "REF-ONE" in by_purpose["write.related_work"] and "REF-TWO" in by_purpose["write.related_work"]
    assert "RESULTS-TABLE" in by_purpose["write.results_section"]
    for call in writing_calls(model):
        if call.purpose != "write.related_work":
            assert "REF-ONE" not in call.prompt
        if call.purpose != "write.results_section":
            assert "RESULTS-TABLE" not in call.prompt


async def test_results_judge_decides_each_section(arxiv_record: Record, tmp_path: Path) -> None:
    model = scripted_writer(judge_yes=("Method", "Experiments"))
    await write(arxiv_record, model, tmp_path)
    with_results = [asked_heading(c.messages) for c in model.calls_for("write.results_section")]
    assert with_results == ["3 Method", "4 Experiments"]
    assert [asked_heading(c.messages) for c in model.calls_for("write.section")] == ["1 Introduction", "5 Conclusion"]


async def test_later_sections_receive_every_earlier_section_in_order_first(
    arxiv_record: Record, tmp_path: Path
) -> None:
    model = scripted_writer()
    await write(arxiv_record, model, tmp_path)
    calls = writing_calls(model)
    headings = [s.heading for s in arxiv_record.sections]
    assert "BODY[" not in calls[0].prompt
    for k, call in enumerate(calls[1:], start=1):
        user = call.messages[-1]["content"]
        positions = [user.index(f"BODY[{h}]") for h in headings[:k]]
        assert positions == sorted(positions), "earlier sections appear in document order"
        assert f"BODY[{headings[k]}]" not in user
        # The context comes first (a shared prefix for servers with prefix caching), the request after it.
        assert positions[-1] < user.index(f'write the section "{headings[k]}"')
        assert call.max_tokens == max_tokens_for(arxiv_record.sections[k].words, WriterConfig().max_section_tokens)


async def test_wikipedia_gives_references_to_the_first_section_only(wikipedia_record: Record, tmp_path: Path) -> None:
    model = scripted_writer()
    await write(wikipedia_record, model, tmp_path)
    assert [c.purpose for c in model.calls] == ["write.first_section"] + ["write.section"] * 3
    first, *later = model.calls
    assert "REF-ONE" in first.prompt and "REF-TWO" in first.prompt
    assert all("REF-ONE" not in c.prompt for c in later)


async def test_blog_uses_neither_references_nor_results(blog_record: Record, tmp_path: Path) -> None:
    model = scripted_writer()
    await write(blog_record, model, tmp_path)
    assert [c.purpose for c in model.calls] == ["write.first_section"] + ["write.section"] * 3
    assert all("REF-ONE" not in c.prompt and "RESULTS-TABLE" not in c.prompt for c in model.calls)


async def test_every_step_is_traced_to_file_and_stream(arxiv_record: Record, tmp_path: Path) -> None:
    seen: list[dict] = []
    run = RunDir(tmp_path / "run")
    model = scripted_writer()
    await write_record(
        arxiv_record, writer=model, results_judge=model, config=WriterConfig(), run=run, on_event=seen.append
    )
    events = read_jsonl(run.trace_path)
    assert events == seen
    assert [e["node"] for e in events][:3] == ["plan", "first_section", "results_judge"]
    assert events[-1]["node"] == "assemble"
    assert {e["node"] for e in events} <= set(WRITER_NODES)
    for event in events:
        assert event.keys() >= TRACE_KEYS
        assert event["planner"] == "given"
    written = [e for e in events if e["node"] in {"first_section", "section", "related_work", "results_section"}]
    assert [e["index"] for e in written] == list(range(6))
    assert all(e["prompt"].startswith("write_") and len(e["prompt_hash"]) == 12 for e in written)
    assert [e["words"] for e in written] == [len(body_of(s.heading).split()) for s in arxiv_record.sections]

    # The same events reach LangGraph's custom stream.
    model = scripted_writer()
    config = WriterConfig()
    graph = build_writer_graph(config)
    context = WriterContext(writer=model, results_judge=model, config=config)
    streamed = [
        chunk
        async for chunk in graph.astream(
            initial_state(arxiv_record, "d", config), context=context, stream_mode="custom"
        )
    ]
    assert [e["node"] for e in streamed] == [e["node"] for e in events]


async def test_a_written_document_is_returned_without_calls(arxiv_record: Record, tmp_path: Path) -> None:
    first, run = await write(arxiv_record, scripted_writer(), tmp_path)
    silent = ScriptedModel()  # strict: any call would fail
    again = await write_record(arxiv_record, writer=silent, results_judge=silent, config=WriterConfig(), run=run)
    assert again == first and silent.calls == []
    assert len(run.generations()) == 1
    assert [r["id"] for r in read_jsonl(run.records_path)] == [arxiv_record.id]


async def test_an_unusable_judge_reply_falls_back_to_the_heading_and_says_so(
    arxiv_record: Record, tmp_path: Path
) -> None:
    model = scripted_writer()
    model.script("judge.results_needed", "I think so")  # never valid JSON, even after the corrective retry
    doc, run = await write(arxiv_record, model, tmp_path)
    judged = [e for e in read_jsonl(run.trace_path) if e["node"] == "results_judge"]
    assert {e["decided_by"] for e in judged} == {"heading"}
    assert all(e["calls"] == 2 and e["judge_error"] for e in judged)
    assert [asked_heading(c.messages) for c in model.calls_for("write.results_section")] == ["4 Experiments"]
    assert len(doc.sections) == 6
