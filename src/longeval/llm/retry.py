"""Retries with exponential backoff and full jitter, honouring the server's Retry-After."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

import structlog
from pydantic import BaseModel, Field

from longeval.llm.types import ModelError, TransientModelError

T = TypeVar("T")
log = structlog.get_logger(__name__)


class RetryPolicy(BaseModel):
    max_attempts: int = Field(default=5, ge=1)
    base_delay_s: float = Field(default=0.5, ge=0)
    max_delay_s: float = Field(default=30.0, ge=0)
    max_retry_after_s: float = Field(default=120.0, ge=0, description="longest Retry-After we agree to wait")

    def delay(self, attempt: int, retry_after_s: float | None, rng: random.Random) -> float:
        if retry_after_s is not None:
            return min(retry_after_s, self.max_retry_after_s)
        return rng.uniform(0, min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1)))


async def call_with_retries(
    fn: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    endpoint: str,
    purpose: str,
    rng: random.Random | None = None,
) -> T:
    rng = rng or random.Random()
    for attempt in range(1, policy.max_attempts + 1):
        try:
            return await fn()
        except TransientModelError as exc:
            if attempt == policy.max_attempts:
                raise ModelError(
                    f"giving up after a transient failure: {exc}",
                    endpoint=endpoint,
                    purpose=purpose,
                    attempts=attempt,
                ) from exc
            wait = policy.delay(attempt, exc.retry_after_s, rng)
            log.warning(
                "model.retry",
                endpoint=endpoint,
                purpose=purpose,
                attempt=attempt,
                wait_s=round(wait, 2),
                error=str(exc),
            )
            await asyncio.sleep(wait)
    raise AssertionError("unreachable: the loop returns or raises")
