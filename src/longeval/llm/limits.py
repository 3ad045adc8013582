"""Per-endpoint limits, shared by every caller of that endpoint: concurrency, requests/min, tokens/min.

Rates are enforced over a sliding window, the way providers measure them: in any window of
`window_s` seconds no more than the stated requests (or estimated tokens) start. Waiting for a
limit is not an error: callers simply wait their turn, first come first served.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from pydantic import BaseModel, Field


class Limits(BaseModel):
    max_concurrency: int = Field(default=4, ge=1, description="requests in flight at once")
    requests_per_minute: int | None = Field(default=None, ge=1)
    tokens_per_minute: int | None = Field(default=None, ge=1)
    window_s: float = Field(default=60.0, gt=0, description="the window rates are measured over (60 = per minute)")


class SlidingWindowLimiter:
    def __init__(self, capacity: float, window_s: float) -> None:
        self.capacity = capacity
        self.window_s = window_s
        self._events: deque[tuple[float, float]] = deque()
        self._used = 0.0
        self._lock = asyncio.Lock()

    def _expire(self, now: float) -> None:
        while self._events and self._events[0][0] <= now - self.window_s:
            self._used -= self._events.popleft()[1]

    async def acquire(self, amount: float = 1.0) -> None:
        # A call larger than the whole window's budget would wait forever; it takes the whole window.
        amount = min(amount, self.capacity)
        async with self._lock:  # FIFO: whoever waits first goes first
            while True:
                now = time.monotonic()
                self._expire(now)
                if self._used + amount <= self.capacity:
                    self._events.append((now, amount))
                    self._used += amount
                    return
                await asyncio.sleep(self._events[0][0] + self.window_s - now)


class EndpointLimiter:
    def __init__(self, endpoint: str, limits: Limits) -> None:
        self.endpoint = endpoint
        self.limits = limits
        self._slots = asyncio.Semaphore(limits.max_concurrency)
        rpm, tpm = limits.requests_per_minute, limits.tokens_per_minute
        self._requests = SlidingWindowLimiter(rpm, limits.window_s) if rpm else None
        self._tokens = SlidingWindowLimiter(tpm, limits.window_s) if tpm else None

    @asynccontextmanager
    async def slot(self, estimated_tokens: int) -> AsyncIterator[None]:
        async with self._slots:
            if self._requests is not None:
                await self._requests.acquire()
            if self._tokens is not None:
                await self._tokens.acquire(estimated_tokens)
            yield


def estimate_tokens(prompt_chars: int, max_tokens: int) -> int:
    """A rough token count before the call (about 4 characters a token) for tokens/minute limits."""
    return prompt_chars // 4 + max_tokens
