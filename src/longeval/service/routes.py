"""The API's handlers. Every route here is described in openapi.py (a test holds the two together)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from aiohttp import web
from pydantic import ValidationError

from longeval.service.context import JOB_KINDS, JobInputError
from longeval.service.events import END, EventLog
from longeval.service.http import error_response, validation_problems
from longeval.service.jobs import JobRow, JobStatus, JobStore
from longeval.service.paths import JOB_ID_PATTERN
from longeval.service.runner import JobRunner, JobsFullError, JobStateError
from longeval.service.schemas import JOB_REQUEST, FieldProblem, Health, JobLinks, JobList, JobView, ValidationContext
from longeval.service.settings import ServiceSettings

SETTINGS = web.AppKey("settings", ServiceSettings)
STORE = web.AppKey("store", JobStore)
EVENTS = web.AppKey("events", EventLog)
RUNNER = web.AppKey("runner", JobRunner)

JOB = f"/v1/jobs/{{job_id:{JOB_ID_PATTERN}}}"
routes = web.RouteTableDef()


def job_view(row: JobRow, runner: JobRunner) -> dict[str, Any]:
    live = runner.live(row.id)
    base = f"/v1/jobs/{row.id}"
    view = JobView(
        id=row.id,
        kind=row.kind,  # type: ignore[arg-type]
        status=row.status.value,
        progress=dict(live.progress) if live is not None else row.progress,
        usage=live.usage.to_dict() if live is not None else row.usage,
        error=row.error,
        created=row.created,
        updated=row.updated,
        request=row.request,
        links=JobLinks(self=base, events=f"{base}/events", result=f"{base}/result"),
    )
    return view.model_dump(mode="json")


async def _job(request: web.Request) -> JobRow:
    row = await request.app[STORE].get(request.match_info["job_id"])
    if row is None:
        raise web.HTTPNotFound(text=f"no job {request.match_info['job_id']}")
    return row


@routes.get("/healthz")
async def healthz(request: web.Request) -> web.Response:
    queued, running = request.app[RUNNER].counts()
    return web.json_response(Health(status="ok", queued=queued, running=running).model_dump())


@routes.get("/openapi.json")
async def openapi(request: web.Request) -> web.Response:
    from longeval.service.openapi import openapi_document

    return web.json_response(openapi_document())


def _too_large(size: int | None, limit: int) -> web.Response:
    actual = f"{size} bytes" if size is not None else "larger than that"
    return error_response(413, f"request body is {actual}; this service takes at most {limit} bytes (max_body_bytes)")


@routes.post("/v1/jobs")
async def submit_job(request: web.Request) -> web.Response:
    settings = request.app[SETTINGS]
    if request.content_length is not None and request.content_length > settings.max_body_bytes:
        return _too_large(request.content_length, settings.max_body_bytes)
    try:
        raw = await request.read()  # aiohttp stops reading at client_max_size (= max_body_bytes)
    except web.HTTPRequestEntityTooLarge:
        return _too_large(None, settings.max_body_bytes)
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return error_response(400, f"request body is not valid JSON: {exc}")
    if not isinstance(body, dict):
        return error_response(
            400,
            "request body must be a JSON object with a 'kind'",
            [FieldProblem(field="(body)", message="not an object")],
        )
    context = ValidationContext(data_dir=settings.data_dir, allowed_base_urls=settings.allowed_base_urls)
    try:
        job_request = JOB_REQUEST.validate_python(body, context=context)
    except ValidationError as exc:
        problems = validation_problems(exc, body)
        return error_response(
            400, "invalid job request: " + "; ".join(f"{p.field}: {p.message}" for p in problems), problems
        )
    runner = request.app[RUNNER]
    try:
        row = await runner.submit(job_request)
    except JobInputError as exc:
        return error_response(400, f"invalid job request: {exc}", [FieldProblem(field=exc.field, message=exc.message)])
    except JobsFullError as exc:
        return error_response(429, str(exc), headers={"Retry-After": "5"})
    return web.json_response(job_view(row, runner), status=202, headers={"Location": f"/v1/jobs/{row.id}"})


@routes.get("/v1/jobs")
async def list_jobs(request: web.Request) -> web.Response:
    status_text = request.query.get("status")
    if status_text is not None and status_text not in {s.value for s in JobStatus}:
        known = ", ".join(s.value for s in JobStatus)
        return error_response(
            400,
            f"status: {status_text!r} is not a job status ({known})",
            [FieldProblem(field="status", message="unknown status")],
        )
    limit_text = request.query.get("limit", "100")
    if not limit_text.isdigit() or not 1 <= int(limit_text) <= 1000:
        return error_response(
            400,
            f"limit: {limit_text!r} is not a whole number from 1 to 1000",
            [FieldProblem(field="limit", message="1 to 1000")],
        )
    rows = await request.app[STORE].list(status=JobStatus(status_text) if status_text else None, limit=int(limit_text))
    runner = request.app[RUNNER]
    return web.json_response(
        JobList.model_validate({"jobs": [job_view(r, runner) for r in rows]}).model_dump(mode="json")
    )


@routes.get(JOB)
async def get_job(request: web.Request) -> web.Response:
    return web.json_response(job_view(await _job(request), request.app[RUNNER]))


@routes.delete(JOB)
async def cancel_job(request: web.Request) -> web.Response:
    row = await _job(request)
    runner = request.app[RUNNER]
    try:
        await runner.cancel(row.id)
    except JobStateError as exc:
        return error_response(409, str(exc))
    return web.json_response(job_view(await _job(request), runner))


@routes.get(JOB + "/result")
async def job_result(request: web.Request) -> web.StreamResponse:
    row = await _job(request)
    run_path = request.app[SETTINGS].jobs_dir / row.id
    kind = JOB_KINDS.get(row.kind)
    from longeval.runs import RunDir

    run = RunDir(run_path)
    wanted = request.query.get("format", "json")
    if wanted == "md":
        text = await asyncio.to_thread(kind.markdown, run)
        if text is None:
            return error_response(404, f"job {row.id} ({row.kind}, {row.status.value}) has no Markdown result yet")
        return web.Response(text=text, content_type="text/markdown")
    if wanted != "json":
        return error_response(
            400, f"format: {wanted!r} is not json or md", [FieldProblem(field="format", message="json or md")]
        )
    body: dict[str, Any] = {
        "id": row.id,
        "kind": row.kind,
        "status": row.status.value,
        "complete": row.status is JobStatus.SUCCEEDED,
    }
    partial = await asyncio.to_thread(kind.partial_result, run)
    summary_path = run_path / "result.json"
    if summary_path.is_file():
        body["summary"] = json.loads(summary_path.read_text(encoding="utf-8"))
    elif partial is None:
        return error_response(409, f"job {row.id} is {row.status.value}; its result comes when it has succeeded")
    return web.json_response({**body, **(partial or {})})


def _last_event_id(request: web.Request) -> int:
    text = request.headers.get("Last-Event-ID", request.query.get("last_event_id", "0")).strip() or "0"
    if not text.isdigit():
        raise web.HTTPBadRequest(text=f"Last-Event-ID: {text!r} is not an event id (a whole number)")
    return int(text)


@routes.get(JOB + "/events")
async def job_events(request: web.Request) -> web.StreamResponse:
    """Server-sent events: every stored event after Last-Event-ID, then live ones, until the job's `end` event."""
    row = await _job(request)
    last = _last_event_id(request)
    events, store = request.app[EVENTS], request.app[STORE]
    heartbeat = request.app[SETTINGS].heartbeat_s
    response = web.StreamResponse(
        headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )
    await response.prepare(request)
    try:
        await response.write(b"retry: 2000\n\n")
        while True:
            # Status first, then events: a job seen finished has its end event written already (runner order).
            current = await store.get(row.id)
            finished = current is not None and current.status.terminal
            batch = await events.after(row.id, last)
            for event in batch:
                await response.write(event.to_sse())
                last = event.seq
                if event.type == END:
                    return response
            if batch:
                continue
            if finished or events.streams_closed:
                return response
            if not await events.wait(row.id, last, timeout_s=heartbeat):
                await response.write(b": keep-alive\n\n")
    except ConnectionResetError:  # the client went away; it reconnects with Last-Event-ID when it wants more
        return response
