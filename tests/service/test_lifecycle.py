"""Cancelling, restarting and crowding the service: finished work is kept, nothing finished is redone."""

from __future__ import annotations

import asyncio

from longeval.service import ServiceSettings
from longeval.service.jobs import JobStatus

from .conftest import ClientFactory
from .helpers import GatedModel, blog_record, headings_asked, read_events, scripted_writer, submit, wait_for_status


async def test_cancel_mid_run_stops_the_job_and_keeps_finished_documents(service: ClientFactory) -> None:
    model = GatedModel(scripted_writer(), hold=lambda prompt: 'section "Later B"' in prompt)
    client = await service(model)
    records = [blog_record("first", ("One A", "One B")), blog_record("second", ("Later A", "Later B", "Later C"))]
    job = await submit(client, {"kind": "write", "records": records})
    await asyncio.wait_for(model.held.wait(), timeout=10)

    response = await client.delete(f"/v1/jobs/{job['id']}")
    cancelled = await response.json()
    assert response.status == 200 and cancelled["status"] == "cancelled"
    assert cancelled["progress"]["documents_done"] == 1 and cancelled["progress"]["sections_written"] == 3

    events = await read_events(client, job["id"])
    assert events[-1]["sse_type"] == "end" and events[-1]["status"] == "cancelled"
    assert "finished work is kept" in events[-1]["reason"]
    assert headings_asked(model.inner) == ["One A", "One B", "Later A"]  # "Later B" never reached the model
    result = await (await client.get(f"/v1/jobs/{job['id']}/result")).json()
    assert result["complete"] is False and [d["record_id"] for d in result["documents"]] == ["first"]
    again = await client.delete(f"/v1/jobs/{job['id']}")
    assert again.status == 409 and "is cancelled" in (await again.json())["error"]


async def test_after_a_restart_the_unfinished_job_completes_without_redoing_sections(
    service: ClientFactory, settings: ServiceSettings
) -> None:
    before = GatedModel(scripted_writer(), hold=lambda prompt: 'section "Part B"' in prompt)
    client = await service(before)
    job = await submit(client, {"kind": "write", "record": blog_record()})
    await asyncio.wait_for(before.held.wait(), timeout=10)
    seen = await read_events(client, job["id"], stop=lambda e: e.get("heading") == "Part A")
    await client.close()  # the service stops with the job mid-document

    after = scripted_writer()
    restarted = await service(after)
    listed = await (await restarted.get("/v1/jobs")).json()
    assert [j["id"] for j in listed["jobs"]] == [job["id"]]
    events = await read_events(restarted, job["id"], last_event_id=seen[-1]["sse_id"])
    assert events[-1]["sse_type"] == "end" and events[-1]["status"] == "succeeded"
    every = seen + events
    assert [e["sse_id"] for e in every] == list(range(1, len(every) + 1))  # one numbering across the restart
    assert "interrupted" in [e["sse_type"] for e in events]

    assert headings_asked(before.inner) == ["Intro", "Part A"]
    assert headings_asked(after) == ["Part B", "Wrap-up"]  # finished sections were not asked again
    result = await (await restarted.get(f"/v1/jobs/{job['id']}/result")).json()
    [document] = result["documents"]
    assert [s["text"].split()[0] for s in document["sections"]] == [
        "BODY[Intro]",
        "BODY[Part",
        "BODY[Part",
        "BODY[Wrap-up]",
    ]
    status = await (await restarted.get(f"/v1/jobs/{job['id']}")).json()
    assert status["usage"]["totals"]["calls"] == 4  # usage counted across both runs


async def test_twenty_concurrent_jobs_all_complete(service: ClientFactory, settings: ServiceSettings) -> None:
    model = scripted_writer()
    model.delay_s = 0.01
    client = await service(model, settings=settings.model_copy(update={"max_running_jobs": 4}))
    jobs = await asyncio.gather(*(submit(client, {"kind": "write", "record": blog_record(f"r{i}")}) for i in range(20)))
    ends = await asyncio.gather(*(read_events(client, job["id"]) for job in jobs))
    assert [events[-1]["status"] for events in ends] == ["succeeded"] * 20
    for job in jobs:
        result = await (await client.get(f"/v1/jobs/{job['id']}/result")).json()
        assert len(result["documents"]) == 1 and len(result["documents"][0]["sections"]) == 4
    assert len(model.calls) == 80
    health = await (await client.get("/healthz")).json()
    assert health == {"status": "ok", "queued": 0, "running": 0}


async def test_a_full_queue_answers_429_and_queued_jobs_can_be_cancelled(
    service: ClientFactory, settings: ServiceSettings
) -> None:
    model = GatedModel(scripted_writer(), hold=lambda prompt: True)
    crowded = settings.model_copy(update={"max_running_jobs": 1, "max_pending_jobs": 2})
    client = await service(model, settings=crowded)
    running = await submit(client, {"kind": "write", "record": blog_record("a")})
    queued = await submit(client, {"kind": "write", "record": blog_record("b")})
    await wait_for_status(client, running["id"], JobStatus.RUNNING.value)
    full = await client.post("/v1/jobs", json={"kind": "write", "record": blog_record("c")})
    assert full.status == 429 and full.headers["Retry-After"] == "5"
    assert "2 jobs are queued or running" in (await full.json())["error"]

    assert (await (await client.delete(f"/v1/jobs/{queued['id']}")).json())["status"] == "cancelled"
    assert (await client.post("/v1/jobs", json={"kind": "write", "record": blog_record("c")})).status == 202
    model.gate.set()
    ends = await read_events(client, running["id"])
    assert ends[-1]["status"] == "succeeded"
