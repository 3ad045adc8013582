"""No path in a request reads or writes outside the data dir."""

from __future__ import annotations

import json
from pathlib import Path

from longeval.service import ServiceSettings

from .conftest import ClientFactory
from .helpers import blog_record, read_events, scripted_writer, submit


async def test_path_traversal_is_refused(service: ClientFactory, settings: ServiceSettings, tmp_path: Path) -> None:
    client = await service(scripted_writer())
    outside = tmp_path / "outside.jsonl"
    outside.write_text(json.dumps(blog_record("secret")) + "\n", encoding="utf-8")
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    (settings.data_dir / "link.jsonl").symlink_to(outside)

    attempts = {
        "../outside.jsonl": "climbs out with '..'",
        "inputs/../../outside.jsonl": "climbs out with '..'",
        str(outside): "is absolute",
        "~/outside.jsonl": "is absolute",
        "link.jsonl": "resolves outside the service's data dir",
        "..\\outside.jsonl": "climbs out with '..'",
    }
    for path, reason in attempts.items():
        response = await client.post("/v1/jobs", json={"kind": "write", "records_file": path})
        payload = await response.json()
        assert response.status == 400, (path, payload)
        assert [p["field"] for p in payload["problems"]] == ["records_file"] and reason in payload["error"], path
    run_dir = await client.post("/v1/jobs", json={"kind": "evaluate", "run_dir": "../../"})
    assert run_dir.status == 400 and (await run_dir.json())["problems"][0]["field"] == "run_dir"
    for path in ("/v1/jobs/..%2F..%2Fetc%2Fpasswd", "/v1/jobs/../../etc/passwd/result", "/v1/jobs/ABC/result"):
        assert (await client.get(path)).status == 404, path
    assert list(settings.jobs_dir.iterdir()) == []  # refused jobs leave nothing behind


async def test_a_records_file_inside_the_data_dir_is_read(service: ClientFactory, settings: ServiceSettings) -> None:
    client = await service(scripted_writer())
    inputs = settings.data_dir / "inputs"
    inputs.mkdir(parents=True)
    rows = [blog_record("one", ("A", "B")), blog_record("two", ("C", "D"))]
    (inputs / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")

    missing_id = await client.post(
        "/v1/jobs", json={"kind": "write", "records_file": "inputs/records.jsonl", "ids": ["three"]}
    )
    assert missing_id.status == 400 and (await missing_id.json())["problems"][0]["field"] == "ids"

    job = await submit(client, {"kind": "write", "records_file": "inputs/records.jsonl", "ids": ["two"]})
    await read_events(client, job["id"])
    result = await (await client.get(f"/v1/jobs/{job['id']}/result")).json()
    assert [d["record_id"] for d in result["documents"]] == ["two"]
    assert (settings.jobs_dir / job["id"] / "generations.jsonl").is_file()
