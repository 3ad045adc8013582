"""`run_bench`: the project's main job, called by `longeval bench` and by the HTTP service.

Writes every (writer x paradigm x record), judges every document, and keeps the run folder's
provenance, usage and results current, so that a killed or budget-stopped run continues where it
stopped when it is run again with the same folder: nothing is lost, nothing done twice (the writer's
checkpoints, the score keys and the response cache see to that).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from longeval.bench.budget import BudgetedModel, TokenBudget, spent_tokens
from longeval.bench.config import BenchConfig, BenchRunError
from longeval.bench.execute import BenchModels, evaluate_stage, write_stage
from longeval.bench.records import dataset_hash, load_bench_records
from longeval.bench.usage import combine_usage, session_usage
from longeval.data.records import Record
from longeval.llm.client import Backend, Model
from longeval.llm.hub import ModelHub
from longeval.llm.limits import Limits
from longeval.llm.types import ChatModel
from longeval.prompts import prompt_hashes
from longeval.registry import UnknownNameError
from longeval.runs import RunDir

EventHandler = Callable[[dict[str, Any]], None]


@dataclass
class BenchSummary:
    run: Path
    documents: int  # planned: writers x paradigms x records
    written: int = 0  # written in this call
    reused: int = 0  # already in the run folder
    judged: int = 0  # score rows written in this call
    skipped_judgements: int = 0  # already in scores.jsonl
    unscored: int = 0  # in the first judge's tables, over the whole run
    failed_documents: list[dict[str, str]] = field(default_factory=list)
    failed_judgements: list[dict[str, Any]] = field(default_factory=list)
    stopped: str | None = None  # "budget" when the token budget stopped the run
    usage: dict[str, Any] = field(default_factory=dict)  # this call's usage
    stage_s: dict[str, float] = field(default_factory=dict)
    wall_s: float = 0.0

    @property
    def complete(self) -> bool:
        return self.stopped is None and not self.failed_documents and not self.failed_judgements

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "run": str(self.run), "complete": self.complete}


def model_on_hub(hub: ModelHub, backend: Backend) -> Model:
    """A model around a given backend (tests, embedding) with the hub's limits, retries, cache and usage."""
    return Model(backend, limiter=hub.limiter(backend.endpoint), retry=hub.retry, cache=hub.cache, usage=hub.usage)


def model_from_spec(hub: ModelHub, spec: str, base_url: str | None) -> Model:
    """`hub.get`, with a malformed spec ("local:x", "openai:") reported as a bench input error."""
    try:
        return hub.get(spec, base_url=base_url)
    except UnknownNameError as exc:
        raise BenchRunError(f"model {spec!r}: {exc}") from exc
    except ValueError as exc:  # the backend factories' message names the spec and the fix
        raise BenchRunError(str(exc)) from exc


def build_models(
    config: BenchConfig, hub: ModelHub, budget: TokenBudget, backends: Mapping[str, Backend] | None = None
) -> BenchModels:
    made: dict[str, ChatModel] = {}

    def get(spec: str) -> ChatModel:
        if spec not in made:
            if backends and spec in backends:
                inner: ChatModel = model_on_hub(hub, backends[spec])
            else:
                inner = model_from_spec(hub, spec, config.base_url)
            made[spec] = BudgetedModel(inner, budget)
        return made[spec]

    return BenchModels(
        writers=[get(spec) for spec in config.writers],
        judge=get(config.judge),
        second_judge=get(config.second_judge) if config.second_judge else None,
    )


def make_hub(config: BenchConfig, run: RunDir, *, api_key: str | None = None) -> ModelHub:
    """The hub a bench uses when none is given: the config's limits per endpoint, the run's response cache."""
    from longeval.settings import EnvSettings

    env = EnvSettings.from_env()
    if api_key:
        env = env.model_copy(update={"openai_api_key": api_key})
    limits = Limits(
        max_concurrency=config.max_concurrency, requests_per_minute=config.rpm, tokens_per_minute=config.tpm
    )
    return ModelHub(limits=limits, cache_path=run.cache_path, env=env)


def check_continuation(previous: dict[str, Any], config: BenchConfig, records_hash: str, run: RunDir) -> None:
    """A rerun may add writers, paradigms or judges; it may not change what existing results mean."""
    if not previous:
        return
    if previous.get("command") != "bench":
        raise BenchRunError(f"{run.path} holds a `{previous.get('command')}` run, not a bench; use another --out")
    if previous.get("dataset_hash") != records_hash:
        raise BenchRunError(
            f"{run.path} holds a bench on other records (dataset hash {previous.get('dataset_hash')} != "
            f"{records_hash}: another dataset, domains, limit or length scale); use another --out"
        )
    before = previous.get("config", {}).get("fingerprint")
    if before is not None and before != config.fingerprint():
        changed = sorted(k for k in config.fingerprint() if before.get(k) != config.fingerprint()[k])
        raise BenchRunError(f"{run.path} was run with other {', '.join(changed)}; use another --out")


def _read_usage(run: RunDir) -> dict[str, Any]:
    return json.loads(run.usage_path.read_text(encoding="utf-8")) if run.usage_path.exists() else {}


async def run_bench(
    config: BenchConfig,
    *,
    run: RunDir,
    hub: ModelHub | None = None,
    on_event: EventHandler | None = None,
    backends: Mapping[str, Backend] | None = None,
    records: list[Record] | None = None,
) -> BenchSummary:
    """Run (or continue) the bench into `run`. `backends` replaces the backend of a model spec (tests);
    `records` replaces loading `config.dataset` (already selected and scaled)."""
    started = time.perf_counter()
    emit: EventHandler = on_event or (lambda event: None)
    records = records if records is not None else load_bench_records(config)
    records_hash = dataset_hash(records)
    previous = run.read_provenance()
    check_continuation(previous, config, records_hash, run)
    usage_before = _read_usage(run)
    own_hub = hub is None
    if hub is None:
        hub = make_hub(config, run)
    ledger_start = hub.usage.to_dict()
    budget = TokenBudget(config.budget_tokens, ledger=hub.usage, spent_before=spent_tokens(usage_before))
    summary = BenchSummary(run=run.path, documents=len(config.writers) * len(config.paradigms) * len(records))

    def save_usage() -> None:
        run.write_usage(combine_usage(usage_before, hub.usage.to_dict(), ledger_start))

    try:
        models = build_models(config, hub, budget, backends)
        run.start(
            command="bench",
            config={**config.model_dump(mode="json"), "fingerprint": config.fingerprint()},
            models={"judge": config.judge, **{f"writer_{i + 1}": w for i, w in enumerate(config.writers)}}
            | ({"second_judge": config.second_judge} if config.second_judge else {}),
            endpoints={
                m.name: m.endpoint for m in [*models.writers, models.judge, *filter(None, [models.second_judge])]
            },
            dataset_hash=records_hash,
            seed=config.seed,
            prompt_hashes=prompt_hashes(),
        )
        if "bench" in previous:
            run.update(bench=previous["bench"])  # earlier sessions' totals survive a kill of this one
        emit({"type": "plan", "records": len(records), "documents": summary.documents, "run": str(run.path)})
        written = await write_stage(
            config,
            records,
            models,
            run,
            emit=emit,
            budget_exhausted=lambda: budget.exhausted,
            after_document=save_usage,
        )
        summary.written, summary.reused, summary.failed_documents = written.written, written.reused, written.failed
        summary.stage_s["write"] = round(written.seconds, 1)
        judged = await evaluate_stage(config, models, run, emit=emit)
        summary.stage_s["evaluate"] = round(judged.seconds, 1)
        summary.failed_judgements = judged.failed
        if judged.summary is not None:
            tally = judged.summary.tally
            summary.judged = tally["scored"] + tally["unscored"] + tally["not_applicable"]
            summary.skipped_judgements = tally["skipped"]
            summary.unscored = judged.summary.unscored
        if budget.exhausted:
            summary.stopped = "budget"
    finally:
        save_usage()
        summary.usage = session_usage(hub.usage.to_dict(), ledger_start)
        if own_hub:
            await hub.aclose()
    summary.wall_s = round(time.perf_counter() - started, 1)
    _finish(run, previous, summary, budget)
    emit({"type": "done", **summary.to_dict()})
    return summary


def _finish(run: RunDir, previous: dict[str, Any], summary: BenchSummary, budget: TokenBudget) -> None:
    """Record the session in run.json; wall time and stage times add up over a run's sessions."""
    before: dict[str, Any] = previous.get("bench", {})
    stages = dict(before.get("stage_s", {}))
    for name, seconds in summary.stage_s.items():
        stages[name] = round(stages.get(name, 0.0) + seconds, 1)
    run.finish(
        bench={
            "wall_s": round(before.get("wall_s", 0.0) + summary.wall_s, 1),
            "stage_s": stages,
            "sessions": before.get("sessions", 0) + 1,
            "documents": summary.documents,
            "stopped": summary.stopped,
            "complete": summary.complete,
            "tokens_spent": budget.spent,
            "budget_tokens": budget.limit,
            "failed_documents": len(summary.failed_documents),
            "failed_judgements": len(summary.failed_judgements),
        }
    )
