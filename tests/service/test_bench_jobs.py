"""A bench job over HTTP on scripted models: documents written and judged, the report fetched as Markdown."""

from __future__ import annotations

import json

from longeval.service import ServiceSettings
from tests.unit.bench.scripted import scripted_judge, scripted_writer

from .conftest import ClientFactory
from .helpers import read_events, submit


async def test_a_bench_job_writes_judges_and_reports(service: ClientFactory, settings: ServiceSettings) -> None:
    writer, judge = scripted_writer(), scripted_judge()
    client = await service(models={"openai:w": writer, "openai:j": judge})
    body = {"kind": "bench", "domains": ["blog"], "limit": 1, "writers": ["openai:w"], "judge": "openai:j"}
    job = await submit(client, body)
    assert job["progress"] == {"records": 1, "documents": 1, "documents_done": 0, "scores": 0}

    events = await read_events(client, job["id"])
    assert events[-1]["sse_type"] == "end" and events[-1]["status"] == "succeeded", events[-1]
    types = {e["sse_type"] for e in events}
    assert {"plan", "write.step", "document", "score", "done"} <= types
    assert str(settings.data_dir.resolve()) not in json.dumps(events)  # no server paths in events

    result = await (await client.get(f"/v1/jobs/{job['id']}/result")).json()
    assert result["summary"]["complete"] is True and result["summary"]["written"] == 1
    assert result["summary"]["run"] == f"jobs/{job['id']}"
    report = await (await client.get(f"/v1/jobs/{job['id']}/result?format=md")).text()
    assert "## Table 4" in report and "openai:w" in report
    assert writer.calls and judge.calls


async def test_a_bench_dataset_must_be_inside_the_data_dir(service: ClientFactory) -> None:
    client = await service(scripted_writer())
    response = await client.post("/v1/jobs", json={"kind": "bench", "dataset": "/etc/passwd"})
    payload = await response.json()
    assert response.status == 400 and payload["problems"][0]["field"] == "dataset"
    planner = await client.post("/v1/jobs", json={"kind": "bench", "planner": "nonee"})
    assert (await planner.json())["problems"][0]["field"] == "planner"
