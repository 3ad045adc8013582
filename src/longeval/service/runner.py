"""Runs jobs in the background: bounded, cancellable, and resumed when the service starts again.

Each job has a supervisor task that waits for a slot (`max_running_jobs`), runs the job's work in a
task of its own and records how it ended, whatever the way: success, failure (the error, redacted),
cancellation by a user (`cancelled`, finished work kept) or the service stopping (back to `queued`,
resumed at the next start from its run folder and checkpoints).
"""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import structlog
from pydantic import ValidationError

from longeval.llm.usage import UsageLedger
from longeval.runs import RunDir
from longeval.service import bench_jobs, evaluate_jobs, write_jobs  # noqa: F401  (they register their job kinds)
from longeval.service.context import JOB_KINDS, JobContext, JobRequestModel, ModelFactory
from longeval.service.events import END, EventLog
from longeval.service.jobs import JobRow, JobStatus, JobStore
from longeval.service.paths import new_job_id
from longeval.service.schemas import JOB_REQUEST, ValidationContext

log = structlog.get_logger(__name__)

StopReason = Literal["user", "shutdown"]


class JobsFullError(RuntimeError):
    """Too many jobs queued or running (a 429)."""


class JobStateError(RuntimeError):
    """The job is in a state that does not allow the operation (a 409)."""


@dataclass
class ActiveJob:
    context: JobContext
    supervisor: asyncio.Task[None] | None = None
    stop_reason: StopReason | None = None
    running: bool = False
    work: asyncio.Task[dict[str, Any]] | None = field(default=None, repr=False)


class JobRunner:
    def __init__(
        self,
        *,
        store: JobStore,
        events: EventLog,
        jobs_dir: Path,
        data_dir: Path,
        model_factory: ModelFactory,
        validation: ValidationContext,
        redact: Callable[[str], str],
        max_running: int,
        max_pending: int,
    ) -> None:
        self._store, self._events = store, events
        self._jobs_dir, self._data_dir = jobs_dir, data_dir
        self._model_factory = model_factory
        self._validation = validation
        self._redact = redact
        self._slots = asyncio.Semaphore(max_running)
        self._max_pending = max_pending
        self._active: dict[str, ActiveJob] = {}
        self._admitting = 0

    def counts(self) -> tuple[int, int]:
        """(queued, running) jobs of this service process."""
        running = sum(1 for job in self._active.values() if job.running)
        return len(self._active) - running, running

    def live(self, job_id: str) -> JobContext | None:
        """An active job's context, whose progress and usage are newer than its stored row."""
        active = self._active.get(job_id)
        return active.context if active is not None else None

    def _context(
        self, job_id: str, request: JobRequestModel, usage: UsageLedger, progress: dict[str, Any]
    ) -> JobContext:
        async def save_progress() -> None:
            await self._store.update(job_id, progress=ctx.progress, usage=ctx.usage.to_dict())

        ctx = JobContext(
            job_id=job_id,
            request=request,
            run=RunDir(self._jobs_dir / job_id),
            data_dir=self._data_dir,
            store=self._store,
            model_factory=self._model_factory,
            emit=lambda type_, data: self._events.emit(job_id, type_, data),
            save_progress=save_progress,
            redact=self._redact,
            usage=usage,
            progress=progress,
        )
        return ctx

    async def submit(self, request: JobRequestModel) -> JobRow:
        """Check and store the inputs, then queue the job. JobInputError (400) and JobsFullError (429) refuse it."""
        taken = len(self._active) + self._admitting  # submissions still preparing hold a place too
        if taken >= self._max_pending:
            raise JobsFullError(
                f"{taken} jobs are queued or running, the most this service takes (max_pending_jobs); "
                "retry when one has finished"
            )
        job_id = new_job_id()
        ctx = self._context(job_id, request, UsageLedger(), {})
        prepared = False
        self._admitting += 1
        try:
            await JOB_KINDS.get(request.kind).prepare(ctx)
            prepared = True
        finally:
            self._admitting -= 1
            if not prepared:
                await asyncio.to_thread(_remove_tree, ctx.run.path)  # a refused job leaves nothing behind
        row = await self._store.create(job_id, request.kind, request.model_dump(mode="json", exclude_unset=True))
        await self._store.update(job_id, progress=ctx.progress)
        await self._events.open_job(job_id)
        self._events.emit(job_id, "status", {"status": JobStatus.QUEUED.value})
        self._start(ActiveJob(ctx))
        return row

    async def resume_unfinished(self) -> None:
        """Queue again what a stopped service left queued or running; it continues from its run folder."""
        for row in await self._store.unfinished():
            await self._events.open_job(row.id)
            try:
                request = JOB_REQUEST.validate_python(row.request, context=self._validation)
            except ValidationError as exc:  # e.g. a base URL this service no longer allows
                error = self._redact(f"the stored request is no longer valid here: {exc}")
                self._events.emit(row.id, END, {"status": JobStatus.FAILED.value, "error": error})
                await self._events.flush()
                await self._store.update(row.id, status=JobStatus.FAILED, error=error)
                continue
            ctx = self._context(row.id, request, UsageLedger.from_dict(row.usage), row.progress)
            await self._store.update(row.id, status=JobStatus.QUEUED)
            self._events.emit(row.id, "status", {"status": JobStatus.QUEUED.value, "resumed": True})
            log.info("job.resumed", job_id=row.id, kind=row.kind)
            self._start(ActiveJob(ctx))

    def _start(self, job: ActiveJob) -> None:
        self._active[job.context.job_id] = job
        job.supervisor = asyncio.create_task(self._supervise(job), name=f"job-{job.context.job_id}")

    async def _supervise(self, job: ActiveJob) -> None:
        try:
            async with self._slots:
                await self._run(job)
        except asyncio.CancelledError:  # stopped before its work started; once started, _run settles it
            if job.work is None:
                await self._settle(job, None)
        finally:
            self._active.pop(job.context.job_id, None)

    async def _run(self, job: ActiveJob) -> None:
        ctx = job.context
        job.running = True
        await self._store.update(ctx.job_id, status=JobStatus.RUNNING)
        ctx.emit("status", {"status": JobStatus.RUNNING.value})
        job.work = asyncio.create_task(JOB_KINDS.get(ctx.request.kind).run(ctx))
        try:
            await asyncio.wait([job.work])  # never raises the job's own error: it is inspected below
        except asyncio.CancelledError:
            job.work.cancel()
            await asyncio.wait([job.work])
        await self._settle(job, job.work)

    async def _settle(self, job: ActiveJob, work: asyncio.Task[dict[str, Any]] | None) -> None:
        ctx = job.context
        status, error, extra = JobStatus.CANCELLED, None, {}
        if work is not None and work.done() and not work.cancelled():
            failure = work.exception()
            if failure is None:
                status = JobStatus.SUCCEEDED
                result = work.result()
                await asyncio.to_thread(_write_json, ctx.run.path / "result.json", result, self._redact)
            else:
                status = JobStatus.FAILED
                error = self._redact(f"{type(failure).__name__}: {failure}")
                log.error("job.failed", job_id=ctx.job_id, error=error,
                          traceback=self._redact("".join(traceback.format_exception(failure))))  # fmt: skip
        elif job.stop_reason == "shutdown":
            # The service is stopping: the job goes back to the queue and resumes at the next start.
            ctx.emit("interrupted", {"reason": "the service stopped; the job resumes when it starts again"})
            await self._events.flush()
            await self._store.update(
                ctx.job_id, status=JobStatus.QUEUED, progress=ctx.progress, usage=ctx.usage.to_dict()
            )
            return
        else:
            extra = {"reason": "cancelled by request; finished work is kept"}
        await asyncio.to_thread(ctx.run.write_usage, ctx.usage.to_dict())
        # The end event is written before the status, so a stream that sees a final status has it to read.
        ctx.emit(END, {"status": status.value, "error": error, "progress": ctx.progress, **extra})
        await self._events.flush()
        await self._store.update(
            ctx.job_id, status=status, progress=ctx.progress, usage=ctx.usage.to_dict(), error=error
        )
        log.info("job.finished", job_id=ctx.job_id, status=status.value)

    async def cancel(self, job_id: str) -> None:
        """Stop a queued or running job; returns once it has stopped and its status is stored."""
        job = self._active.get(job_id)
        if job is None or job.supervisor is None:
            row = await self._store.get(job_id)
            state = row.status.value if row is not None else "unknown"
            raise JobStateError(f"job {job_id} is {state}; only queued or running jobs can be cancelled")
        await self._stop(job, "user")

    async def _stop(self, job: ActiveJob, reason: StopReason) -> None:
        assert job.supervisor is not None
        if job.stop_reason is None:
            job.stop_reason = reason
            job.supervisor.cancel()
        await asyncio.wait([job.supervisor])

    async def shutdown(self) -> None:
        """Stop every job; each goes back to `queued` with its finished work kept, to resume at the next start."""
        jobs = list(self._active.values())
        await asyncio.gather(*(self._stop(job, "shutdown") for job in jobs))


def _write_json(path: Path, data: dict[str, Any], redact: Callable[[str], str]) -> None:
    path.write_text(
        redact(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True, default=str)) + "\n", encoding="utf-8"
    )


def _remove_tree(path: Path) -> None:
    import shutil

    if path.exists():
        shutil.rmtree(path)
