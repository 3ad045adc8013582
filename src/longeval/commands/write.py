"""`longeval write`: one document with the plan-based writer (or the direct paradigm), resumable.

longeval write (--record FILE [--id ID] | --sample NAME | --title TEXT [--brief TEXT] [--sections N])
               [--planner given|outline|none] [--model local|openai:NAME] [--base-url URL] [--out DIR]
               [--length-control] [--trace]
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from longeval.agents.config import WriterConfig
from longeval.commands.options import ApiKeyOpt, BaseUrlOpt, MaxConcurrencyOpt, ModelOpt, RpmOpt, TpmOpt
from longeval.commands.write_inputs import build_config, check_same_config, record_hash, resolve_record, slug
from longeval.data.records import GeneratedDocument, Record

err = Console(stderr=True)
WRITING_NODES = {"first_section", "section", "related_work", "results_section"}


def format_event(event: dict[str, Any]) -> str:
    """One trace event as a line for `--trace`."""
    where = f"#{event['index']} {event['heading']}" if event.get("index") is not None else ""
    verdict = f" needs_results={event['needs_results']}" if "needs_results" in event else ""
    return (
        f"[{event['node']}] {where} calls={event['calls']} prompt={event['prompt']} "
        f"tokens={event['prompt_tokens']}+{event['completion_tokens']} words={event['words']}/{event['required_words']} "
        f"{event['seconds']:.1f}s cached={event['cached']}{verdict}"
    )


def section_table(document: GeneratedDocument) -> Table:
    table = Table(title=f"{document.title} ({document.paradigm}, planner {document.planner}, {document.writer})")
    table.add_column("heading")
    table.add_column("required words", justify="right")
    table.add_column("written words", justify="right")
    table.add_column("seconds", justify="right")
    for s in document.sections:
        table.add_row(s.heading, str(s.required_words), str(s.words), f"{s.seconds:.1f}")
    required = sum(s.required_words for s in document.sections)
    seconds = sum(s.seconds for s in document.sections)
    table.add_row("total", str(required), str(document.words), f"{seconds:.1f}", style="bold")
    return table


async def _write(
    record: Record,
    config: WriterConfig,
    out: Path,
    *,
    model: str,
    judge_model: str,
    base_url: str | None,
    api_key: str | None,
    limits: dict[str, Any],
    trace: bool,
) -> GeneratedDocument:
    from longeval.llm.hub import ModelHub
    from longeval.llm.limits import Limits
    from longeval.llm.usage import UsageLedger
    from longeval.prompts import prompt_hashes
    from longeval.runs import RunDir
    from longeval.writing import write_record

    run = RunDir(out)
    check_same_config(run.read_provenance(), config, record, out)
    usage = (
        UsageLedger.from_dict(json.loads(run.usage_path.read_text(encoding="utf-8")))
        if run.usage_path.exists()
        else None
    )
    hub = ModelHub(limits=Limits(**limits), cache_path=run.cache_path, usage=usage)
    try:
        writer = hub.get(model, base_url=base_url, api_key=api_key)
        judge = hub.get(judge_model, base_url=base_url, api_key=api_key)
        run.start(
            command="write",
            config={"writer": config.model_dump(mode="json"), "paradigm": config.paradigm, "record": record.id},
            models={"writer": model, "results_judge": judge_model},
            endpoints={"writer": writer.endpoint, "results_judge": judge.endpoint},
            dataset_hash=record_hash(record),
            seed=config.seed,
            prompt_hashes=prompt_hashes(),
        )
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=err
        ) as progress:
            bar = progress.add_task("planning", total=len(record.sections))

            def on_event(event: dict[str, Any]) -> None:
                if trace:
                    progress.console.print(format_event(event), markup=False, highlight=False)
                if event["node"] == "plan":
                    progress.update(bar, total=event["sections"], description="writing")
                elif event["node"] in WRITING_NODES:
                    # `completed`, not `advance`: a resumed run starts past the sections written before.
                    done = event["sections"] if event["paradigm"] == "direct" else event["index"] + 1
                    progress.update(bar, completed=done, description=f"wrote {event['heading'] or 'document'}")

            document = await write_record(
                record, writer=writer, results_judge=judge, config=config, run=run, on_event=on_event
            )
        (out / "document.md").write_text(document.to_markdown(), encoding="utf-8")
        (out / "document.json").write_text(
            json.dumps(document.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    finally:
        run.write_usage(hub.usage.to_dict())
        await hub.aclose()
    run.finish(doc_id=document.doc_id, words=document.words)
    return document


def register(app: typer.Typer) -> None:
    @app.command()
    def write(
        record_file: Path | None = typer.Option(
            None, "--record", help="Records: our JSONL, or the LongEval HF layout."
        ),
        record_id: str | None = typer.Option(
            None, "--id", help="The record of --record to write (default: the first)."
        ),
        sample: str | None = typer.Option(None, "--sample", help="A record shipped with the package."),
        title: str | None = typer.Option(
            None, "--title", help="Write from a title alone (plans with the outline planner)."
        ),
        brief: str | None = typer.Option(None, "--brief", help="With --title: a short description."),
        sections: int = typer.Option(5, "--sections", min=1, max=40, help="With --title: the number of sections."),
        words: int = typer.Option(2000, "--words", min=1, help="With --title: the total words to write."),
        domain: str | None = typer.Option(None, "--domain", help="arxiv, blog or wikipedia (title jobs: blog)."),
        planner: str | None = typer.Option(None, "--planner", help="given (default), outline or none (direct)."),
        model: str = ModelOpt,
        judge_model: str | None = typer.Option(None, "--judge-model", help="The results judge (default: --model)."),
        base_url: str | None = BaseUrlOpt,
        api_key: str | None = ApiKeyOpt,
        out: Path | None = typer.Option(None, "--out", help="Run folder (default: runs/write-RECORD)."),
        config_file: Path | None = typer.Option(
            None, "--config", help="TOML with a \\[writer] table (configs/ablations)."
        ),
        length_control: bool | None = typer.Option(
            None, "--length-control/--no-length-control", help="Continue short sections, tighten long ones."
        ),
        tolerance: float | None = typer.Option(None, "--tolerance", help="Length band: required x (1 +/- this)."),
        length_scale: float | None = typer.Option(None, "--length-scale", help="Scale every required length."),
        max_section_tokens: int | None = typer.Option(None, "--max-section-tokens", help="Cap per section call."),
        seed: int | None = typer.Option(None, "--seed"),
        temperature: float | None = typer.Option(None, "--temperature"),
        trace: bool = typer.Option(False, "--trace", help="Print every step's trace event as it happens."),
        max_concurrency: int = MaxConcurrencyOpt,
        rpm: int | None = RpmOpt,
        tpm: int | None = TpmOpt,
    ) -> None:
        """Write one document section by section (or directly) and print its per-section table."""
        from longeval.agents.planners import PlannerError
        from longeval.data.errors import BadRecordsError, DataSourceError
        from longeval.llm.types import ModelError
        from longeval.registry import UnknownNameError
        from longeval.settings import ConfigError

        try:
            record = resolve_record(
                record_file=record_file,
                record_id=record_id,
                sample=sample,
                title=title,
                brief=brief,
                sections=sections,
                words=words,
                domain=domain,
            )
            flags = {
                "planner": planner,
                "length_control": length_control,
                "tolerance": tolerance,
                "length_scale": length_scale,
                "max_section_tokens": max_section_tokens,
                "seed": seed,
                "temperature": temperature,
            }
            config = build_config(config_file, flags, title_job=title is not None)
            document = asyncio.run(
                _write(
                    record,
                    config,
                    out or Path("runs") / f"write-{slug(record.id)}",
                    model=model,
                    judge_model=judge_model or model,
                    base_url=base_url,
                    api_key=api_key,
                    limits={"max_concurrency": max_concurrency, "requests_per_minute": rpm, "tokens_per_minute": tpm},
                    trace=trace,
                )
            )
        except (BadRecordsError, DataSourceError, UnknownNameError, ConfigError, ModelError, PlannerError) as exc:
            err.print(f"[red]error:[/red] {exc}", highlight=False)
            raise typer.Exit(1) from exc
        Console().print(section_table(document))
