"""The `bench` job: every (writer x paradigm x record) written and judged into the job's run folder.

The records are chosen at submission and kept in the run folder, so a resumed job runs on exactly
those. Models come from the service (its hub, its shared per-endpoint limits) through a hub that
hands out the job's models and counts on the job's usage ledger.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from longeval.bench import BenchSummary, run_bench
from longeval.bench.records import load_bench_records
from longeval.data.errors import BadRecordsError, DataSourceError
from longeval.data.records import Record
from longeval.llm.hub import ModelHub
from longeval.llm.types import ChatModel
from longeval.runs import RunDir
from longeval.service.context import JOB_KINDS, JobContext, JobInputError, JobKind
from longeval.service.schemas import BenchJob
from longeval.settings import EnvSettings


class JobHub(ModelHub):
    """The bench's hub inside the service: the job's models (from the service's factory), the job's usage."""

    def __init__(self, ctx: JobContext) -> None:
        super().__init__(usage=ctx.usage, env=EnvSettings())
        self._ctx = ctx

    def get(self, spec: str, *, base_url: str | None = None, api_key: str | None = None) -> ChatModel:  # type: ignore[override]
        return self._ctx.model(spec, base_url)


async def prepare_bench(ctx: JobContext) -> None:
    request = ctx.request
    assert isinstance(request, BenchJob)
    config = request.bench_config(ctx.data_dir)
    try:
        records = await asyncio.to_thread(load_bench_records, config)
    except (BadRecordsError, DataSourceError) as exc:
        raise JobInputError("dataset", str(exc).replace(str(ctx.data_dir.resolve()) + "/", "")) from None
    if not records:
        raise JobInputError("dataset", f"no records of the domains {', '.join(config.domains)} in {request.dataset}")
    store = ctx.run.records()
    for record in records:
        store.append(record.model_dump(mode="json"))
    documents = len(records) * len(config.writers) * len(config.paradigms)
    ctx.progress.update(records=len(records), documents=documents, documents_done=0, scores=0)


def _relative(value: Any, data_dir: Path) -> Any:
    """Events and results name folders relative to the data dir: a client has no business with server paths."""
    return value.replace(str(data_dir.resolve()) + "/", "") if isinstance(value, str) else value


async def run_bench_job(ctx: JobContext) -> dict[str, Any]:
    request = ctx.request
    assert isinstance(request, BenchJob)
    config = request.bench_config(ctx.data_dir)
    records = [Record.model_validate(row) for row in ctx.run.records().rows()]
    ctx.progress.update(documents_done=0, scores=0)

    def on_event(event: dict[str, Any]) -> None:
        kind = str(event.get("type", "bench"))
        if kind == "document" and event.get("status") in ("written", "reused"):
            ctx.progress["documents_done"] += 1
        elif kind == "score":
            ctx.progress["scores"] += 1
        ctx.emit(kind, {k: _relative(v, ctx.data_dir) for k, v in event.items()})

    summary: BenchSummary = await run_bench(config, run=ctx.run, hub=JobHub(ctx), on_event=on_event, records=records)
    await asyncio.to_thread(_write_report, ctx.run)
    return {k: _relative(v, ctx.data_dir) for k, v in summary.to_dict().items()}


def _write_report(run: RunDir) -> None:
    from longeval.report import load_runs, write_report

    write_report(load_runs([run.path]), run.path, plots=False)


def bench_markdown(run: RunDir) -> str | None:
    return run.report_path.read_text(encoding="utf-8") if run.report_path.is_file() else None


JOB_KINDS.register("bench")(JobKind(prepare=prepare_bench, run=run_bench_job, markdown=bench_markdown))
