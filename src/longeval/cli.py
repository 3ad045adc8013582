"""The `longeval` command. Subcommands live in `longeval.commands`, one module each."""

from __future__ import annotations

import importlib

import typer

from longeval import __version__

# Each module exposes `register(app: typer.Typer) -> None`. Adding a command is one line here.
COMMAND_MODULES = [
    "longeval.commands.bench",
    "longeval.commands.complete",
    "longeval.commands.curate",
    "longeval.commands.evaluate",
    "longeval.commands.hellobench",
    "longeval.commands.length_sweep",
    "longeval.commands.report",
    "longeval.commands.serve",
    "longeval.commands.write",
]

app = typer.Typer(
    name="longeval",
    help="Write long documents with a plan-based agent and measure how well models write them.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"longeval {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version."),
    log_json: bool = typer.Option(False, "--log-json", help="Log JSON lines instead of readable console output."),
    log_level: str = typer.Option("warning", "--log-level", help="debug, info, warning or error."),
) -> None:
    from longeval.logging_setup import configure_logging

    configure_logging(json=log_json, level=log_level)


for _module in COMMAND_MODULES:
    importlib.import_module(_module).register(app)


def main() -> None:
    app()
