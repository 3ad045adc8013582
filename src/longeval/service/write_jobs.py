"""The `write` job: documents from records with the writer, one event per node step, resumable section by section."""

from __future__ import annotations

import asyncio
import hashlib
import re
from typing import Any

from longeval.agents.config import WriterConfig
from longeval.data.errors import BadRecordsError, DataSourceError
from longeval.data.loaders import load_records
from longeval.data.records import GeneratedDocument, Record, Section
from longeval.data.samples import load_sample
from longeval.prompts import prompt_hashes
from longeval.runs import RunDir
from longeval.service.context import JOB_KINDS, JobContext, JobInputError, JobKind
from longeval.service.paths import resolve_inside
from longeval.service.schemas import WriteJob
from longeval.writing import write_record

WRITING_NODES = frozenset({"first_section", "section", "related_work", "results_section"})


def _title_record(request: WriteJob) -> Record:
    assert request.title is not None
    per_section = max(1, request.words // request.sections)
    return Record(
        id=re.sub(r"[^a-z0-9]+", "-", request.title.lower()).strip("-")[:48] or "document",
        domain=request.domain or "blog",
        title=request.title,
        brief=request.brief or "",
        sections=[Section(heading=f"Section {i}", words=per_section) for i in range(1, request.sections + 1)],
    )


def _file_records(request: WriteJob, ctx: JobContext) -> list[Record]:
    assert request.records_file is not None
    path = resolve_inside(ctx.data_dir, request.records_file)
    try:
        records = load_records(path, on_bad_record="fail", domain=request.domain)
    except (BadRecordsError, DataSourceError) as exc:
        # The loader names the file by its absolute path; the caller knows it by the relative one.
        raise JobInputError("records_file", str(exc).replace(str(path), request.records_file)) from None
    if request.ids is not None:
        by_id = {r.id: r for r in records}
        missing = [i for i in request.ids if i not in by_id]
        if missing:
            raise JobInputError("ids", f"no record with id {', '.join(map(repr, missing))} in {request.records_file}")
        records = [by_id[i] for i in request.ids]
    return records


def requested_records(request: WriteJob, ctx: JobContext) -> list[Record]:
    if request.record is not None:
        records = [request.record]
    elif request.records is not None:
        records = request.records
    elif request.sample is not None:
        records = [load_sample(request.sample)]
    elif request.title is not None:
        records = [_title_record(request)]
    else:
        records = _file_records(request, ctx)
    seen: set[str] = set()
    for index, record in enumerate(records):
        if record.id in seen:
            raise JobInputError(f"records.{index}.id", f"duplicate record id {record.id!r}")
        seen.add(record.id)
    if not records:
        raise JobInputError("records_file", "holds no records")
    return records[: request.limit] if request.limit else records


def writer_config(request: WriteJob) -> WriterConfig:
    """A title job plans with `outline` unless the request chose a planner (as `longeval write --title` does)."""
    if request.title is not None and "planner" not in request.config.model_fields_set:
        return request.config.model_copy(update={"planner": "outline"})
    return request.config


async def prepare_write(ctx: JobContext) -> None:
    assert isinstance(ctx.request, WriteJob)
    records = await asyncio.to_thread(requested_records, ctx.request, ctx)
    store = ctx.run.records()
    for record in records:
        store.append(record.model_dump(mode="json"))
    ctx.progress.update(documents=len(records), documents_done=0, sections_written=0)


async def run_write(ctx: JobContext) -> dict[str, Any]:
    request = ctx.request
    assert isinstance(request, WriteJob)
    config = writer_config(request)
    records = [Record.model_validate(row) for row in ctx.run.records().rows()]
    writer = ctx.model(request.model, request.base_url)
    judge = ctx.model(request.results_judge or request.model, request.base_url)
    ctx.run.start(
        command="serve write",
        config={"writer": config.model_dump(mode="json"), "paradigm": config.paradigm, "job": ctx.job_id},
        models={"writer": request.model, "results_judge": request.results_judge or request.model},
        endpoints={"writer": writer.endpoint, "results_judge": judge.endpoint},
        dataset_hash=hashlib.sha256("".join(r.model_dump_json() for r in records).encode()).hexdigest()[:16],
        seed=config.seed,
        prompt_hashes=prompt_hashes(),
    )
    ctx.progress.update(documents=len(records), documents_done=0)
    ctx.progress.setdefault("sections_written", 0)

    def on_step(event: dict[str, Any]) -> None:
        if event["node"] in WRITING_NODES:
            ctx.progress["sections_written"] += event.get("sections", 1) if event["paradigm"] == "direct" else 1
        ctx.progress["last_step"] = {"doc_id": event["doc_id"], "node": event["node"], "heading": event["heading"]}
        ctx.emit("step", event)

    written: list[GeneratedDocument] = []
    for record in records:
        document = await write_record(
            record, writer=writer, results_judge=judge, config=config, run=ctx.run, on_event=on_step
        )
        written.append(document)
        ctx.progress["documents_done"] += 1
        ctx.emit("document", _document_summary(document))
        await ctx.save_progress()
    ctx.progress.pop("last_step", None)
    ctx.run.finish(documents=len(written), words=sum(d.words for d in written))
    return {"documents": [_document_summary(d) for d in written]}


def _document_summary(document: GeneratedDocument) -> dict[str, Any]:
    return {
        "doc_id": document.doc_id,
        "title": document.title,
        "words": document.words,
        "required_words": sum(s.required_words for s in document.sections),
        "sections": [
            {"heading": s.heading, "required_words": s.required_words, "words": s.words} for s in document.sections
        ],
    }


def _documents(run: RunDir) -> list[GeneratedDocument]:
    return [GeneratedDocument.model_validate(row) for row in run.generations().rows()]


def write_markdown(run: RunDir) -> str | None:
    documents = _documents(run)
    return "\n\n".join(d.to_markdown() for d in documents) if documents else None


def write_partial(run: RunDir) -> dict[str, Any]:
    """Whatever is written so far: a cancelled or running job keeps its finished documents."""
    return {"documents": [d.model_dump(mode="json") for d in _documents(run)]}


JOB_KINDS.register("write")(
    JobKind(prepare=prepare_write, run=run_write, markdown=write_markdown, partial_result=write_partial)
)
