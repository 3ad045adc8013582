"""The real OpenAI-compatible client over real HTTP against a fake server that injects faults."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic import BaseModel

from longeval.llm.cache import ResponseCache
from longeval.llm.client import Model
from longeval.llm.limits import EndpointLimiter, Limits
from longeval.llm.openai_compat import OpenAICompatBackend
from longeval.llm.retry import RetryPolicy
from longeval.llm.structured import complete_structured
from longeval.llm.types import Message, ModelError
from tests.fakes.openai_server import FakeOpenAIServer, Fault, json_reply, running_fake_server

FAST_RETRY = RetryPolicy(max_attempts=4, base_delay_s=0.01, max_delay_s=0.05)
HELLO = [Message(role="user", content="Say hello.")]


_OPEN: list[Model] = []


def make(
    server: FakeOpenAIServer,
    *,
    limits: Limits | None = None,
    timeout_s: float = 10.0,
    retry: RetryPolicy = FAST_RETRY,
    cache: ResponseCache | None = None,
) -> Model:
    backend = OpenAICompatBackend("fake-model", base_url=server.url, api_key="sk-test", timeout_s=timeout_s)
    model = Model(
        backend, limiter=EndpointLimiter(server.url, limits or Limits()), retry=retry, cache=cache, rng=random.Random(0)
    )
    _OPEN.append(model)
    return model


@pytest.fixture(autouse=True)
async def close_clients() -> AsyncIterator[None]:
    yield
    while _OPEN:
        await _OPEN.pop().aclose()


async def test_normal_reply_carries_text_and_usage() -> None:
    async with running_fake_server() as server:
        completion = await make(server).complete(HELLO, purpose="test.hello", max_tokens=20, seed=3)
    assert completion.text == "Hello from the fake server."
    assert completion.finish_reason == "stop"
    assert completion.prompt_tokens == 2 and completion.completion_tokens == 5
    assert completion.model == "openai:fake-model" and not completion.cached
    sent = server.requests[0]
    assert sent["model"] == "fake-model" and sent["max_tokens"] == 20 and sent["seed"] == 3


async def test_429_with_retry_after_is_honoured() -> None:
    async with running_fake_server() as server:
        server.inject(Fault("429", retry_after=1.0))
        completion = await make(server).complete(HELLO, purpose="test.429")
    assert completion.text.startswith("Hello")
    assert len(server.arrivals) == 2
    assert server.arrivals[1] - server.arrivals[0] >= 0.95  # the server's own clock saw the wait


async def test_500_twice_then_success() -> None:
    async with running_fake_server() as server:
        server.inject(Fault("500"), Fault("500"))
        model = make(server)
        completion = await model.complete(HELLO, purpose="test.500")
    assert completion.text.startswith("Hello")
    assert len(server.requests) == 3
    assert model.usage.totals().calls == 1


async def test_timeout_is_retried() -> None:
    async with running_fake_server() as server:
        server.inject(Fault("text", delay_s=2.0, text="too late"))
        completion = await make(server, timeout_s=0.5).complete(HELLO, purpose="test.timeout")
    assert completion.text.startswith("Hello")
    assert len(server.requests) == 2


async def test_persistent_failure_raises_a_typed_error_naming_endpoint_and_purpose() -> None:
    async with running_fake_server() as server:
        server.inject(*[Fault("500")] * 4)
        model = make(server)
        with pytest.raises(ModelError) as info:
            await model.complete(HELLO, purpose="judge.redundancy")
    assert info.value.endpoint == server.url and info.value.purpose == "judge.redundancy"
    assert "judge.redundancy" in str(info.value) and info.value.attempts == 4
    assert model.usage.totals().failures == 1


async def test_client_error_is_not_retried() -> None:
    async with running_fake_server() as server:
        server.inject(Fault("400"))
        model = make(server)
        with pytest.raises(ModelError, match="HTTP 400"):
            await model.complete(HELLO, purpose="test.400")
    assert len(server.requests) == 1


class Verdict(BaseModel):
    score: int
    reason: str


async def test_structured_call_sends_schema_and_parses() -> None:
    async with running_fake_server(FakeOpenAIServer(reply=json_reply({"score": 7, "reason": "fine"}))) as server:
        result = await complete_structured(make(server), HELLO, schema=Verdict, purpose="judge.test")
    assert result.ok and result.value == Verdict(score=7, reason="fine")
    response_format = server.requests[0]["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["schema"]["properties"]["score"]["type"] == "integer"


async def test_malformed_structured_reply_gets_one_corrective_retry() -> None:
    async with running_fake_server(FakeOpenAIServer(reply=json_reply({"score": 4, "reason": "ok"}))) as server:
        server.inject(Fault("text", text="I think it deserves a seven."))
        result = await complete_structured(make(server), HELLO, schema=Verdict, purpose="judge.test")
    assert result.ok and result.value is not None and result.value.score == 4
    correction = server.requests[1]["messages"]
    assert correction[-2] == {"role": "assistant", "content": "I think it deserves a seven."}
    assert "JSON" in correction[-1]["content"]


async def test_twice_malformed_is_unscored_with_the_raw_reply_kept() -> None:
    async with running_fake_server() as server:
        server.inject(Fault("text", text="seven"), Fault("text", text='{"score": "high"}'))
        result = await complete_structured(make(server), HELLO, schema=Verdict, purpose="judge.test")
    assert not result.ok and result.value is None
    assert result.raw == '{"score": "high"}' and result.raw_replies == ["seven", '{"score": "high"}']
    assert result.error is not None and "unscored" in result.error


async def test_malformed_response_body_is_retried() -> None:
    async with running_fake_server() as server:
        server.inject(Fault("malformed_body"))
        completion = await make(server).complete(HELLO, purpose="test.body")
    assert completion.text.startswith("Hello") and len(server.requests) == 2


async def test_concurrency_cap_holds_with_50_calls_in_flight() -> None:
    async with running_fake_server(FakeOpenAIServer(delay_s=0.02)) as server:
        model = make(server, limits=Limits(max_concurrency=5))
        messages = [[Message(role="user", content=f"call {i}")] for i in range(50)]
        await asyncio.gather(*(model.complete(m, purpose="test.burst") for m in messages))
    assert len(server.requests) == 50
    assert server.max_in_flight == 5  # reached, never exceeded


async def test_requests_per_window_hold_over_a_burst_as_the_server_measures() -> None:
    window = 2.0
    # The limiter counts when a request leaves; the server counts when it arrives. A request's
    # transit time can shrink a window as the server sees it, so allow a quarter second of it.
    transit = 0.25
    async with running_fake_server() as server:
        model = make(server, limits=Limits(max_concurrency=20, requests_per_minute=5, window_s=window))
        messages = [[Message(role="user", content=f"call {i}")] for i in range(12)]
        await asyncio.gather(*(model.complete(m, purpose="test.rpm") for m in messages))
    arrivals = sorted(server.arrivals)
    for i, start in enumerate(arrivals):
        in_window = [t for t in arrivals[i:] if t < start + window - transit]
        assert len(in_window) <= 5
    assert arrivals[-1] - arrivals[0] >= 2 * window - transit  # 12 requests at 5 a window span two windows


async def test_cache_second_identical_call_reaches_no_server(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite")
    async with running_fake_server() as server:
        model = make(server, cache=cache)
        first = await model.complete(HELLO, purpose="test.cache", seed=1)
        second = await model.complete(HELLO, purpose="test.cache", seed=1)
        other_seed = await model.complete(HELLO, purpose="test.cache", seed=2)
    assert len(server.requests) == 2  # the first call and the other seed
    assert not first.cached and second.cached and not other_seed.cached
    assert second.text == first.text
    totals = model.usage.totals()
    assert totals.calls == 3 and totals.cache_hits == 1
    # The cache persists: a new process (a resumed run) sees it too.
    reopened = ResponseCache(tmp_path / "cache.sqlite")
    assert len(reopened) == 2
