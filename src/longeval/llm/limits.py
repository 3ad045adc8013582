"""Per-endpoint limits, shared by every caller of that endpoint: concurrency, requests/min, tokens/min.

Waiting for a limit is not an error: callers simply wait their turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiolimiter import AsyncLimiter
from pydantic import BaseModel, Field


class Limits(BaseModel):
    max_concurrency: int = Field(default=4, ge=1, description="requests in flight at once")
    requests_per_minute: int | None = Field(default=None, ge=1)
    tokens_per_minute: int | None = Field(default=None, ge=1)


class EndpointLimiter:
    def __init__(self, endpoint: str, limits: Limits) -> None:
        self.endpoint = endpoint
        self.limits = limits
        self._slots = asyncio.Semaphore(limits.max_concurrency)
        self._requests = AsyncLimiter(limits.requests_per_minute, 60) if limits.requests_per_minute else None
        self._tokens = AsyncLimiter(limits.tokens_per_minute, 60) if limits.tokens_per_minute else None

    @asynccontextmanager
    async def slot(self, estimated_tokens: int) -> AsyncIterator[None]:
        if self._requests is not None:
            await self._requests.acquire()
        if self._tokens is not None:
            # A call larger than the whole minute's budget would wait forever; cap it at the budget.
            await self._tokens.acquire(min(estimated_tokens, self._tokens.max_rate))
        async with self._slots:
            yield


def estimate_tokens(prompt_chars: int, max_tokens: int) -> int:
    """A rough token count before the call (about 4 characters a token) for tokens/minute limits."""
    return prompt_chars // 4 + max_tokens
