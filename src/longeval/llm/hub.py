"""Building models from names: `local`, `openai:NAME` (with a base URL). One hub per run.

Models on one endpoint share one limiter (writer and judge on one server share one cap); all
models of a hub share the run's response cache and usage ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from longeval.llm.cache import ResponseCache
from longeval.llm.client import Backend, Model
from longeval.llm.limits import EndpointLimiter, Limits
from longeval.llm.retry import RetryPolicy
from longeval.llm.usage import UsageLedger
from longeval.registry import Registry
from longeval.settings import EnvSettings


class BackendOptions(BaseModel):
    base_url: str | None = None
    api_key: str | None = None
    timeout_s: float = 120.0
    json_mode: str = "schema"


BACKENDS: Registry[Callable[[str, BackendOptions], Backend]] = Registry("model backend")


@BACKENDS.register("local")
def _local(model: str, options: BackendOptions) -> Backend:
    from longeval.llm.local import LocalBackend

    if model:
        raise ValueError(f"--model local takes no model name (got local:{model})")
    return LocalBackend()


@BACKENDS.register("openai")
def _openai(model: str, options: BackendOptions) -> Backend:
    from longeval.llm.openai_compat import OpenAICompatBackend

    if not model:
        raise ValueError("--model openai:NAME needs a model name, e.g. openai:gpt-4o-mini")
    return OpenAICompatBackend(
        model,
        base_url=options.base_url,
        api_key=options.api_key,
        timeout_s=options.timeout_s,
        json_mode=options.json_mode,
    )  # type: ignore[arg-type]


def parse_model_spec(spec: str) -> tuple[str, str]:
    kind, _, name = spec.partition(":")
    BACKENDS.get(kind)  # raises with the known names and a "did you mean"
    return kind, name


class ModelHub:
    def __init__(
        self,
        *,
        limits: Limits | None = None,
        retry: RetryPolicy | None = None,
        cache_path: Path | None = None,
        usage: UsageLedger | None = None,
        env: EnvSettings | None = None,
    ) -> None:
        self.limits = limits or Limits()
        self.retry = retry or RetryPolicy()
        self.cache = ResponseCache(cache_path) if cache_path is not None else None
        self.usage = usage if usage is not None else UsageLedger()
        self.env = env or EnvSettings.from_env()
        self._limiters: dict[str, EndpointLimiter] = {}
        self._models: dict[tuple[str, str | None], Model] = {}

    def limiter(self, endpoint: str) -> EndpointLimiter:
        if endpoint not in self._limiters:
            # llama.cpp in process runs one generation at a time whatever the cap says.
            limits = self.limits.model_copy(update={"max_concurrency": 1}) if endpoint == "local" else self.limits
            self._limiters[endpoint] = EndpointLimiter(endpoint, limits)
        return self._limiters[endpoint]

    def get(self, spec: str, *, base_url: str | None = None, api_key: str | None = None) -> Model:
        kind, name = parse_model_spec(spec)
        base_url = base_url or (self.env.openai_base_url if kind == "openai" else None)
        key = (spec, base_url)
        if key not in self._models:
            options = BackendOptions(base_url=base_url, api_key=api_key or self.env.openai_api_key)
            backend = BACKENDS.get(kind)(name, options)
            self._models[key] = Model(
                backend,
                limiter=self.limiter(backend.endpoint),
                retry=self.retry,
                cache=self.cache,
                usage=self.usage,
            )
        return self._models[key]

    async def aclose(self) -> None:
        """Close every client this hub opened, then the cache."""
        for model in self._models.values():
            await model.aclose()
        self._models.clear()
        if self.cache is not None:
            self.cache.close()

    async def __aenter__(self) -> ModelHub:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


def make_model(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    cache_path: Path | None = None,
    limits: Limits | None = None,
) -> Model:
    """One model on a hub of its own: for commands that use a single model."""
    return ModelHub(limits=limits, cache_path=cache_path).get(spec, base_url=base_url, api_key=api_key)
