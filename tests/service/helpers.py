"""Helpers for service tests: records, a scripted writer that names its sections, a gate to hold a call, SSE reading."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any

from aiohttp.test_utils import TestClient

from longeval.llm.scripted import ScriptedModel
from longeval.llm.types import Completion, Message

WRITE_PURPOSES = ("write.first_section", "write.section")
_ASKED = re.compile(r'(?:write the section|Write) "([^"]+)"')


def asked_heading(messages: list[Message]) -> str:
    found = _ASKED.search(messages[-1]["content"])
    assert found, "a writing prompt names the section it asks for"
    return found.group(1)


def blog_record(
    record_id: str = "blog-1", headings: tuple[str, ...] = ("Intro", "Part A", "Part B", "Wrap-up")
) -> dict[str, Any]:
    """A blog record (no references, no results judge): one writing call per section."""
    return {
        "id": record_id,
        "domain": "blog",
        "title": f"Notes {record_id}",
        "sections": [{"heading": h, "text": "gold " * 30, "plan": f"PLAN[{h}]"} for h in headings],
    }


def scripted_writer() -> ScriptedModel:
    model = ScriptedModel()
    for purpose in WRITE_PURPOSES:
        model.script(purpose, lambda messages: f"BODY[{asked_heading(messages)}] " + "word " * 20)
    return model


def headings_asked(model: ScriptedModel) -> list[str]:
    return [asked_heading(call.messages) for call in model.calls if call.purpose in WRITE_PURPOSES]


class GatedModel:
    """A ChatModel in front of a scripted one that holds the calls `hold(prompt)` picks until `gate` opens."""

    def __init__(self, inner: ScriptedModel, hold: Callable[[str], bool]) -> None:
        self.inner = inner
        self.hold = hold
        self.gate = asyncio.Event()
        self.held = asyncio.Event()  # set once a call is waiting at the gate

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def endpoint(self) -> str:
        return self.inner.endpoint

    async def complete(self, messages: list[Message], **kwargs: Any) -> Completion:
        if self.hold(messages[-1]["content"]):
            self.held.set()
            await self.gate.wait()
        return await self.inner.complete(messages, **kwargs)


async def submit(client: TestClient, body: dict[str, Any], *, status: int = 202, **kwargs: Any) -> dict[str, Any]:
    response = await client.post("/v1/jobs", json=body, **kwargs)
    payload = await response.json()
    assert response.status == status, payload
    return payload


async def read_events(
    client: TestClient,
    job_id: str,
    *,
    last_event_id: int | None = None,
    stop: Callable[[dict[str, Any]], bool] = lambda event: False,
    headers: dict[str, str] | None = None,
    give_up_s: float = 60.0,
) -> list[dict[str, Any]]:
    """Read the job's SSE stream until it ends (or `stop(event)`); each event's data, with its SSE id and type.

    A stream that never ends fails the test after `give_up_s` instead of hanging it.
    """
    async with asyncio.timeout(give_up_s):
        return await _read_events(client, job_id, last_event_id, stop, headers)


async def _read_events(
    client: TestClient,
    job_id: str,
    last_event_id: int | None,
    stop: Callable[[dict[str, Any]], bool],
    headers: dict[str, str] | None,
) -> list[dict[str, Any]]:
    headers = dict(headers or {})
    if last_event_id is not None:
        headers["Last-Event-ID"] = str(last_event_id)
    events: list[dict[str, Any]] = []
    async with client.get(f"/v1/jobs/{job_id}/events", headers=headers) as response:
        assert response.status == 200, await response.text()
        assert response.headers["Content-Type"].startswith("text/event-stream")
        fields: dict[str, str] = {}
        async for raw in response.content:
            line = raw.decode().rstrip("\n")
            if line:
                if not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    fields[name] = value
                continue
            if "data" in fields:
                event = {**json.loads(fields["data"]), "sse_id": int(fields["id"]), "sse_type": fields["event"]}
                events.append(event)
                if stop(event):
                    return events
            fields = {}
    return events


async def wait_for_status(client: TestClient, job_id: str, wanted: str, *, attempts: int = 200) -> dict[str, Any]:
    for _ in range(attempts):
        job = await (await client.get(f"/v1/jobs/{job_id}")).json()
        if job["status"] == wanted:
            return job
        await asyncio.sleep(0.02)
    raise AssertionError(f"job {job_id} never became {wanted} (last: {job['status']})")
