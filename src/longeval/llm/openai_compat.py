"""The OpenAI-compatible backend: OpenAI, vLLM, Ollama, llama.cpp's server, any compatible endpoint."""

from __future__ import annotations

import json
import time
from typing import Any, Literal

import openai

from longeval.llm.types import Completion, Message, ModelError, TransientModelError

# How to ask for structured output: a JSON schema (OpenAI, vLLM, llama.cpp server, recent Ollama),
# plain JSON mode, or nothing (the prompt asks and pydantic validates either way).
JsonMode = Literal["schema", "object", "none"]


def _retry_after(exc: openai.APIStatusError) -> float | None:
    value = exc.response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date: fall back to our own backoff


class OpenAICompatBackend:
    def __init__(
        self,
        model: str,
        *,
        base_url: str | None,
        api_key: str | None,
        timeout_s: float = 120.0,
        json_mode: JsonMode = "schema",
    ) -> None:
        self.model = model
        self.name = f"openai:{model}"
        self.endpoint = base_url or "https://api.openai.com/v1"
        self.json_mode = json_mode
        # The client is created with the backend (at run time), never at import; our own retry loop
        # replaces the SDK's so that limits and Retry-After are handled in one place.
        self._client = openai.AsyncOpenAI(
            base_url=base_url, api_key=api_key or "not-needed", timeout=timeout_s, max_retries=0
        )

    async def aclose(self) -> None:
        await self._client.close()

    def _response_format(self, json_schema: dict[str, Any] | None) -> dict[str, Any] | openai.NotGiven:
        if json_schema is None or self.json_mode == "none":
            return openai.NOT_GIVEN
        if self.json_mode == "object":
            return {"type": "json_object"}
        name = str(json_schema.get("title", "reply"))[:64] or "reply"
        return {"type": "json_schema", "json_schema": {"name": name, "schema": json_schema, "strict": False}}

    async def complete(
        self,
        messages: list[Message],
        *,
        purpose: str,
        max_tokens: int,
        temperature: float,
        seed: int,
        json_schema: dict[str, Any] | None,
    ) -> Completion:
        started = time.perf_counter()
        try:
            reply = await self._client.chat.completions.create(
                model=self.model,
                messages=list(messages),  # type: ignore[arg-type]
                max_tokens=max_tokens,
                temperature=temperature,
                seed=seed,
                response_format=self._response_format(json_schema),  # type: ignore[arg-type]
            )
        except openai.APITimeoutError as exc:
            raise TransientModelError(f"timeout: {exc}") from exc
        except openai.APIConnectionError as exc:
            raise TransientModelError(f"connection error: {exc}") from exc
        except openai.APIStatusError as exc:
            if exc.status_code == 429 or exc.status_code >= 500:
                raise TransientModelError(
                    f"HTTP {exc.status_code}: {exc.message}", retry_after_s=_retry_after(exc)
                ) from exc
            raise ModelError(f"HTTP {exc.status_code}: {exc.message}", endpoint=self.endpoint, purpose=purpose) from exc
        except (openai.APIResponseValidationError, json.JSONDecodeError) as exc:
            raise TransientModelError(f"malformed response body: {exc}") from exc
        if not reply.choices:
            raise TransientModelError("the server replied with no choices")
        choice = reply.choices[0]
        usage = reply.usage
        return Completion(
            text=choice.message.content or "",
            finish_reason=choice.finish_reason or "unknown",
            prompt_tokens=usage.prompt_tokens if usage else 0,
            completion_tokens=usage.completion_tokens if usage else 0,
            latency_s=time.perf_counter() - started,
            model=self.name,
            purpose=purpose,
        )
