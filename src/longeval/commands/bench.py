"""`longeval bench`: write every (writer x paradigm x record) and judge it, into one resumable run folder.

longeval bench [--dataset sample|FILE|hf:SiweiWu/LongEval] [--domains arxiv,blog,wikipedia]
               [--paradigms plan,direct] [--planner NAME] [--writer MODEL ...] [--judge MODEL]
               [--base-url URL] [--limit N] [--length-scale X] [--out DIR] [--max-concurrency N] [--rpm N]
               [--tpm N] [--budget-tokens N] [--dry-run] [--config FILE]
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from longeval.commands.options import ApiKeyOpt, BaseUrlOpt, RpmOpt, TpmOpt

err = Console(stderr=True, soft_wrap=True)  # messages stay whole lines, whatever the width


def split_list(value: str | None) -> list[str] | None:
    if value is None:
        return None
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or None


def plan_table(work: Any) -> Table:
    """The dry run's plan of work: calls and estimated tokens per purpose (longeval.bench.WorkPlan)."""
    noun = "document" if work.documents == 1 else "documents"
    table = Table(title=f"Plan of work: {work.documents} {noun} ({work.documents_done} already written)")
    table.add_column("purpose", no_wrap=True, min_width=max(len(p) for p in work.by_purpose) if work.by_purpose else 8)
    for column in ("calls", "prompt tokens (est.)", "completion tokens (est.)"):
        table.add_column(column, justify="right")
    for purpose, e in sorted(work.by_purpose.items()):
        table.add_row(purpose, f"{e.calls:,}", f"{e.prompt_tokens:,}", f"{e.completion_tokens:,}")
    t = work.totals
    table.add_row("total", f"{t.calls:,}", f"{t.prompt_tokens:,}", f"{t.completion_tokens:,}", style="bold")
    return table


async def _dry_run(config: Any, out: Path) -> None:
    from longeval.bench import plan_bench
    from longeval.runs import RunDir

    run = RunDir(out) if out.exists() else None  # a dry run creates nothing
    work = await plan_bench(config, run=run)
    console = Console()
    console.print(plan_table(work))
    for model, e in sorted(work.by_model.items()):
        console.print(f"  {model}: {e.calls:,} calls, ~{e.prompt_tokens + e.completion_tokens:,} tokens")
    if work.judgements_done:
        console.print(f"  {work.judgements_done:,} judgements already in {out / 'scores.jsonl'}")
    console.print("[dim]Assumptions: " + "; ".join(work.assumptions) + ".[/dim]")


async def _bench(config: Any, out: Path, api_key: str | None) -> Any:
    from longeval.bench import run_bench
    from longeval.bench.runner import make_hub
    from longeval.commands.bench_progress import BenchProgress
    from longeval.runs import RunDir

    run = RunDir(out)
    hub = make_hub(config, run, api_key=api_key)
    try:
        with BenchProgress(err) as progress:
            return await run_bench(config, run=run, hub=hub, on_event=progress.on_event)
    finally:
        await hub.aclose()


def _print_summary(summary: Any, out: Path) -> None:
    t = summary.usage.get("totals", {})
    err.print(
        f"{summary.written} document{'' if summary.written == 1 else 's'} written, {summary.reused} done before; {summary.judged} judgements made, "
        f"{summary.skipped_judgements} done before, {summary.unscored} unscored; {t.get('calls', 0):,} calls "
        f"({t.get('cache_hits', 0):,} cached), {t.get('prompt_tokens', 0) + t.get('completion_tokens', 0):,} tokens; "
        f"{summary.wall_s:.0f} s",
        highlight=False,
    )
    for error in sorted({f["error"] for f in summary.failed_documents}):
        err.print(f"[red]document failed:[/red] {error}", highlight=False)
    for error in sorted({str(f["error"]) for f in summary.failed_judgements}):
        err.print(f"[red]judgement failed:[/red] {error}", highlight=False)
    if summary.stopped == "budget":
        err.print("[yellow]stopped at the token budget[/yellow]; rerun with a larger --budget-tokens to continue")
    elif not summary.complete:
        err.print("[yellow]incomplete[/yellow]: rerun the same command to retry what failed")
    err.print(f"run folder: {out}; next: longeval report --run {out}", highlight=False)


def register(app: typer.Typer) -> None:
    @app.command()
    def bench(
        dataset: str | None = typer.Option(None, "--dataset", help="sample, a records file, or hf:SiweiWu/LongEval."),
        domains: str | None = typer.Option(None, "--domains", help="Comma list of arxiv, blog, wikipedia."),
        paradigms: str | None = typer.Option(None, "--paradigms", help="Comma list of plan, direct (default plan)."),
        planner: str | None = typer.Option(None, "--planner", help="Planner of the plan paradigm: given, outline."),
        writers: list[str] | None = typer.Option(None, "--writer", help="A writer model (repeat for several)."),
        judge: str | None = typer.Option(None, "--judge", help="The judge model (default local)."),
        second_judge: str | None = typer.Option(None, "--second-judge", help="A second judge, for agreement."),
        base_url: str | None = BaseUrlOpt,
        api_key: str | None = ApiKeyOpt,
        metrics: str | None = typer.Option(None, "--metrics", help="Comma list of metrics (default: all)."),
        repeats: int | None = typer.Option(None, "--repeats", min=1, help="Judge each item this many times."),
        limit: int | None = typer.Option(None, "--limit", min=1, help="At most N records per domain."),
        length_scale: float | None = typer.Option(None, "--length-scale", help="Scale required lengths (quick runs)."),
        out: Path = typer.Option(Path("runs/bench"), "--out", help="Run folder; the same folder resumes."),
        max_concurrency: int | None = typer.Option(None, "--max-concurrency", min=1, help="Per endpoint (default 4)."),
        rpm: int | None = RpmOpt,
        tpm: int | None = TpmOpt,
        budget_tokens: int | None = typer.Option(None, "--budget-tokens", min=1, help="Stop before passing this."),
        seed: int | None = typer.Option(None, "--seed"),
        on_bad_record: str | None = typer.Option(None, "--on-bad-record", help="fail (default) or skip."),
        dry_run: bool = typer.Option(False, "--dry-run", help="Print the plan of work and stop."),
        config_file: Path | None = typer.Option(None, "--config", help="A TOML bench config (configs/bench/)."),
    ) -> None:
        """Write and judge every (writer x paradigm x record): the paper's Table 4 from one command."""
        from longeval.bench import BenchRunError, load_bench_config
        from longeval.data.errors import BadRecordsError, DataSourceError
        from longeval.evaluation import EvaluationInputError
        from longeval.llm.types import ModelError
        from longeval.registry import UnknownNameError
        from longeval.settings import ConfigError

        flags = {
            "dataset": dataset,
            "domains": split_list(domains),
            "paradigms": split_list(paradigms),
            "planner": planner,
            "writers": writers or None,
            "judge": judge,
            "second_judge": second_judge,
            "base_url": base_url,
            "metrics": split_list(metrics),
            "repeats": repeats,
            "limit": limit,
            "length_scale": length_scale,
            "max_concurrency": max_concurrency,
            "rpm": rpm,
            "tpm": tpm,
            "budget_tokens": budget_tokens,
            "seed": seed,
            "on_bad_record": on_bad_record,
        }
        try:
            config = load_bench_config(config_file, flags)
            if dry_run:
                asyncio.run(_dry_run(config, out))
                return
            summary = asyncio.run(_bench(config, out, api_key))
        except (
            BadRecordsError,
            BenchRunError,
            ConfigError,
            DataSourceError,
            EvaluationInputError,
            ModelError,
            UnknownNameError,
        ) as exc:
            err.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(1) from exc
        _print_summary(summary, out)
        if summary.failed_documents or summary.failed_judgements:
            raise typer.Exit(1)
