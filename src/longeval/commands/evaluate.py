"""`longeval evaluate` and `longeval judge-check`: the LongEval metrics on a run's documents.

longeval evaluate --run DIR [--judge MODEL] [--base-url URL] [--metrics len,cont-fol,...] [--repeats K]
                  [--second-judge MODEL [--second-base-url URL]]
longeval evaluate --generations FILE.jsonl --dataset SOURCE [--run OUT]
longeval judge-check --run DIR [--replace 0.1,0.3,0.5,0.9] [--second-judge MODEL] [--repeats K]
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from longeval.commands.options import ApiKeyOpt, BaseUrlOpt, MaxConcurrencyOpt, RpmOpt, TpmOpt, existing_file

err = Console(stderr=True)

JudgeOpt = typer.Option("local", "--judge", help="The judge: local (embedded SmolLM2-135M) or openai:NAME.")
SecondJudgeOpt = typer.Option(None, "--second-judge", help="A second judge: report its agreement with --judge.")
SecondBaseUrlOpt = typer.Option(None, "--second-base-url", help="Base URL of the second judge (default: --base-url).")
MetricsOpt = typer.Option(None, "--metrics", help="Metrics to run, comma-separated (default: all eight).")
RepeatsOpt = typer.Option(1, "--repeats", min=1, help="Judge each item K times (seeds differ); report 95% CIs.")
SeedOpt = typer.Option(0, "--seed", help="Base seed of the judge calls (and of random replacement).")
TemperatureOpt = typer.Option(0.0, "--judge-temperature", min=0.0, help="Judge sampling temperature.")


def split_list(values: list[str] | None) -> list[str] | None:
    """`--metrics a,b --metrics c` -> [a, b, c]."""
    if not values:
        return None
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def parse_shares(text: str) -> list[float]:
    try:
        shares = [float(item) for item in text.split(",") if item.strip()]
    except ValueError as exc:
        raise typer.BadParameter(f"{text!r} is not a comma-separated list of numbers", param_hint="--replace") from exc
    bad = [s for s in shares if not 0 < s <= 1]
    if not shares or bad:
        raise typer.BadParameter(f"shares must lie in (0, 1]; got {text!r}", param_hint="--replace")
    return shares


@asynccontextmanager
async def judges_for(run_path: Path, options: dict[str, Any]) -> AsyncIterator[tuple[Any, Any | None]]:
    """The judge(s) on one hub: the run's response cache, shared limits, usage added to usage.json."""
    from longeval.llm.hub import ModelHub
    from longeval.llm.limits import Limits
    from longeval.llm.usage import UsageLedger
    from longeval.runs import RunDir

    run = RunDir(run_path)
    usage_file = run.usage_path
    usage = UsageLedger.from_dict(json.loads(usage_file.read_text(encoding="utf-8"))) if usage_file.exists() else None
    hub = ModelHub(limits=Limits(**options["limits"]), cache_path=run.cache_path, usage=usage)
    try:
        judge = hub.get(options["judge"], base_url=options["base_url"], api_key=options["api_key"])
        second = None
        if options["second_judge"]:
            second_url = options["second_base_url"] or options["base_url"]
            second = hub.get(options["second_judge"], base_url=second_url, api_key=options["api_key"])
        yield judge, second
    finally:
        run.write_usage(hub.usage.to_dict())
        await hub.aclose()


def _import(run_path: Path, generations: Path, dataset: str) -> int:
    from longeval.evaluation import import_generations
    from longeval.runs import RunDir

    added = import_generations(RunDir(run_path), generations, dataset)
    err.print(f"{added} new document(s) from {generations} in run folder {run_path}", highlight=False, soft_wrap=True)
    return 0


async def _evaluate(run_path: Path, options: dict[str, Any]) -> int:
    from longeval.commands.evaluate_tables import evaluation_progress, print_summary
    from longeval.evaluation import evaluate_run
    from longeval.runs import RunDir

    async with judges_for(run_path, options) as (judge, second):
        with evaluation_progress(err) as (on_plan, on_result):
            summary = await evaluate_run(
                RunDir(run_path),
                judge=judge,
                metrics=options["metrics"],
                repeats=options["repeats"],
                second_judge=second,
                on_result=on_result,
                on_plan=on_plan,
                seed=options["seed"],
                temperature=options["temperature"],
            )
    print_summary(Console(), summary)
    return len(summary.failures)


async def _judge_check(run_path: Path, shares: list[float], options: dict[str, Any]) -> int:
    from longeval.commands.evaluate_tables import evaluation_progress, print_summary, replacement_table
    from longeval.evaluation import evaluate_run, judge_check_replacement
    from longeval.runs import RunDir

    failures = 0
    out = Console()
    async with judges_for(run_path, options) as (judge, second):
        if second is not None or options["repeats"] > 1:
            with evaluation_progress(err) as (on_plan, on_result):
                summary = await evaluate_run(
                    RunDir(run_path),
                    judge=judge,
                    metrics=options["metrics"],
                    repeats=options["repeats"],
                    second_judge=second,
                    on_result=on_result,
                    on_plan=on_plan,
                    seed=options["seed"],
                    temperature=options["temperature"],
                )
            print_summary(out, summary)
            failures += len(summary.failures)
        if shares:
            with evaluation_progress(err) as (on_plan, on_result):
                levels = await judge_check_replacement(
                    RunDir(run_path),
                    judge=judge,
                    shares=shares,
                    metrics=options["metrics"],
                    seed=options["seed"],
                    on_result=on_result,
                    on_plan=on_plan,
                )
            out.print(replacement_table(judge.name, levels))
            for level in levels[1:]:
                listing = (
                    run_path / "judge_check" / f"replace_{level.share:g}_seed{options['seed']}" / "replacements.json"
                )
                out.print(
                    f"share {level.share:g}: {len(level.replacements)} sections replaced (listed in {listing}); "
                    f"judge calls {level.tally['calls']} (cached {level.tally['cached_calls']}), "
                    f"unscored {level.tally['unscored']}, failed {level.tally['failed']}",
                    highlight=False,
                    soft_wrap=True,
                )
            failures += sum(level.tally["failed"] for level in levels)
    return failures


def _options(**values: Any) -> dict[str, Any]:
    values["limits"] = {
        "max_concurrency": values.pop("max_concurrency"),
        "requests_per_minute": values.pop("rpm"),
        "tokens_per_minute": values.pop("tpm"),
    }
    return values


def _run_command(work: Callable[[], int]) -> None:
    """Run a command's work (it returns the number of failed results); known input and model errors end
    it with a clear message and status 1."""
    from longeval.data.errors import BadRecordsError
    from longeval.evaluation import EvaluationInputError
    from longeval.llm.types import ModelError
    from longeval.registry import UnknownNameError

    try:
        failures = work()
    except (BadRecordsError, EvaluationInputError, UnknownNameError, ModelError, ValueError) as exc:
        err.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
        raise typer.Exit(1) from exc
    if failures:
        err.print(f"[red]{failures} result(s) failed and were not written; rerun the command to retry them[/red]")
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    @app.command()
    def evaluate(
        run: Path | None = typer.Option(None, "--run", help="A run folder written by `longeval write` (or bench)."),
        generations: Path | None = typer.Option(
            None, "--generations", help="Documents produced elsewhere (GeneratedDocument JSON lines)."
        ),
        dataset: str | None = typer.Option(None, "--dataset", help="With --generations: the records they answer."),
        judge: str = JudgeOpt,
        base_url: str | None = BaseUrlOpt,
        api_key: str | None = ApiKeyOpt,
        second_judge: str | None = SecondJudgeOpt,
        second_base_url: str | None = SecondBaseUrlOpt,
        metrics: list[str] | None = MetricsOpt,
        repeats: int = RepeatsOpt,
        seed: int = SeedOpt,
        judge_temperature: float = TemperatureOpt,
        max_concurrency: int = MaxConcurrencyOpt,
        rpm: int | None = RpmOpt,
        tpm: int | None = TpmOpt,
    ) -> None:
        """Score a run's documents with the LongEval metrics; print value, n and unscored per metric."""
        if generations is not None:
            if dataset is None:
                raise typer.BadParameter("--generations needs --dataset (the records)", param_hint="--dataset")
            outputs, source = existing_file(generations, "--generations"), dataset
            run_path = run or outputs.with_name(f"{outputs.stem}-eval")
            _run_command(lambda: _import(run_path, outputs, source))
        elif run is None:
            raise typer.BadParameter("give --run DIR, or --generations FILE with --dataset", param_hint="--run")
        elif not (run / "generations.jsonl").is_file():
            raise typer.BadParameter(
                f"{run} holds no generations.jsonl (write one with `longeval write`)", param_hint="--run"
            )
        else:
            run_path = run
        options = _options(
            judge=judge, base_url=base_url, api_key=api_key, second_judge=second_judge,
            second_base_url=second_base_url, metrics=split_list(metrics), repeats=repeats, seed=seed,
            temperature=judge_temperature, max_concurrency=max_concurrency, rpm=rpm, tpm=tpm,
        )  # fmt: skip
        _run_command(lambda: asyncio.run(_evaluate(run_path, options)))

    @app.command("judge-check")
    def judge_check(
        run: Path = typer.Option(..., "--run", help="A run folder with generations.jsonl."),
        replace: str | None = typer.Option(
            None,
            "--replace",
            help="Shares of sections to replace with other documents' sections, e.g. 0.1,0.3,0.5,0.9.",
        ),
        judge: str = JudgeOpt,
        base_url: str | None = BaseUrlOpt,
        api_key: str | None = ApiKeyOpt,
        second_judge: str | None = SecondJudgeOpt,
        second_base_url: str | None = SecondBaseUrlOpt,
        metrics: list[str] | None = MetricsOpt,
        repeats: int = RepeatsOpt,
        seed: int = SeedOpt,
        judge_temperature: float = TemperatureOpt,
        max_concurrency: int = MaxConcurrencyOpt,
        rpm: int | None = RpmOpt,
        tpm: int | None = TpmOpt,
    ) -> None:
        """Check the judge: random replacement (scores should fall), a second judge's agreement, repeat CIs."""
        if not (run / "generations.jsonl").is_file():
            raise typer.BadParameter(f"{run} holds no generations.jsonl", param_hint="--run")
        shares = parse_shares(replace) if replace else []
        if not shares and second_judge is None and repeats == 1:
            raise typer.BadParameter(
                "give --replace SHARES, --second-judge MODEL or --repeats K", param_hint="--replace"
            )
        options = _options(
            judge=judge, base_url=base_url, api_key=api_key, second_judge=second_judge,
            second_base_url=second_base_url, metrics=split_list(metrics), repeats=repeats, seed=seed,
            temperature=judge_temperature, max_concurrency=max_concurrency, rpm=rpm, tpm=tpm,
        )  # fmt: skip
        _run_command(lambda: asyncio.run(_judge_check(run, shares, options)))
