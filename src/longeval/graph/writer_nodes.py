"""The writer graph's nodes: each is small, reads the state, calls one agent and returns a partial update.

Every step emits one trace event through the LangGraph custom stream (`stream_mode="custom"`) and
the context's event sink (the run's trace.jsonl).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from langgraph.runtime import Runtime

from longeval.agents.direct_writer import split_by_headings, write_direct
from longeval.agents.planners import PLANNERS
from longeval.agents.results_judge import judge_results_needed
from longeval.agents.section_writer import (
    SectionJob,
    write_first_section,
    write_related_work,
    write_results_section,
    write_section,
)
from longeval.agents.types import CallLog, Draft, calls_summary
from longeval.data.records import GeneratedDocument, GeneratedSection, count_words
from longeval.graph.writer_routing import first_section_gets_references
from longeval.graph.writer_state import WriterContext, WriterState, WrittenSection, next_index, record_of


def emit(
    runtime: Runtime[WriterContext],
    state: WriterState,
    *,
    node: str,
    calls: list[CallLog],
    seconds: float,
    index: int | None = None,
    heading: str | None = None,
    words: int = 0,
    required_words: int = 0,
    **extra: Any,
) -> None:
    event: dict[str, Any] = {
        "ts": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "doc_id": state["doc_id"],
        "node": node,
        "index": index,
        "heading": heading,
        "planner": state["planner"],
        "paradigm": state["paradigm"],
        **calls_summary(calls),
        "seconds": round(seconds, 4),
        "words": words,
        "required_words": required_words,
        **extra,
    }
    runtime.stream_writer(event)
    runtime.context.event_sink(event)


async def plan(state: WriterState, runtime: Runtime[WriterContext]) -> dict[str, Any]:
    ctx = runtime.context
    started = time.perf_counter()
    outcome = await PLANNERS.get(ctx.config.planner).plan(record_of(state), ctx.writer, ctx.config)
    required = sum(s["words"] for s in outcome.sections)
    emit(
        runtime,
        state,
        node="plan",
        calls=outcome.calls,
        seconds=time.perf_counter() - started,
        required_words=required,
        sections=len(outcome.sections),
        headings=[s["heading"] for s in outcome.sections],
    )
    return {"sections": outcome.sections}


SectionWriter = Callable[[SectionJob, WriterContext], Awaitable[Draft]]


async def _write_next_section(
    state: WriterState, runtime: Runtime[WriterContext], node: str, write: SectionWriter
) -> dict[str, Any]:
    index = next_index(state)
    planned = state["sections"][index]
    previous = [(w["heading"], w["text"]) for w in state.get("written", [])]
    started = time.perf_counter()
    draft = await write(SectionJob(record=record_of(state), section=planned, previous=previous), runtime.context)
    seconds = time.perf_counter() - started
    written = WrittenSection(
        heading=planned["heading"],
        text=draft.text,
        required_words=planned["words"],
        words=count_words(draft.text),
        seconds=round(seconds, 3),
    )
    emit(
        runtime,
        state,
        node=node,
        calls=draft.calls,
        seconds=seconds,
        index=index,
        heading=planned["heading"],
        words=written["words"],
        required_words=planned["words"],
        **draft.extra,
    )
    return {"written": [written]}


async def first_section(state: WriterState, runtime: Runtime[WriterContext]) -> dict[str, Any]:
    if state["paradigm"] == "direct":
        return await _write_whole_document(state, runtime)
    with_refs = first_section_gets_references(state)
    return await _write_next_section(
        state,
        runtime,
        "first_section",
        lambda job, c: write_first_section(job, c.writer, c.config, with_references=with_refs),
    )


async def _write_whole_document(state: WriterState, runtime: Runtime[WriterContext]) -> dict[str, Any]:
    """The direct paradigm: one call under the `first_section` node, so the graph keeps one shape."""
    ctx = runtime.context
    started = time.perf_counter()
    draft = await write_direct(record_of(state), state["sections"], ctx.writer, ctx.config)
    seconds = time.perf_counter() - started
    emit(
        runtime,
        state,
        node="first_section",
        calls=draft.calls,
        seconds=seconds,
        words=count_words(draft.text),
        required_words=sum(s["words"] for s in state["sections"]),
        sections=len(state["sections"]),
    )
    return {"direct_text": draft.text}


async def section(state: WriterState, runtime: Runtime[WriterContext]) -> dict[str, Any]:
    return await _write_next_section(state, runtime, "section", lambda job, c: write_section(job, c.writer, c.config))


async def related_work(state: WriterState, runtime: Runtime[WriterContext]) -> dict[str, Any]:
    return await _write_next_section(
        state, runtime, "related_work", lambda job, c: write_related_work(job, c.writer, c.config)
    )


async def results_section(state: WriterState, runtime: Runtime[WriterContext]) -> dict[str, Any]:
    return await _write_next_section(
        state, runtime, "results_section", lambda job, c: write_results_section(job, c.writer, c.config)
    )


async def results_judge(state: WriterState, runtime: Runtime[WriterContext]) -> dict[str, Any]:
    ctx = runtime.context
    index = next_index(state)
    planned = state["sections"][index]
    started = time.perf_counter()
    verdict = await judge_results_needed(record_of(state), planned, ctx.results_judge, ctx.config)
    emit(
        runtime,
        state,
        node="results_judge",
        calls=verdict.calls,
        seconds=time.perf_counter() - started,
        index=index,
        heading=planned["heading"],
        needs_results=verdict.needs_results,
        decided_by=verdict.decided_by,
        judge_error=verdict.error,
    )
    return {"needs_results": verdict.needs_results}


async def assemble(state: WriterState, runtime: Runtime[WriterContext]) -> dict[str, Any]:
    ctx = runtime.context
    record = record_of(state)
    if state["paradigm"] == "direct":
        texts = split_by_headings(state.get("direct_text", ""), [s["heading"] for s in state["sections"]])
        sections = [
            GeneratedSection(heading=s["heading"], text=t, required_words=s["words"], words=count_words(t))
            for s, t in zip(state["sections"], texts, strict=True)
        ]
    else:
        sections = [GeneratedSection.model_validate(w) for w in state.get("written", [])]
    document = GeneratedDocument(
        doc_id=state["doc_id"],
        record_id=record.id,
        domain=record.domain,
        title=record.title,
        writer=ctx.writer.name,
        paradigm=state["paradigm"],
        planner=state["planner"],
        sections=sections,
    )
    emit(
        runtime,
        state,
        node="assemble",
        calls=[],
        seconds=0.0,
        words=document.words,
        required_words=sum(s.required_words for s in sections),
        sections=len(sections),
    )
    return {"document": document.model_dump(mode="json")}
