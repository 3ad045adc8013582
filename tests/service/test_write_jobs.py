"""A write job over real HTTP: submitted, followed through its events to the end, its document fetched."""

from __future__ import annotations

from .conftest import ClientFactory
from .helpers import blog_record, read_events, scripted_writer, submit


async def test_a_write_job_streams_each_section_then_ends(service: ClientFactory) -> None:
    model = scripted_writer()
    client = await service(model)
    job = await submit(client, {"kind": "write", "record": blog_record()})
    assert job["status"] == "queued" and job["links"]["events"] == f"/v1/jobs/{job['id']}/events"

    events = await read_events(client, job["id"])

    assert [e["sse_id"] for e in events] == list(range(1, len(events) + 1))  # no gaps
    assert [e["sse_type"] for e in events] == ["status", "status"] + ["step"] * 6 + ["document", "end"]
    steps = [e for e in events if e["sse_type"] == "step"]
    assert [s["node"] for s in steps] == ["plan", "first_section", "section", "section", "section", "assemble"]
    assert [s["heading"] for s in steps[1:5]] == ["Intro", "Part A", "Part B", "Wrap-up"]
    assert [s["words"] for s in steps[1:5]] == [21, 22, 22, 21] and all(s["prompt_hash"] for s in steps[1:5])
    assert events[-1]["status"] == "succeeded"

    status = await (await client.get(f"/v1/jobs/{job['id']}")).json()
    assert status["status"] == "succeeded"
    assert status["progress"]["documents_done"] == 1 and status["progress"]["sections_written"] == 4
    assert status["usage"]["totals"]["calls"] == 4 == len(model.calls)

    result = await (await client.get(f"/v1/jobs/{job['id']}/result")).json()
    assert result["complete"] is True
    [document] = result["documents"]
    assert [s["heading"] for s in document["sections"]] == ["Intro", "Part A", "Part B", "Wrap-up"]
    assert document["sections"][2]["text"].startswith("BODY[Part B]")
    markdown = await (await client.get(f"/v1/jobs/{job['id']}/result?format=md")).text()
    assert markdown.startswith("# Notes blog-1\n") and "## Part B\n\nBODY[Part B]" in markdown


async def test_reconnecting_with_last_event_id_resumes_without_gaps(service: ClientFactory) -> None:
    client = await service(scripted_writer())
    job = await submit(client, {"kind": "write", "record": blog_record()})
    everything = await read_events(client, job["id"])
    rest = await read_events(client, job["id"], last_event_id=4)
    assert [e["sse_id"] for e in rest] == list(range(5, len(everything) + 1))
    assert rest == everything[4:]
    after_end = await read_events(client, job["id"], last_event_id=len(everything))
    assert after_end == []  # the stream of a finished job closes at once
    bad = await client.get(f"/v1/jobs/{job['id']}/events", headers={"Last-Event-ID": "x"})
    assert bad.status == 400 and "is not an event id" in (await bad.json())["error"]


async def test_jobs_are_listed_newest_first(service: ClientFactory) -> None:
    client = await service(scripted_writer())
    first = await submit(client, {"kind": "write", "record": blog_record("a")})
    second = await submit(client, {"kind": "write", "record": blog_record("b")})
    for job in (first, second):
        await read_events(client, job["id"])
    listed = await (await client.get("/v1/jobs?status=succeeded")).json()
    assert [j["id"] for j in listed["jobs"]] == [second["id"], first["id"]]


async def test_an_unknown_job_is_a_404_naming_it(service: ClientFactory) -> None:
    client = await service(scripted_writer())
    missing = await client.get("/v1/jobs/" + "f" * 32)
    assert missing.status == 404 and (await missing.json())["error"] == "no job " + "f" * 32
    no_route = await client.get("/v2/jobs")
    assert no_route.status == 404 and (await no_route.json())["error"] == "no route GET /v2/jobs"
    bad_id = await client.get("/v1/jobs/" + "f" * 32 + "/events", headers={"Last-Event-ID": "x"})
    assert bad_id.status == 404  # the job is checked first
