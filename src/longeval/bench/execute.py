"""The bench's two stages on given models: write every (writer x paradigm x record), then judge them.

Shared by the real run and the dry run (which runs it on simulated models in a scratch folder), so
the plan of work always follows the code that does the work. Documents are written concurrently
(up to `max_concurrency` in flight); the sections of one document stay in order inside its graph.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import structlog
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from longeval.agents.planners import PlannerError
from longeval.aio import gather_or_cancel
from longeval.bench.budget import BudgetExhausted
from longeval.bench.config import BenchConfig
from longeval.data.records import Paradigm, Record
from longeval.llm.types import ChatModel, ModelError
from longeval.runs import RunDir
from longeval.writing import doc_id_for, write_record

log = structlog.get_logger(__name__)

EventHandler = Callable[[dict[str, Any]], None]
BUDGET_REFUSAL = "token budget"  # how a BudgetExhausted message starts (failed judgements carry only text)


@dataclass
class BenchModels:
    writers: list[ChatModel]
    judge: ChatModel
    second_judge: ChatModel | None = None


@dataclass
class StageOutcome:
    written: int = 0
    reused: int = 0
    failed: list[dict[str, str]] = field(default_factory=list)  # {doc_id, error}
    stopped: list[str] = field(default_factory=list)  # doc ids the budget stopped
    seconds: float = 0.0


@dataclass
class WriteJob:
    writer: ChatModel
    paradigm: Paradigm
    record: Record

    def doc_id(self, config: BenchConfig) -> str:
        return doc_id_for(self.record, self.writer, config.writer_config(self.paradigm))


def write_jobs(config: BenchConfig, records: list[Record], models: BenchModels) -> list[WriteJob]:
    return [WriteJob(w, p, r) for w in models.writers for p in config.paradigms for r in records]


async def write_stage(
    config: BenchConfig,
    records: list[Record],
    models: BenchModels,
    run: RunDir,
    *,
    emit: EventHandler,
    budget_exhausted: Callable[[], bool],
    after_document: Callable[[], None] = lambda: None,
) -> StageOutcome:
    jobs = write_jobs(config, records, models)
    done = run.generations()
    outcome = StageOutcome()
    started = time.perf_counter()
    emit(
        {
            "type": "stage",
            "stage": "write",
            "documents": len(jobs),
            "sections": sum(len(j.record.sections) for j in jobs),
            "done_documents": sum(1 for j in jobs if j.doc_id(config) in done),
        }
    )
    slots = asyncio.Semaphore(config.max_concurrency)

    def forward(event: dict[str, Any]) -> None:
        emit({"type": "write.step", **event})

    async def write_one(job: WriteJob, saver: AsyncSqliteSaver) -> None:
        doc_id = job.doc_id(config)
        base = {"type": "document", "doc_id": doc_id, "sections": len(job.record.sections)}
        if doc_id in done:
            outcome.reused += 1
            emit({**base, "status": "reused"})
            return
        async with slots:
            if budget_exhausted():
                outcome.stopped.append(doc_id)
                emit({**base, "status": "stopped"})
                return
            try:
                document = await write_record(
                    job.record,
                    writer=job.writer,
                    results_judge=job.writer,  # the writing system decides its own routing
                    config=config.writer_config(job.paradigm),
                    run=run,
                    on_event=forward,
                    checkpointer=saver,
                )
            except BudgetExhausted:
                outcome.stopped.append(doc_id)
                emit({**base, "status": "stopped"})
                return
            except (ModelError, PlannerError) as exc:
                log.error("bench.document_failed", doc_id=doc_id, error=str(exc))
                outcome.failed.append({"doc_id": doc_id, "error": str(exc)})
                emit({**base, "status": "failed", "error": str(exc)})
                return
        outcome.written += 1
        after_document()
        emit({**base, "status": "written", "words": document.words})

    async with AsyncSqliteSaver.from_conn_string(str(run.checkpoints_path)) as saver:
        await gather_or_cancel([write_one(job, saver) for job in jobs])
    outcome.seconds = time.perf_counter() - started
    return outcome


@dataclass
class JudgeOutcome:
    summary: Any | None = None  # longeval.evaluation.EvaluationSummary
    failed: list[dict[str, Any]] = field(default_factory=list)
    stopped: int = 0  # judgements the budget refused
    seconds: float = 0.0


async def evaluate_stage(config: BenchConfig, models: BenchModels, run: RunDir, *, emit: EventHandler) -> JudgeOutcome:
    from longeval.evaluation import evaluate_run

    outcome = JudgeOutcome()
    if len(run.generations()) == 0:
        return outcome
    started = time.perf_counter()

    def on_plan(jobs: int, skipped: int) -> None:
        emit({"type": "stage", "stage": "evaluate", "jobs": jobs, "skipped": skipped})

    def on_result(row: dict[str, Any]) -> None:
        if row.get("failed"):
            if str(row.get("error", "")).startswith(BUDGET_REFUSAL):
                outcome.stopped += 1
                emit({"type": "score", "status": "stopped", **_score_fields(row)})
            else:
                outcome.failed.append(_score_fields(row) | {"error": row.get("error")})
                emit({"type": "score", "status": "failed", **_score_fields(row), "error": row.get("error")})
            return
        status = "unscored" if row.get("unscored") else "scored"
        emit({"type": "score", "status": status, **_score_fields(row), "value": row.get("value")})

    outcome.summary = await evaluate_run(
        run,
        judge=models.judge,
        metrics=config.metrics,
        repeats=config.repeats,
        second_judge=models.second_judge,
        on_result=on_result,
        on_plan=on_plan,
        seed=config.seed,
    )
    outcome.seconds = time.perf_counter() - started
    return outcome


def _score_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row.get(k) for k in ("doc_id", "metric", "judge", "repeat")}
