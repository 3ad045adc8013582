"""`longeval report --run DIR [--run DIR2 ...]`: the paper's tables and plots from run folders."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

err = Console(stderr=True, soft_wrap=True)  # messages stay whole lines, whatever the width


def register(app: typer.Typer) -> None:
    @app.command()
    def report(
        runs: list[Path] = typer.Option(..., "--run", help="A run folder (repeat to compare runs side by side)."),
        out: Path | None = typer.Option(
            None, "--out", help="Where report.md and the plots go (default: the first run's folder)."
        ),
        plots: bool = typer.Option(True, "--plots/--no-plots", help="Write the PNG plots."),
    ) -> None:
        """Write report.md (Table 4, Table 6, usage, plots) and print it."""
        from longeval.report import RunReadError, load_runs, write_report

        try:
            loaded = load_runs(runs)
        except RunReadError as exc:
            err.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)
            raise typer.Exit(1) from exc
        built, path = write_report(loaded, out or runs[0], plots=plots)
        typer.echo(built.markdown)
        err.print(f"wrote {path}" + "".join(f", {p}" for p in built.plots), highlight=False)
