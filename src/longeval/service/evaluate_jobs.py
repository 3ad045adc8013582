"""The `evaluate` job: judge the documents of a finished job (or of a run folder in the data dir).

At submission the source's records and documents are copied into the job's own run folder, so the
job judges a fixed snapshot and writes its scores only there.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from longeval.evaluation import EvaluationSummary, evaluate_run
from longeval.runs import RunDir
from longeval.service.context import JOB_KINDS, JobContext, JobInputError, JobKind
from longeval.service.jobs import JobStatus
from longeval.service.paths import resolve_inside
from longeval.service.schemas import EvaluateJob


async def _source_folder(ctx: JobContext, request: EvaluateJob) -> Path:
    if request.run_dir is not None:
        return resolve_inside(ctx.data_dir, request.run_dir)
    assert request.source_job is not None
    source = await ctx.store.get(request.source_job)
    if source is None:
        raise JobInputError("source_job", f"no job {request.source_job}")
    if source.status is not JobStatus.SUCCEEDED:
        raise JobInputError(
            "source_job", f"job {source.id} is {source.status.value}; evaluate it once it has succeeded"
        )
    return ctx.run.path.parent / source.id


async def prepare_evaluate(ctx: JobContext) -> None:
    request = ctx.request
    assert isinstance(request, EvaluateJob)
    source = RunDir(await _source_folder(ctx, request))
    generations = source.generations()
    if len(generations) == 0:
        raise JobInputError("source_job" if request.source_job else "run_dir", "holds no generated documents")
    records, own_generations = ctx.run.records(), ctx.run.generations()
    for row in source.records():
        records.append(row)
    for row in generations:
        own_generations.append(row)
    ctx.progress.update(documents=len(generations), results=0, failed=0)


async def run_evaluate(ctx: JobContext) -> dict[str, Any]:
    request = ctx.request
    assert isinstance(request, EvaluateJob)
    judge = ctx.model(request.judge, request.base_url)
    second = ctx.model(request.second_judge, request.base_url) if request.second_judge else None
    ctx.progress.update(results=0, failed=0)

    def on_result(row: dict[str, Any]) -> None:
        ctx.progress["failed" if row.get("failed") else "results"] += 1
        ctx.emit("score", row)

    summary = await evaluate_run(
        ctx.run,
        judge=judge,
        metrics=request.metrics,
        repeats=request.repeats,
        second_judge=second,
        on_result=on_result,
        seed=request.seed,
    )
    return summary_json(summary)


def summary_json(summary: EvaluationSummary) -> dict[str, Any]:
    """An EvaluationSummary as JSON: the tables (with each system's Overall), tally, failures, intervals."""
    tables = {
        judge: [{**dataclasses.asdict(t), "system": t.system, "overall": t.overall} for t in systems]
        for judge, systems in summary.tables.items()
    }
    return {
        "judges": summary.judges,
        "metrics": summary.metrics,
        "tables": tables,
        "tally": dict(summary.tally),
        "unscored": summary.unscored,
        "failures": [dict(f) for f in summary.failures],
        "intervals": {j: [dataclasses.asdict(i) for i in rows] for j, rows in summary.intervals.items()},
        "agreement": [dataclasses.asdict(a) for a in summary.agreement],
    }


def evaluate_markdown(run: RunDir) -> str | None:
    return run.report_path.read_text(encoding="utf-8") if run.report_path.is_file() else None


JOB_KINDS.register("evaluate")(JobKind(prepare=prepare_evaluate, run=run_evaluate, markdown=evaluate_markdown))
