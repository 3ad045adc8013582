"""`longeval hellobench generate|judge|score|errors`: the HelloBench protocol end to end."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from longeval.commands.options import (
    ApiKeyOpt,
    BaseUrlOpt,
    MaxConcurrencyOpt,
    ModelOpt,
    OutOpt,
    RpmOpt,
    TpmOpt,
)
from longeval.evaluators.measures import COUNTERS, DEFAULT_REFUSAL_PREFIXES, Counter, NltkDataMissingError
from longeval.hellobench.tables import error_table, score_table
from longeval.hellobench.tasks import CATEGORIES, Category, HelloBenchDataError, LengthConstraint
from longeval.registry import UnknownNameError

app = typer.Typer(help="HelloBench: generate, judge with HelloEval checklists, score, analyse length and errors.")
err = Console(stderr=True, soft_wrap=True)  # messages stay whole lines, whatever the width
# Tables are wide; piped output (no terminal to measure) gets room for them instead of rich's 80 columns.
out = Console() if Console().is_terminal else Console(width=160)


@contextmanager
def _clear_errors() -> Iterator[None]:
    """Bad input ends the command with its message, not a traceback."""
    try:
        yield
    except (HelloBenchDataError, NltkDataMissingError, UnknownNameError, ValueError) as exc:
        err.print(f"[red]error:[/red] {exc}", markup=True, highlight=False)
        raise typer.Exit(2) from exc


@contextmanager
def _progress(label: str, total: int) -> Iterator[Callable[[str], None]]:
    with Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err, transient=True
    ) as progress:
        bar = progress.add_task(label, total=total)
        yield lambda _item: progress.advance(bar)


def _hub(run_path: Path, max_concurrency: int, rpm: int | None, tpm: int | None) -> Any:
    from longeval.llm.hub import ModelHub
    from longeval.llm.limits import Limits
    from longeval.llm.usage import UsageLedger

    usage_file = run_path / "usage.json"
    usage = UsageLedger.from_dict(json.loads(usage_file.read_text(encoding="utf-8"))) if usage_file.exists() else None
    limits = Limits(max_concurrency=max_concurrency, requests_per_minute=rpm, tokens_per_minute=tpm)
    return ModelHub(limits=limits, cache_path=run_path / "cache.sqlite", usage=usage)


@app.command()
def generate(
    data: Path = typer.Option(..., "--data", help="A folder in HelloBench's layout (data/, checklists/)."),
    category: list[str] = typer.Option([], "--category", help=f"Repeatable; default all: {', '.join(CATEGORIES)}."),
    length_constraint: str | None = typer.Option(None, "--length-constraint", help="2k, 4k, 8k or 16k words."),
    model: str = ModelOpt,
    base_url: str | None = BaseUrlOpt,
    api_key: str | None = ApiKeyOpt,
    out_dir: Path = OutOpt,
    temperature: float = typer.Option(0.8, "--temperature", min=0.0, help="The paper's default: 0.8."),
    max_tokens: int = typer.Option(16384, "--max-tokens", min=1, help="The paper's default: 16,384."),
    seed: int = typer.Option(0, "--seed"),
    limit: int | None = typer.Option(None, "--limit", min=1, help="Only the first N tasks."),
    max_concurrency: int = MaxConcurrencyOpt,
    rpm: int | None = RpmOpt,
    tpm: int | None = TpmOpt,
) -> None:
    """Generate responses to HelloBench tasks into a run folder; a rerun resumes."""
    from longeval.hellobench.generation import GENERATE_PROMPT, GenerationSettings, generate_responses
    from longeval.hellobench.tasks import load_tasks
    from longeval.prompts import load_prompt
    from longeval.runs import RunDir

    with _clear_errors():
        categories = [_category(c) for c in category] or None
        constraint = _constraint(length_constraint)
        tasks = load_tasks(data, categories, constraint)[:limit]
        settings = GenerationSettings(temperature=temperature, max_tokens=max_tokens, seed=seed)
        run = RunDir(out_dir)
        config = {
            "data": str(data),
            "categories": categories,
            "length_constraint": constraint,
            "limit": limit,
            **settings.model_dump(),
        }
        _refuse_other_run(run.read_provenance(), model, constraint)
        records = run.records()
        for task in tasks:
            records.append(task.model_dump())

    async def go() -> Any:
        async with _hub(run.path, max_concurrency, rpm, tpm) as hub:
            writer = hub.get(model, base_url=base_url, api_key=api_key)
            run.start(
                command="hellobench generate",
                config=config,
                models={"writer": model},
                endpoints={"writer": writer.endpoint},
                dataset_hash=_tasks_hash(tasks),
                seed=seed,
                prompt_hashes={GENERATE_PROMPT: load_prompt(GENERATE_PROMPT).hash},
            )
            with _progress("generating", len(tasks)) as advance:
                summary = await generate_responses(tasks, writer, run.generations(), settings, on_done=advance)
            run.write_usage(hub.usage.to_dict())
            return summary

    with _clear_errors():
        summary = asyncio.run(go())
    run.finish(generation={"generated": summary.generated, "skipped": summary.skipped, "failed": len(summary.failed)})
    out.print(
        f"{run.path}: generated {summary.generated}, already there {summary.skipped}, failed {len(summary.failed)}"
    )
    _exit_on_failures(summary.failed, "generate")


@app.command()
def judge(
    run_dir: Path = typer.Option(..., "--run", help="A run folder written by `hellobench generate`."),
    judge_spec: str = typer.Option(..., "--judge", help="The judge model: local or openai:NAME."),
    base_url: str | None = BaseUrlOpt,
    api_key: str | None = ApiKeyOpt,
    temperature: float = typer.Option(0.8, "--temperature", min=0.0, help="The paper's judge default: 0.8."),
    max_tokens: int = typer.Option(4096, "--max-tokens", min=1),
    seed: int = typer.Option(42, "--seed"),
    max_response_tokens: int = typer.Option(
        16000, "--max-response-tokens", min=1, help="Cut longer responses to this many nltk tokens."
    ),
    max_concurrency: int = MaxConcurrencyOpt,
    rpm: int | None = RpmOpt,
    tpm: int | None = TpmOpt,
) -> None:
    """Score every generated response on its checklist with a judge model; a rerun resumes."""
    from longeval.hellobench.judging import JudgeSettings, judge_responses
    from longeval.hellobench.results_files import read_run_judgements
    from longeval.hellobench.scoring import score_judgement, summarise
    from longeval.hellobench.tasks import Task, load_weights
    from longeval.runs import RunDir

    with _clear_errors():
        if not (run_dir / "generations.jsonl").is_file():
            raise HelloBenchDataError(f"--run {run_dir}: no generations.jsonl; run `longeval hellobench generate`")
        run = RunDir(run_dir)
        tasks = {row["id"]: Task.model_validate(row) for row in run.records()}
        generations = run.generations().rows()
        settings = JudgeSettings(
            temperature=temperature, max_tokens=max_tokens, seed=seed, max_response_tokens=max_response_tokens
        )

    async def go() -> Any:
        async with _hub(run.path, max_concurrency, rpm, tpm) as hub:
            judge_model = hub.get(judge_spec, base_url=base_url, api_key=api_key)
            with _progress("judging", len(generations)) as advance:
                summary = await judge_responses(
                    tasks, generations, judge_model, run.scores(), settings, on_done=advance
                )
            run.write_usage(hub.usage.to_dict())
            return judge_model.name, summary

    with _clear_errors():
        judge_name, summary = asyncio.run(go())
    run.finish(
        judging={
            "judge": judge_spec,
            **settings.model_dump(),
            "scored": summary.scored,
            "unscored": len(summary.unscored),
            "failed": len(summary.failed),
        }
    )
    out.print(
        f"{run.path}: scored {summary.scored}, unscored {len(summary.unscored)}, "
        f"already judged {summary.skipped}, failed {len(summary.failed)}"
    )
    for task_id, reason in summary.unscored[:10]:
        err.print(f"  unscored {task_id}: {reason}", markup=False)
    judgements, duplicates = read_run_judgements(run.path, judge_name)
    weights = load_weights()
    out.print(score_table(summarise([score_judgement(j, weights) for j in judgements], duplicates=duplicates)))
    _exit_on_failures(summary.failed, "judge")


@app.command()
def score(
    judgements: Path = typer.Option(..., "--judgements", help="A run folder, or HelloBench results file(s)."),
    judge_name: str | None = typer.Option(None, "--judge", help="Which judge, where a run has several."),
    data: Path | None = typer.Option(None, "--data", help="Take sub-categories from this task folder."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """HelloEval scores: per category (mean - 75) * 4, overall the mean of the five categories."""
    from longeval.hellobench.results_files import read_judgements
    from longeval.hellobench.scoring import score_judgement, summarise
    from longeval.hellobench.tasks import load_weights, task_index_from_folder

    with _clear_errors():
        index = task_index_from_folder(data) if data is not None else None
        rows, duplicates = read_judgements(judgements, judge=judge_name, index=index)
        weights = load_weights()
        report = summarise([score_judgement(j, weights) for j in rows], duplicates=duplicates)
    if as_json:
        out.print_json(report.model_dump_json())
        return
    out.print(score_table(report, title=f"HelloEval: {judgements}"))


@app.command()
def errors(
    results: Path = typer.Option(..., "--results", help="A run folder, results file, or folder(s) of them."),
    required_words: int | None = typer.Option(
        None, "--required-words", min=1, help="Required length; default: from the 2k/4k/8k/16k constraint."
    ),
    counter: str = typer.Option("nltk", "--counter", help=f"Counter for the requirement: {', '.join(COUNTERS)}."),
    refusal_prefix: list[str] = typer.Option([], "--refusal-prefix", help="Repeatable; replaces the defaults."),
    plot: Path | None = typer.Option(None, "--plot", help="Write a PNG of length distributions here."),
    as_json: bool = typer.Option(False, "--json", help="Print the table as JSON."),
) -> None:
    """Length (three counters), share reaching the requirement, length-perception error, repetition, refusal."""
    from longeval.hellobench.errors import analyse_errors, measure_outputs
    from longeval.hellobench.results_files import read_outputs

    with _clear_errors():
        chosen: Counter = _counter(counter)
        outputs = read_outputs(results)
        prefixes = refusal_prefix or list(DEFAULT_REFUSAL_PREFIXES)
        with _progress("counting", len(outputs)) as advance:
            measured = measure_outputs(outputs, refusal_prefixes=prefixes, on_done=advance)
        groups = analyse_errors(measured, counter=chosen, required_words=required_words)
    if as_json:
        out.print_json(json.dumps([g.model_dump() for g in groups]))
    else:
        out.print(error_table(groups, title=f"Length and errors: {results}"))
    if plot is not None:
        from longeval.hellobench.plots import plot_length_distributions

        written = plot_length_distributions(measured, plot, counter=chosen, required_words=required_words)
        err.print(f"plot: {written}")


def _category(value: str) -> Category:
    if value not in CATEGORIES:
        raise HelloBenchDataError(f"--category {value}: use one of {', '.join(CATEGORIES)}")
    return value  # type: ignore[return-value]


def _constraint(value: str | None) -> LengthConstraint | None:
    if value is not None and value not in ("2k", "4k", "8k", "16k"):
        raise HelloBenchDataError(f"--length-constraint {value}: use 2k, 4k, 8k or 16k")
    return value  # type: ignore[return-value]


def _counter(value: str) -> Counter:
    if value not in COUNTERS:
        raise HelloBenchDataError(f"--counter {value}: use one of {', '.join(COUNTERS)}")
    return value  # type: ignore[return-value]


def _refuse_other_run(previous: dict[str, Any], model: str, constraint: str | None) -> None:
    """A run folder holds one model's responses under one constraint; resuming must not mix them."""
    if not previous:
        return
    if previous.get("command") != "hellobench generate":
        raise HelloBenchDataError(f"--out holds a `{previous.get('command')}` run; use a new folder for HelloBench")
    before = (previous["models"].get("writer"), previous["config"].get("length_constraint"))
    if before != (model, constraint):
        raise HelloBenchDataError(
            f"--out holds a run of model {before[0]} with length constraint {before[1]}; "
            f"use a new --out folder for model {model} with length constraint {constraint}"
        )


def _tasks_hash(tasks: list[Any]) -> str:
    payload = json.dumps([t.model_dump() for t in tasks], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _exit_on_failures(failed: list[tuple[str, str]], step: str) -> None:
    if failed:
        for task_id, reason in failed[:10]:
            err.print(f"  failed {task_id}: {reason}", markup=False)
        err.print(f"[red]{len(failed)} task(s) failed; rerun the same `hellobench {step}` to retry them[/red]")
        raise typer.Exit(1)


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="hellobench")
