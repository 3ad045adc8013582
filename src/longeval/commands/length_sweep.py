"""`longeval length-sweep`: how the written length follows the required length (the paper's Figure 2).

longeval length-sweep --lengths 100,200,400,1000,2000,4000,8000,16000,32000 [--model MODEL ...]
                      [--source plans|ruler] [--prompts N] [--prompts-file FILE] [--out DIR]
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from longeval.commands.options import ApiKeyOpt, BaseUrlOpt, RpmOpt, TpmOpt

err = Console(stderr=True, soft_wrap=True)  # messages stay whole lines, whatever the width


def parse_lengths(text: str) -> list[int]:
    try:
        return [int(part.replace("_", "")) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise typer.BadParameter(f"{text!r}: give whole numbers separated by commas", param_hint="--lengths") from exc


async def _sweep(config: Any, out: Path, *, base_url: str | None, api_key: str | None, limits: dict[str, Any]) -> Any:
    from longeval.bench.length_sweep import run_sweep
    from longeval.llm.hub import ModelHub
    from longeval.llm.limits import Limits
    from longeval.llm.usage import UsageLedger
    from longeval.prompts import load_prompt
    from longeval.runs import RunDir

    run = RunDir(out)
    usage = UsageLedger.from_dict(json.loads(run.usage_path.read_text())) if run.usage_path.exists() else None
    hub = ModelHub(limits=Limits(**limits), cache_path=run.cache_path, usage=usage)
    try:
        models = {spec: hub.get(spec, base_url=base_url, api_key=api_key) for spec in config.models}
        run.start(
            command="length-sweep",
            config=config.model_dump(mode="json"),
            models={f"model_{i + 1}": spec for i, spec in enumerate(config.models)},
            endpoints={m.name: m.endpoint for m in models.values()},
            dataset_hash=None,
            seed=config.seed,
            prompt_hashes={n: load_prompt(n).hash for n in ("length_sweep_plan", "length_sweep_instruction")},
        )
        columns = (TextColumn("sweep"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
        with Progress(*columns, console=err) as progress:
            bar = progress.add_task("sweep", total=None)

            def on_event(event: dict[str, Any]) -> None:
                if event["type"] == "stage":
                    progress.update(bar, total=event["jobs"])
                else:
                    progress.advance(bar)

            rows = await run_sweep(
                config, run=run, models=models, max_concurrency=limits["max_concurrency"], on_event=on_event
            )
    finally:
        run.write_usage(hub.usage.to_dict())
        await hub.aclose()
    run.finish(rows=len(rows))
    return rows


def register(app: typer.Typer) -> None:
    @app.command("length-sweep")
    def length_sweep(
        lengths: str = typer.Option("100,200,400,1000,2000", "--lengths", help="Required lengths in words."),
        models: list[str] | None = typer.Option(None, "--model", help="A model to sweep (repeat; default local)."),
        source: str = typer.Option("plans", "--source", help="plans (content plans) or ruler (LongBench-Write)."),
        dataset: str = typer.Option("sample", "--dataset", help="Records for --source plans."),
        prompts_file: Path | None = typer.Option(None, "--prompts-file", help="JSONL of instructions (ruler)."),
        prompts: int = typer.Option(2, "--prompts", min=1, help="Prompts per length."),
        counter: str = typer.Option("whitespace", "--counter", help="whitespace, nltk or longwriter."),
        base_url: str | None = BaseUrlOpt,
        api_key: str | None = ApiKeyOpt,
        out: Path = typer.Option(Path("runs/length-sweep"), "--out", help="Output folder; the same folder resumes."),
        max_concurrency: int = typer.Option(4, "--max-concurrency", min=1),
        rpm: int | None = RpmOpt,
        tpm: int | None = TpmOpt,
        seed: int = typer.Option(0, "--seed"),
    ) -> None:
        """Ask for texts of each required length and plot the Len score and S_l against it."""
        from pydantic import ValidationError

        from longeval.bench.length_sweep import SweepConfig, summarise_sweep, write_sweep_report
        from longeval.bench.sweep_prompts import SweepInputError
        from longeval.data.errors import BadRecordsError, DataSourceError
        from longeval.llm.types import ModelError
        from longeval.registry import UnknownNameError

        try:
            config = SweepConfig(
                lengths=parse_lengths(lengths),
                models=models or ["local"],
                source=source,  # type: ignore[arg-type]
                dataset=dataset,
                prompts_file=prompts_file,
                prompts=prompts,
                counter=counter,  # type: ignore[arg-type]
                seed=seed,
            )
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            raise typer.BadParameter(problems) from exc
        limits = {"max_concurrency": max_concurrency, "requests_per_minute": rpm, "tokens_per_minute": tpm}
        try:
            rows = asyncio.run(_sweep(config, out, base_url=base_url, api_key=api_key, limits=limits))
        except (BadRecordsError, DataSourceError, ModelError, SweepInputError, UnknownNameError) as exc:
            err.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(1) from exc
        markdown, plot = write_sweep_report(summarise_sweep(rows), out, config.counter)
        typer.echo(markdown.read_text(encoding="utf-8"))
        err.print(f"wrote {markdown}, {plot}", highlight=False)
