"""A `longeval write` process killed mid-document (SIGKILL), then rerun on the same --out: it continues at
the next unwritten section and asks the server for nothing it already had."""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from tests.fakes.openai_server import FakeOpenAIServer, running_fake_server
from tests.graph.writer_helpers import asked_heading, body_of

SAMPLE = "arxiv-sparse-retrieval"
HEADINGS = ["Abstract", "Introduction", "Related Work", "Method", "Experiments", "Conclusion"]


def reply(body: dict[str, Any]) -> str:
    if "response_format" in body:  # the results judge
        return json.dumps({"needs_results": "Experiments" in body["messages"][-1]["content"].split("plan:")[0]})
    return body_of(asked_heading(body["messages"]))


def asked(body: dict[str, Any]) -> str:
    prompt = body["messages"][-1]["content"]
    if "response_format" in body:
        return "judge " + prompt.split('next section is "')[1].split('"')[0]
    return "write " + asked_heading(body["messages"])


@dataclass
class HangingServer(FakeOpenAIServer):
    """Answers until request number `hang_at`, which it never answers: the moment to kill the writer."""

    hang_at: int = 0
    hanging: asyncio.Event = field(default_factory=asyncio.Event)

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        if self.hang_at and len(self.requests) + 1 == self.hang_at:
            self.requests.append(await request.json())
            self.hanging.set()
            await asyncio.sleep(3600)
        return await super()._chat(request)


async def start_writer(url: str, out: Path) -> asyncio.subprocess.Process:
    args = [
        "write",
        "--sample",
        SAMPLE,
        "--model",
        "openai:fake",
        "--base-url",
        url,
        "--api-key",
        "k",
        "--out",
        str(out),
    ]
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", "from longeval.cli import main; main()", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def test_a_killed_write_resumes_without_repeating_a_call(tmp_path: Path) -> None:
    out = tmp_path / "x"
    # Requests: write Abstract, judge Introduction, write Introduction, write Related Work, judge Method,
    # write Method (number 6: killed while the server "writes" it).
    server = HangingServer(reply=reply, hang_at=6)
    async with running_fake_server(server):
        first = await start_writer(server.url, out)
        await asyncio.wait_for(server.hanging.wait(), timeout=120)
        first.kill()
        await first.wait()
        before = [asked(b) for b in server.requests]
        assert before[-1] == "write Method"
        server.hang_at = 0
        second = await start_writer(server.url, out)
        stdout, stderr = await asyncio.wait_for(second.communicate(), timeout=120)
        assert second.returncode == 0, stderr.decode()
    after = [asked(b) for b in server.requests[len(before) :]]
    # The response cache and the checkpoint agree: only the unfinished section and what follows.
    assert after == ["write Method", "judge Experiments", "write Experiments", "judge Conclusion", "write Conclusion"]
    document = json.loads((out / "document.json").read_text())
    assert [(s["heading"], s["text"]) for s in document["sections"]] == [(h, body_of(h).strip()) for h in HEADINGS]
    assert json.loads((out / "run.json").read_text())["resumed"] == 1
    assert "Conclusion" in stdout.decode()
