"""The evaluation graph: one branch per (document, metric, judge, repeat), fanned out with `Send`.

START -> plan --Send(score, job) x N--> score -> gather -> END
              \\--(nothing to do)-----------------^

`plan` lists the jobs whose key is not yet in scores.jsonl (a rerun skips what is written). Every
`score` branch runs one metric on one document; judge calls go through the judge model, whose
endpoint limits (concurrency, requests/min, tokens/min) are shared by all branches. A branch
appends its row to scores.jsonl as soon as it completes, then a reducer gathers the outcomes.
A judge call that fails for good (ModelError) writes no row, so a rerun tries it again.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypedDict

import structlog
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Send

from longeval.data.records import GeneratedDocument, Record
from longeval.evaluators.base import NO_JUDGE, JudgeContext, Metric, MetricResult
from longeval.llm.types import ChatModel, ModelError
from longeval.runs import JsonlStore, score_key

log = structlog.get_logger(__name__)

Status = Literal["scored", "unscored", "not_applicable", "failed"]
SEED_STRIDE = 100  # repeat r judges with seed base + r*100 (a corrective retry adds 1)


class ScoreJob(TypedDict):
    doc_id: str
    metric: str
    judge: str  # the judge model's name, or "none" for a deterministic metric
    repeat: int


class Outcome(TypedDict):
    key: str
    metric: str
    judge: str
    status: Status
    calls: int
    cached_calls: int
    error: str | None


class Tally(TypedDict):
    jobs: int
    skipped: int
    scored: int
    unscored: int
    not_applicable: int
    failed: int
    calls: int
    cached_calls: int


class EvaluationState(TypedDict, total=False):
    jobs: list[ScoreJob]
    skipped: int
    outcomes: Annotated[list[Outcome], operator.add]  # the reducer: every branch adds its outcome
    tally: Tally


@dataclass
class EvaluationContext:
    """The run-scoped objects every branch uses (never serialised into the graph state)."""

    documents: dict[str, GeneratedDocument]
    records: dict[str, Record]
    metrics: list[Metric]
    judges: list[ChatModel]
    store: JsonlStore
    repeats: int = 1
    seed: int = 0
    temperature: float = 0.0
    on_result: Callable[[dict[str, Any]], None] | None = None
    on_plan: Callable[[int, int], None] | None = None  # (jobs to run, jobs skipped as already written)
    _judge_contexts: dict[tuple[str, int], JudgeContext] = field(default_factory=dict)

    def judge_context(self, judge_name: str, repeat: int) -> JudgeContext:
        key = (judge_name, repeat)
        if key not in self._judge_contexts:
            judge = next((j for j in self.judges if j.name == judge_name), None)
            if judge is None and judge_name != NO_JUDGE:
                raise KeyError(f"no judge named {judge_name!r} in this evaluation")
            self._judge_contexts[key] = JudgeContext(
                judge=judge if judge is not None else self.judges[0],
                seed=self.seed + SEED_STRIDE * repeat,
                temperature=self.temperature,
            )
        return self._judge_contexts[key]


def list_jobs(context: EvaluationContext) -> tuple[list[ScoreJob], int]:
    """Every applicable (document, metric, judge, repeat) not yet written, and how many were skipped."""
    jobs: list[ScoreJob] = []
    skipped = 0
    for doc_id, document in context.documents.items():
        record = context.records[document.record_id]
        for metric in context.metrics:
            if not metric.applies_to(record):
                continue
            judge_names = [j.name for j in context.judges] if metric.needs_judge else [NO_JUDGE]
            repeats = range(context.repeats) if metric.needs_judge else range(1)
            for judge_name in judge_names:
                for repeat in repeats:
                    job = ScoreJob(doc_id=doc_id, metric=metric.name, judge=judge_name, repeat=repeat)
                    if score_key(dict(job)) in context.store:
                        skipped += 1
                    else:
                        jobs.append(job)
    return jobs, skipped


def score_row(
    job: ScoreJob, document: GeneratedDocument, result: MetricResult, judged_by: JudgeContext | None
) -> dict[str, Any]:
    """The scores.jsonl line; `judged_by` is None for a deterministic metric."""
    metadata = dict(result.metadata)
    if judged_by is not None:
        metadata.update(
            judge_model=judged_by.judge.name,
            judge_endpoint=judged_by.judge.endpoint,
            judge_seed=judged_by.seed,
            judge_temperature=judged_by.temperature,
        )
    if not result.applicable:
        metadata["not_applicable"] = True
    return {
        "doc_id": document.doc_id,
        "record_id": document.record_id,
        "domain": document.domain,
        "writer": document.writer,
        "paradigm": document.paradigm,
        "planner": document.planner,
        "metric": job["metric"],
        "judge": job["judge"],
        "repeat": job["repeat"],
        "value": result.value,
        "raw": result.raw,
        "explanation": result.explanation,
        "metadata": metadata,
        "unscored": result.unscored,
    }


def _status(result: MetricResult) -> Status:
    if not result.applicable:
        return "not_applicable"
    return "unscored" if result.unscored else "scored"


async def plan(state: EvaluationState, runtime: Runtime[EvaluationContext]) -> dict[str, Any]:
    jobs, skipped = list_jobs(runtime.context)
    log.info("evaluation.plan", jobs=len(jobs), skipped=skipped)
    if runtime.context.on_plan is not None:
        runtime.context.on_plan(len(jobs), skipped)
    return {"jobs": jobs, "skipped": skipped}


def fan_out(state: EvaluationState) -> list[Send] | str:
    jobs = state.get("jobs", [])
    return [Send("score", job) for job in jobs] if jobs else "gather"


async def score(job: ScoreJob, runtime: Runtime[EvaluationContext]) -> dict[str, Any]:
    context = runtime.context
    key = score_key(dict(job))
    document = context.documents[job["doc_id"]]
    record = context.records[document.record_id]
    metric = next(m for m in context.metrics if m.name == job["metric"])
    judge_context = context.judge_context(job["judge"], job["repeat"])
    try:
        result = await metric.evaluate(document, record, judge_context)
    except ModelError as exc:
        log.warning("evaluation.failed", key=key, error=str(exc))
        if context.on_result is not None:
            context.on_result({**job, "failed": True, "error": str(exc)})
        return {"outcomes": [Outcome(key=key, metric=job["metric"], judge=job["judge"], status="failed",
                                     calls=0, cached_calls=0, error=str(exc))]}  # fmt: skip
    row = score_row(job, document, result, judge_context if metric.needs_judge else None)
    context.store.append(row)  # as soon as it completes: a killed run keeps every finished result
    if context.on_result is not None:
        context.on_result(row)
    calls = len(result.completions)
    cached = sum(1 for c in result.completions if c.cached)
    outcome = Outcome(
        key=key, metric=job["metric"], judge=job["judge"], status=_status(result), calls=calls, cached_calls=cached,
        error=result.metadata.get("unscored_reason") if result.unscored else None,
    )  # fmt: skip
    return {"outcomes": [outcome]}


def gather(state: EvaluationState) -> dict[str, Any]:
    outcomes = state.get("outcomes", [])
    tally = Tally(
        jobs=len(state.get("jobs", [])),
        skipped=state.get("skipped", 0),
        scored=0,
        unscored=0,
        not_applicable=0,
        failed=0,
        calls=sum(o["calls"] for o in outcomes),
        cached_calls=sum(o["cached_calls"] for o in outcomes),
    )
    for outcome in outcomes:
        tally[outcome["status"]] += 1  # type: ignore[literal-required]
    return {"tally": tally}


def build_evaluation_graph() -> Any:
    builder = StateGraph(EvaluationState, context_schema=EvaluationContext)
    builder.add_node("plan", plan)
    builder.add_node("score", score)
    builder.add_node("gather", gather)
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", fan_out, ["score", "gather"])
    builder.add_edge("score", "gather")
    builder.add_edge("gather", END)
    return builder.compile()


async def run_evaluation_graph(context: EvaluationContext) -> tuple[Tally, list[Outcome]]:
    graph = build_evaluation_graph()
    final = await graph.ainvoke({"outcomes": []}, context=context)
    return final["tally"], final.get("outcomes", [])
