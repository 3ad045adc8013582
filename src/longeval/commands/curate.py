"""`longeval curate`: real documents to LongEval records with content plans; the review sheet round trip.

longeval curate docs/*.rst --domain arxiv --model local --limit 3 --out peps.jsonl
longeval curate --apply-review peps.review.csv --out peps.jsonl     # -> peps.reviewed.jsonl
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from longeval.commands.options import ApiKeyOpt, BaseUrlOpt, MaxConcurrencyOpt, ModelOpt
from longeval.data.curation import CurationResult, CurationSettings, summarize
from longeval.data.records import DOMAINS, Record

FORMAT_CHOICES = ("auto", "md", "rst", "latex", "wikitext")


class RichCurationProgress:
    """Documents read, and the sections of the record being planned."""

    def __init__(self, progress: Progress, documents: int) -> None:
        self.progress = progress
        self.documents = progress.add_task("documents", total=documents)
        self.sections = progress.add_task("plans", total=0, visible=False)

    def document(self, source: str) -> None:
        self.progress.update(self.documents, advance=1, description=f"reading {Path(source).name}")

    def planning(self, record_id: str, sections: int) -> None:
        self.progress.reset(self.sections, total=sections, visible=True, description=f"planning {record_id}")

    def section_planned(self) -> None:
        self.progress.advance(self.sections)


def sibling(out: Path, suffix: str) -> Path:
    """`data/peps.jsonl` + `.review.csv` -> `data/peps.review.csv`."""
    return out.with_name(out.stem + suffix)


def print_summary(console: Console, records: list[Record], title: str) -> None:
    table = Table(title=title)
    for column in ("domain", "records", "mean gold words", "mean plan words", "ratio (plan/gold)"):
        table.add_column(column, justify="left" if column == "domain" else "right")
    for row in summarize(records):
        table.add_row(
            row.domain, str(row.count), f"{row.mean_gold_words:,.0f}", f"{row.mean_plan_words:,.0f}", f"{row.ratio:.1%}"
        )
    console.print(table)


def print_curation(console: Console, result: CurationResult, out: Path) -> None:
    if result.dropped:
        dropped = Table(title="Dropped documents")
        dropped.add_column("document")
        dropped.add_column("why")
        for item in result.dropped:
            dropped.add_row(Path(item.source).name, "; ".join(item.reasons))
        console.print(dropped)
    records = Table(title=f"Records written to {out}")
    for column in ("id", "sections", "gold words", "plan words", "ratio", "references"):
        records.add_column(column, justify="left" if column == "id" else "right")
    for r in result.records:
        ratio = r.plan_words / r.gold_words if r.gold_words else 0.0
        records.add_row(
            r.id, str(len(r.sections)), str(r.gold_words), str(r.plan_words), f"{ratio:.1%}", str(len(r.references))
        )
    console.print(records)
    print_summary(console, result.records, "Summary (as the paper's Table 2)")
    console.print(f"plans requested: {result.plans_requested}, reused: {result.plans_reused}")


async def _curate(
    inputs: list[Path],
    settings: CurationSettings,
    *,
    fmt: str,
    limit: int | None,
    out: Path,
    model_spec: str,
    base_url: str | None,
    api_key: str | None,
    cache_path: Path | None,
    concurrency: int,
    console: Console,
) -> CurationResult:
    from longeval.data.curation_plans import curate_files
    from longeval.llm.hub import ModelHub
    from longeval.llm.limits import Limits

    async with ModelHub(limits=Limits(max_concurrency=concurrency), cache_path=cache_path) as hub:
        model = hub.get(model_spec, base_url=base_url, api_key=api_key)
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        with Progress(*columns, console=console, transient=True) as progress:
            result = await curate_files(
                inputs,
                settings=settings,
                model=model,
                out=out,
                fmt=fmt,
                limit=limit,
                concurrency=concurrency,
                progress=RichCurationProgress(progress, len(inputs)),
            )
        console.print(f"[dim]{hub.usage.summary_line()}[/dim]")
    return result


def _apply_review(sheet: Path, dataset: Path, reviewed_out: Path, console: Console) -> None:
    from longeval.data.curation_review import apply_review, read_review_sheet
    from longeval.data.loaders import load_records, write_records_jsonl

    if not sheet.is_file():
        raise typer.BadParameter(f"{sheet} does not exist", param_hint="--apply-review")
    if not dataset.is_file():
        raise typer.BadParameter(f"{dataset} does not exist: the curated dataset to review", param_hint="--out")
    outcome = apply_review(load_records(dataset), read_review_sheet(sheet))
    write_records_jsonl(reviewed_out, outcome.kept)
    table = Table(title="Human check of the plans (as the paper's Table 3)")
    for column in ("domain", "plans reviewed", "adequate", "records kept", "records rejected"):
        table.add_column(column, justify="left" if column == "domain" else "right")
    for row in outcome.by_domain:
        table.add_row(
            row.domain,
            str(row.plans_reviewed),
            f"{row.plans_adequate} ({row.adequate_share:.0%})",
            str(row.records_kept),
            str(row.records_rejected),
        )
    console.print(table)
    for record_id, headings in outcome.rejected.items():
        console.print(f"rejected {record_id}: inadequate plan for {', '.join(repr(h) for h in headings)}")
    if outcome.unreviewed:
        console.print(f"[yellow]{outcome.unreviewed} plan(s) not reviewed (blank 'adequate'): kept[/yellow]")
    console.print(f"{len(outcome.kept)} record(s) written to {reviewed_out}")


@contextmanager
def _reported_errors(console: Console) -> Iterator[None]:
    """Bad data, a bad review sheet or a failed model call: one clear message and exit status 1."""
    from longeval.data.curation_plans import PlanError
    from longeval.data.curation_review import ReviewSheetError
    from longeval.data.errors import BadRecordsError, DataSourceError
    from longeval.llm.types import ModelError

    try:
        yield
    except (BadRecordsError, DataSourceError, ReviewSheetError, PlanError, ModelError) as exc:
        console.print(f"[red]error:[/red] {escape(str(exc))}")
        raise typer.Exit(1) from exc


def register(app: typer.Typer) -> None:
    @app.command()
    def curate(
        inputs: list[Path] = typer.Argument(None, help="Documents: Markdown, reStructuredText, LaTeX or wikitext."),
        domain: str = typer.Option(None, "--domain", help=f"The records' domain: {', '.join(DOMAINS)}."),
        fmt: str = typer.Option(
            "auto", "--format", help="auto (by suffix, else by content), md, rst, latex, wikitext."
        ),
        out: Path = typer.Option(..., "--out", help="The dataset (JSON lines) to write, or to review."),
        model: str = ModelOpt,
        base_url: str | None = BaseUrlOpt,
        api_key: str | None = ApiKeyOpt,
        min_words: int = typer.Option(2000, "--min-words", min=0, help="Drop documents with fewer gold words."),
        limit: int | None = typer.Option(None, "--limit", min=1, help="Stop after this many kept records."),
        section_depth: int = typer.Option(
            1,
            "--section-depth",
            min=1,
            max=6,
            help="Heading levels kept as sections; deeper ones fold into their parent.",
        ),
        max_input_words: int = typer.Option(
            1500, "--max-input-words", min=50, help="Longer sections are shown to the model cut to this many words."
        ),
        max_concurrency: int = MaxConcurrencyOpt,
        seed: int = typer.Option(0, "--seed"),
        review_sheet: Path | None = typer.Option(
            None, "--review-sheet", help="Where to write the review sheet (default OUT.review.csv)."
        ),
        apply_review: Path | None = typer.Option(
            None, "--apply-review", help="Apply a filled review sheet to --out: drop rejected records."
        ),
        reviewed_out: Path | None = typer.Option(
            None, "--reviewed-out", help="Where --apply-review writes (default OUT.reviewed.jsonl)."
        ),
        cache: Path | None = typer.Option(None, "--cache", help="Response cache (default OUT.cache.sqlite)."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not use a response cache."),
    ) -> None:
        """Split documents into sections, write a content plan per section, filter, and summarise."""
        console = Console()
        if apply_review is not None:
            if inputs:
                raise typer.BadParameter("--apply-review reads --out; give no documents with it")
            with _reported_errors(console):
                _apply_review(apply_review, out, reviewed_out or sibling(out, ".reviewed.jsonl"), console)
            return
        if not inputs:
            raise typer.BadParameter("give the documents to curate (or --apply-review SHEET)")
        if domain not in DOMAINS:
            raise typer.BadParameter(f"give one of {', '.join(DOMAINS)} (got {domain!r})", param_hint="--domain")
        if fmt not in FORMAT_CHOICES:
            raise typer.BadParameter(f"use one of {', '.join(FORMAT_CHOICES)} (got {fmt!r})", param_hint="--format")
        missing = [str(p) for p in inputs if not p.is_file()]
        if missing:
            raise typer.BadParameter(f"no such file(s): {', '.join(missing)}", param_hint="INPUTS")
        settings = CurationSettings(
            domain=domain,
            min_words=min_words,
            section_depth=section_depth,  # type: ignore[arg-type]
            max_input_words=max_input_words,
            seed=seed,
        )
        cache_path = None if no_cache else (cache or sibling(out, ".cache.sqlite"))
        with _reported_errors(console):
            result = asyncio.run(
                _curate(
                    inputs,
                    settings,
                    fmt=fmt,
                    limit=limit,
                    out=out,
                    model_spec=model,
                    base_url=base_url,
                    api_key=api_key,
                    cache_path=cache_path,
                    concurrency=max_concurrency,
                    console=console,
                )
            )
        print_curation(console, result, out)
        sheet = review_sheet or sibling(out, ".review.csv")
        from longeval.data.curation_review import export_review_sheet

        rows = export_review_sheet(result.records, sheet)
        console.print(
            f"review sheet: {sheet} ({rows} plans; fill 'adequate' with yes/no, then "
            f"longeval curate --apply-review {sheet} --out {out})"
        )
