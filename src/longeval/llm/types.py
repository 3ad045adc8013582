"""The one model protocol every caller uses, and the values it exchanges."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict, runtime_checkable


class Message(TypedDict):
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass(frozen=True)
class Completion:
    """One model reply, with what it cost."""

    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float
    cached: bool = False
    model: str = ""
    purpose: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "finish_reason": self.finish_reason,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "latency_s": self.latency_s,
            "cached": self.cached,
            "model": self.model,
            "purpose": self.purpose,
        }


@dataclass(frozen=True)
class GenerationParams:
    """Sampling parameters of one call; part of the cache key."""

    max_tokens: int = 512
    temperature: float = 0.0
    seed: int = 0
    json_schema: dict[str, Any] | None = field(default=None, hash=False)


@runtime_checkable
class ChatModel(Protocol):
    """Anything that completes a chat.

    `purpose` names the caller (`write.section`, `judge.redundancy`, ...) for tracing, usage
    accounting and scripted tests.
    """

    @property
    def name(self) -> str: ...

    @property
    def endpoint(self) -> str: ...

    async def complete(
        self,
        messages: list[Message],
        *,
        purpose: str,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int = 0,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion: ...


class ModelError(RuntimeError):
    """A model call failed for good: names the endpoint and the purpose."""

    def __init__(self, message: str, *, endpoint: str, purpose: str, attempts: int = 1) -> None:
        super().__init__(f"{message} (endpoint={endpoint}, purpose={purpose}, attempts={attempts})")
        self.endpoint = endpoint
        self.purpose = purpose
        self.attempts = attempts


class TransientModelError(RuntimeError):
    """A failure worth retrying (timeout, connection, 429, 5xx); may carry the server's Retry-After."""

    def __init__(self, message: str, *, retry_after_s: float | None = None) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s
