"""What a job kind sees: its request, its run folder, models counted on its own usage ledger, an event emitter.

A job kind is two coroutines: `prepare` (at submission: check and store the inputs in the run
folder, so a bad input is a 400 and a resume needs nothing else) and `run` (in the background:
do the work, resumably, and return a JSON summary). Kinds register by name in `JOB_KINDS`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from longeval.llm.types import ChatModel, Completion, Message, ModelError
from longeval.llm.usage import UsageLedger
from longeval.registry import Registry
from longeval.runs import RunDir
from longeval.service.jobs import JobStore
from longeval.service.schemas import BenchJob, EvaluateJob, WriteJob

ModelFactory = Callable[[str, str | None], ChatModel]  # (spec, base_url) -> model
JobRequestModel = WriteJob | EvaluateJob | BenchJob


class JobInputError(ValueError):
    """A request whose inputs cannot be used; `field` names the part of the body at fault (a 400)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class UsageTrackingModel:
    """A `ChatModel` that counts its calls on one job's ledger (the hub's is service-wide) and redacts its errors.

    A provider may echo the API key in an error; the message is redacted before it travels on into
    checkpoints, events or logs.
    """

    def __init__(self, inner: ChatModel, ledger: UsageLedger, redact: Callable[[str], str]) -> None:
        self._inner = inner
        self._ledger = ledger
        self._redact = redact

    @property
    def name(self) -> str:
        return self._inner.name

    @property
    def endpoint(self) -> str:
        return self._inner.endpoint

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
        try:
            completion = await self._inner.complete(
                messages,
                purpose=purpose,
                max_tokens=max_tokens,
                temperature=temperature,
                seed=seed,
                json_schema=json_schema,
            )
        except ModelError as exc:
            self._ledger.record_failure(self.name, purpose)
            exc.args = tuple(self._redact(a) if isinstance(a, str) else a for a in exc.args)
            raise
        self._ledger.record(self.name, purpose, completion)
        return completion


@dataclass
class JobContext:
    job_id: str
    request: JobRequestModel
    run: RunDir
    data_dir: Path
    store: JobStore
    model_factory: ModelFactory
    emit: Callable[[str, dict[str, Any]], int]
    save_progress: Callable[[], Awaitable[None]]
    redact: Callable[[str], str]
    usage: UsageLedger = field(default_factory=UsageLedger)
    progress: dict[str, Any] = field(default_factory=dict)
    _models: dict[tuple[str, str | None], ChatModel] = field(default_factory=dict)

    def model(self, spec: str, base_url: str | None = None) -> ChatModel:
        """The model `spec`, counted on this job's usage; one instance per (spec, base URL) for the job."""
        key = (spec, base_url)
        if key not in self._models:
            self._models[key] = UsageTrackingModel(self.model_factory(spec, base_url), self.usage, self.redact)
        return self._models[key]


@dataclass(frozen=True)
class JobKind:
    prepare: Callable[[JobContext], Awaitable[None]]
    run: Callable[[JobContext], Awaitable[dict[str, Any]]]
    markdown: Callable[[RunDir], str | None]  # the result as Markdown, when the kind has one
    partial_result: Callable[[RunDir], dict[str, Any] | None] = lambda run: None  # before (or without) the end


JOB_KINDS: Registry[JobKind] = Registry("job kind")
