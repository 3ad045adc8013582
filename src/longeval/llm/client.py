"""The model every caller gets: a backend behind the cache, the endpoint's limits, retries and usage."""

from __future__ import annotations

import random
from typing import Any, Protocol

import structlog

from longeval.llm.cache import ResponseCache, cache_key
from longeval.llm.limits import EndpointLimiter, estimate_tokens
from longeval.llm.retry import RetryPolicy, call_with_retries
from longeval.llm.types import Completion, Message, ModelError
from longeval.llm.usage import UsageLedger

log = structlog.get_logger(__name__)


class Backend(Protocol):
    """A raw backend: one attempt, raising TransientModelError for faults worth retrying."""

    name: str
    endpoint: str

    async def complete(
        self,
        messages: list[Message],
        *,
        purpose: str,
        max_tokens: int,
        temperature: float,
        seed: int,
        json_schema: dict[str, Any] | None,
    ) -> Completion: ...

    async def aclose(self) -> None: ...


class Model:
    """Implements `ChatModel`. Cache first; otherwise wait for the endpoint's limits, call, retry."""

    def __init__(
        self,
        backend: Backend,
        *,
        limiter: EndpointLimiter,
        retry: RetryPolicy,
        cache: ResponseCache | None = None,
        usage: UsageLedger | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.backend = backend
        self.limiter = limiter
        self.retry = retry
        self.cache = cache
        self.usage = usage if usage is not None else UsageLedger()
        self._rng = rng or random.Random()

    @property
    def name(self) -> str:
        return self.backend.name

    @property
    def endpoint(self) -> str:
        return self.backend.endpoint

    async def aclose(self) -> None:
        await self.backend.aclose()

    async def complete(
        self,
        messages: list[Message],
        *,
        purpose: str,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int = 0,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion:
        key = cache_key(
            model=self.name,
            endpoint=self.endpoint,
            messages=messages,
            max_tokens=max_tokens,
            temperature=temperature,
            seed=seed,
            json_schema=json_schema,
        )
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            hit = Completion(**{**hit.to_dict(), "purpose": purpose, "cached": True})
            self.usage.record(self.name, purpose, hit)
            return hit

        async def attempt() -> Completion:
            prompt_chars = sum(len(m["content"]) for m in messages)
            async with self.limiter.slot(estimate_tokens(prompt_chars, max_tokens)):
                return await self.backend.complete(
                    messages,
                    purpose=purpose,
                    max_tokens=max_tokens,
                    temperature=temperature,
                    seed=seed,
                    json_schema=json_schema,
                )

        try:
            completion = await call_with_retries(
                attempt, policy=self.retry, endpoint=self.endpoint, purpose=purpose, rng=self._rng
            )
        except ModelError:
            self.usage.record_failure(self.name, purpose)
            raise
        if self.cache is not None:
            self.cache.put(key, completion)
        self.usage.record(self.name, purpose, completion)
        log.debug(
            "model.call",
            model=self.name,
            purpose=purpose,
            tokens=completion.completion_tokens,
            latency_s=round(completion.latency_s, 3),
        )
        return completion
