"""A faithful fake OpenAI-compatible server (chat completions) that can inject faults.

It runs on 127.0.0.1 over real HTTP, so the real client, retries and limits are exercised. It
measures what a real server would: requests, concurrent requests in flight, arrival times.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

Reply = Callable[[dict[str, Any]], str]


@dataclass
class Fault:
    kind: str  # "429", "500", "400", "malformed_body", "text" (a reply text, after delay_s)
    retry_after: float | None = None
    delay_s: float = 0.0
    text: str = ""


@dataclass
class FakeOpenAIServer:
    reply: Reply = lambda request: "Hello from the fake server."
    delay_s: float = 0.0
    faults: deque[Fault] = field(default_factory=deque)
    requests: list[dict[str, Any]] = field(default_factory=list)
    arrivals: list[float] = field(default_factory=list)
    in_flight: int = 0
    max_in_flight: int = 0
    url: str = ""

    def inject(self, *faults: Fault) -> None:
        self.faults.extend(faults)

    async def _chat(self, request: web.Request) -> web.StreamResponse:
        body = await request.json()
        self.requests.append(body)
        self.arrivals.append(time.monotonic())
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            fault = self.faults.popleft() if self.faults else None
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
            if fault is not None:
                if fault.delay_s:
                    await asyncio.sleep(fault.delay_s)
                if fault.kind == "429":
                    headers = {"Retry-After": str(fault.retry_after)} if fault.retry_after is not None else {}
                    return web.json_response(
                        {"error": {"message": "rate limited", "type": "rate_limit"}}, status=429, headers=headers
                    )
                if fault.kind == "500":
                    return web.json_response({"error": {"message": "boom", "type": "server_error"}}, status=500)
                if fault.kind == "400":
                    return web.json_response({"error": {"message": "bad request", "type": "invalid"}}, status=400)
                if fault.kind == "malformed_body":
                    return web.Response(text="{not json", content_type="application/json")
                if fault.kind == "text":
                    return web.json_response(self._completion(body, fault.text))
            return web.json_response(self._completion(body, self.reply(body)))
        finally:
            self.in_flight -= 1

    @staticmethod
    def _completion(body: dict[str, Any], text: str) -> dict[str, Any]:
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": len(text.split()),
                "total_tokens": prompt_tokens + len(text.split()),
            },
        }

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        return app


@asynccontextmanager
async def running_fake_server(server: FakeOpenAIServer | None = None) -> AsyncIterator[FakeOpenAIServer]:
    server = server or FakeOpenAIServer()
    runner = web.AppRunner(server.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    server.url = f"http://127.0.0.1:{port}/v1"
    try:
        yield server
    finally:
        await runner.cleanup()


def json_reply(obj: dict[str, Any]) -> Reply:
    return lambda request: json.dumps(obj)
