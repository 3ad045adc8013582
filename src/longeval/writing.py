"""The reusable entry point of the writer: one record in, one `GeneratedDocument` out, resumable.

Used by `longeval write`, by the benchmark and by the HTTP service. A run folder makes it
idempotent: a document already in `generations.jsonl` is returned as stored; a document whose
writing was interrupted resumes from the SQLite checkpoint (thread id = doc id) at the next unwritten
section, and the run's response cache (when the models were built on it) repeats no call.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from longeval.agents.config import WriterConfig
from longeval.data.records import GeneratedDocument, Record, make_doc_id
from longeval.graph.writer_builder import build_writer_graph, recursion_limit
from longeval.graph.writer_state import WriterContext, initial_state
from longeval.llm.types import ChatModel
from longeval.runs import RunDir, append_jsonl

__all__ = ["WriterConfig", "doc_id_for", "open_checkpointer", "write_record"]

EventHandler = Callable[[dict[str, Any]], None]

# One compiled graph per (configuration, checkpointer): documents written with a shared checkpointer
# (bench, the service) reuse it. WriterConfig is frozen, hence hashable.
_compiled_writer = lru_cache(maxsize=16)(build_writer_graph)


def doc_id_for(record: Record, writer: ChatModel, config: WriterConfig) -> str:
    return make_doc_id(record.id, writer.name, config.paradigm, config.planner)


@asynccontextmanager
async def open_checkpointer(run: RunDir) -> AsyncIterator[AsyncSqliteSaver]:
    """The run's checkpoint store. Callers that write many documents at once share one (SQLite takes
    one writer at a time; one connection serialises them instead of failing on a locked database)."""
    async with AsyncSqliteSaver.from_conn_string(str(run.checkpoints_path)) as saver:
        yield saver


def _trace_sink(run: RunDir, on_event: EventHandler | None) -> EventHandler:
    def sink(event: dict[str, Any]) -> None:
        append_jsonl(run.trace_path, event)  # durable before the step returns, so a kill keeps it
        if on_event is not None:
            on_event(event)

    return sink


async def write_record(
    record: Record,
    *,
    writer: ChatModel,
    results_judge: ChatModel,
    config: WriterConfig,
    run: RunDir,
    on_event: EventHandler | None = None,
    checkpointer: BaseCheckpointSaver | None = None,
) -> GeneratedDocument:
    """Write `record` into `run` (or return it as already written there)."""
    doc_id = doc_id_for(record, writer, config)
    stored = run.generations().get(doc_id)
    if stored is not None:
        return GeneratedDocument.model_validate(stored)
    run.records().append(record.model_dump(mode="json"))
    context = WriterContext(
        writer=writer, results_judge=results_judge, config=config, event_sink=_trace_sink(run, on_event)
    )
    if checkpointer is not None:
        return await _write(record, doc_id, context, run, checkpointer)
    async with open_checkpointer(run) as saver:
        return await _write(record, doc_id, context, run, saver)


async def _write(
    record: Record, doc_id: str, context: WriterContext, run: RunDir, checkpointer: BaseCheckpointSaver
) -> GeneratedDocument:
    graph = _compiled_writer(context.config, checkpointer)
    thread = {"configurable": {"thread_id": doc_id}, "recursion_limit": recursion_limit(len(record.sections))}
    snapshot = await graph.aget_state(thread)
    if not snapshot.next and "document" in snapshot.values:
        final: dict[str, Any] = dict(snapshot.values)  # finished, but killed before it was stored
    else:
        # No pending step: a fresh start. Pending steps: an interrupted run continues where it stopped.
        graph_input = None if snapshot.next else initial_state(record, doc_id, context.config)
        # "sync": each step's checkpoint is on disk before the next starts, so a kill loses one step at most.
        final = await graph.ainvoke(graph_input, thread, context=context, durability="sync")
    document = GeneratedDocument.model_validate(final["document"])
    run.generations().append(document.model_dump(mode="json"))
    await checkpointer.adelete_thread(doc_id)  # the document is stored; its checkpoints are no longer needed
    return document
