"""Evaluate a run folder: the reusable entry point of `longeval evaluate`, `judge-check`, bench and the service.

`evaluate_run` reads the run's records and generations, runs the evaluation graph (which appends
each result to scores.jsonl as it completes and skips results already written) and summarises
every row of scores.jsonl for the run's documents: per judge and system, a per-metric table.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from longeval.data.records import GeneratedDocument, Record
from longeval.evaluators.aggregate import MetricSummary, SystemSummary, pooled_table, summarise
from longeval.evaluators.catalog import select_metrics
from longeval.evaluators.validity import (
    Agreement,
    RepeatInterval,
    Replacement,
    judge_agreement,
    repeat_intervals,
    replace_sections,
)
from longeval.graph.evaluation_graph import EvaluationContext, Outcome, Tally, run_evaluation_graph
from longeval.llm.types import ChatModel
from longeval.runs import RunDir, read_jsonl


class EvaluationInputError(ValueError):
    """A run folder or input file that cannot be evaluated; the message names the file, line and field."""


@dataclass
class EvaluationSummary:
    run: Path
    judges: list[str]
    metrics: list[str]
    tables: dict[str, list[SystemSummary]]  # judge name -> one table per system
    tally: Tally
    failures: list[Outcome] = field(default_factory=list)
    intervals: dict[str, list[RepeatInterval]] = field(default_factory=dict)  # with repeats > 1
    agreement: list[Agreement] = field(default_factory=list)  # with a second judge
    rows: list[dict[str, Any]] = field(default_factory=list)  # the score rows of this run's documents

    @property
    def unscored(self) -> int:
        """Unscored results in the first judge's tables (every row in scores.jsonl, this call's or earlier)."""
        return sum(table.unscored for table in self.tables.get(self.judges[0], []))


def _validation_problem(exc: ValidationError) -> str:
    first = exc.errors()[0]
    return f"field {'.'.join(map(str, first['loc'])) or '(row)'}: {first['msg']}"


def load_run_inputs(run: RunDir) -> tuple[dict[str, Record], dict[str, GeneratedDocument]]:
    """The run's records and generated documents, validated; every document must have its record."""
    records: dict[str, Record] = {}
    for line_no, row in enumerate(read_jsonl(run.records_path), start=1):
        try:
            record = Record.model_validate(row)
        except ValidationError as exc:
            raise EvaluationInputError(
                f"{run.records_path}:{line_no} (record {row.get('id', '?')!r}): {_validation_problem(exc)}"
            ) from exc
        records[record.id] = record
    documents: dict[str, GeneratedDocument] = {}
    for line_no, row in enumerate(read_jsonl(run.generations_path), start=1):
        try:
            document = GeneratedDocument.model_validate(row)
        except ValidationError as exc:
            raise EvaluationInputError(
                f"{run.generations_path}:{line_no} (document {row.get('doc_id', '?')!r}): {_validation_problem(exc)}"
            ) from exc
        if document.record_id not in records:
            raise EvaluationInputError(
                f"{run.generations_path}:{line_no}: document {document.doc_id!r} names record "
                f"{document.record_id!r}, which {run.records_path} does not hold"
            )
        documents[document.doc_id] = document
    if not documents:
        raise EvaluationInputError(f"{run.generations_path} holds no generated documents to evaluate")
    return records, documents


async def evaluate_run(
    run: RunDir,
    *,
    judge: ChatModel,
    metrics: list[str] | None = None,
    repeats: int = 1,
    second_judge: ChatModel | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    seed: int = 0,
    temperature: float = 0.0,
    on_plan: Callable[[int, int], None] | None = None,
) -> EvaluationSummary:
    """Judge every applicable (document, metric) of the run, `repeats` times per judge.

    `on_plan(jobs, skipped)` is called once the work is known; `on_result(row)` with each score row
    as it is written, or with `{doc_id, metric, judge, repeat, failed: True, error}` for a judge call
    that failed for good (nothing is written for it, so a rerun retries it)."""
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    if second_judge is not None and second_judge.name == judge.name:
        raise ValueError(f"the second judge must differ from the first (both are {judge.name!r})")
    chosen = select_metrics(metrics)
    records, documents = load_run_inputs(run)
    store = run.scores()
    judges = [judge] if second_judge is None else [judge, second_judge]
    context = EvaluationContext(
        documents=documents,
        records=records,
        metrics=chosen,
        judges=judges,
        store=store,
        repeats=repeats,
        seed=seed,
        temperature=temperature,
        on_result=on_result,
        on_plan=on_plan,
    )
    tally, outcomes = await run_evaluation_graph(context)
    names = [m.name for m in chosen]
    rows = [r for r in store.rows() if r["doc_id"] in documents and r["metric"] in names]
    summary = EvaluationSummary(
        run=run.path,
        judges=[j.name for j in judges],
        metrics=names,
        tables={j.name: summarise(rows, judge=j.name) for j in judges},
        tally=tally,
        failures=[o for o in outcomes if o["status"] == "failed"],
        rows=rows,
    )
    if repeats > 1:
        summary.intervals = {j.name: repeat_intervals(rows, j.name) for j in judges}
    if second_judge is not None:
        summary.agreement = judge_agreement(rows, judge.name, second_judge.name)
    return summary


def import_generations(run: RunDir, generations_file: Path, dataset: str) -> int:
    """Put outputs written elsewhere, and the records they answer, into a run folder; returns the documents added."""
    from longeval.data.loaders import load_records

    records = run.records()
    for record in load_records(dataset):
        records.append(record.model_dump(mode="json"))
    documents: list[GeneratedDocument] = []
    for line_no, row in enumerate(read_jsonl(generations_file), start=1):
        try:
            document = GeneratedDocument.model_validate(row)
        except ValidationError as exc:
            raise EvaluationInputError(
                f"{generations_file}:{line_no} (document {row.get('doc_id', '?')!r}): {_validation_problem(exc)}"
            ) from exc
        if document.record_id not in records:
            raise EvaluationInputError(
                f"{generations_file}:{line_no}: document {document.doc_id!r} names record {document.record_id!r}, "
                f"which the dataset {dataset} does not hold"
            )
        documents.append(document)
    generations = run.generations()
    return sum(generations.append(document.model_dump(mode="json")) for document in documents)


@dataclass
class ReplacementLevel:
    share: float
    table: list[MetricSummary]
    replacements: list[Replacement]
    tally: Tally


async def judge_check_replacement(
    run: RunDir,
    *,
    judge: ChatModel,
    shares: list[float],
    metrics: list[str] | None = None,
    seed: int = 0,
    on_result: Callable[[dict[str, Any]], None] | None = None,
    on_plan: Callable[[int, int], None] | None = None,
) -> list[ReplacementLevel]:
    """Share 0 (the run as written) and each share replaced; each level in `judge_check/replace_<share>/`."""
    names = [m.name for m in select_metrics(metrics)]
    baseline = await evaluate_run(run, judge=judge, metrics=names, seed=seed, on_result=on_result, on_plan=on_plan)
    levels = [ReplacementLevel(0.0, pooled_table(baseline.rows, judge=judge.name, metrics=names), [], baseline.tally)]
    records, documents = load_run_inputs(run)
    for share in shares:
        replaced, report = replace_sections(list(documents.values()), share, seed=seed)
        level_run = RunDir(run.path / "judge_check" / f"replace_{share:g}_seed{seed}")
        level_records = level_run.records()
        for record in records.values():
            level_records.append(record.model_dump(mode="json"))
        level_generations = level_run.generations()
        for document in replaced:
            level_generations.append(document.model_dump(mode="json"))
        level_run.path.joinpath("replacements.json").write_text(
            json.dumps([r.to_dict() for r in report], indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        result = await evaluate_run(
            level_run, judge=judge, metrics=names, seed=seed, on_result=on_result, on_plan=on_plan
        )
        levels.append(ReplacementLevel(share, pooled_table(result.rows, judge=judge.name, metrics=names), report,
                                       result.tally))  # fmt: skip
    return levels
