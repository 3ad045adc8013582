"""An evaluate job judges a finished write job; API keys never reach events, results, the database or logs."""

from __future__ import annotations

import json

import pytest

from longeval.llm.types import ModelError
from longeval.service import ServiceSettings
from longeval.settings import EnvSettings

from .conftest import ClientFactory
from .helpers import blog_record, read_events, scripted_writer, submit


async def test_an_evaluate_job_judges_a_finished_write_job(service: ClientFactory) -> None:
    model = scripted_writer().script("judge.redundancy", '{"score": 7}')
    client = await service(model)
    write = await submit(client, {"kind": "write", "record": blog_record()})
    early = await client.post("/v1/jobs", json={"kind": "evaluate", "source_job": write["id"]})
    assert early.status == 400 and (await early.json())["problems"][0]["field"] == "source_job"
    await read_events(client, write["id"])

    evaluate = await submit(client, {"kind": "evaluate", "source_job": write["id"], "metrics": ["len", "red"]})
    events = await read_events(client, evaluate["id"])
    assert events[-1]["status"] == "succeeded", events[-1]
    scores = [e for e in events if e["sse_type"] == "score"]
    assert sorted(e["metric"] for e in scores) == ["len", "red"]
    assert len(model.calls_for("judge.redundancy")) == 1

    result = await (await client.get(f"/v1/jobs/{evaluate['id']}/result")).json()
    [table] = result["summary"]["tables"]["scripted"]
    values = {m["metric"]: m["value"] for m in table["metrics"]}
    assert values["len"] is not None and values["red"] is not None
    assert result["summary"]["tally"]["failed"] == 0
    unknown = await client.post("/v1/jobs", json={"kind": "evaluate", "source_job": "0" * 32})
    assert "no job 0000" in (await unknown.json())["error"]


SECRET = "sk-test-NEVER-SHOW-0123456789"


async def test_api_keys_never_appear_in_events_results_database_or_logs(
    service: ClientFactory, settings: ServiceSettings, capsys: pytest.CaptureFixture[str]
) -> None:
    def leaky(messages: list) -> str:  # some providers echo the key they were given in an error
        raise ModelError(
            f"401 Incorrect API key provided: {SECRET}",
            endpoint="https://api.example/v1",
            purpose="write.first_section",
        )

    model = scripted_writer().script("write.first_section", leaky)
    keyed = settings.model_copy(update={"env": EnvSettings(openai_api_key=SECRET)})
    client = await service(model, settings=keyed)
    job = await submit(client, {"kind": "write", "record": blog_record()})
    events = await read_events(client, job["id"])
    status = await (await client.get(f"/v1/jobs/{job['id']}")).json()

    assert status["status"] == "failed" and "401 Incorrect API key provided: ***" in status["error"]
    assert events[-1]["status"] == "failed" and SECRET not in json.dumps(events)
    result = await (await client.get(f"/v1/jobs/{job['id']}/result")).text()
    await client.close()
    stored = b"".join(p.read_bytes() for p in settings.data_dir.rglob("*") if p.is_file())
    assert SECRET.encode() not in stored and SECRET not in result
    logs = capsys.readouterr()
    assert "job.failed" in logs.out + logs.err and SECRET not in logs.out + logs.err
