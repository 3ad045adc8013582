"""Command-line options shared by several commands, declared once."""

from __future__ import annotations

from pathlib import Path

import typer

ModelOpt = typer.Option("local", "--model", help="local (embedded SmolLM2-135M) or openai:NAME.")
BaseUrlOpt = typer.Option(None, "--base-url", help="Base URL of an OpenAI-compatible server (vLLM, Ollama, ...).")
ApiKeyOpt = typer.Option(None, "--api-key", help="API key; defaults to $OPENAI_API_KEY.")
OutOpt = typer.Option(..., "--out", help="Output folder.")
MaxConcurrencyOpt = typer.Option(4, "--max-concurrency", min=1, help="Requests in flight per endpoint.")
RpmOpt = typer.Option(None, "--rpm", min=1, help="Requests per minute per endpoint.")
TpmOpt = typer.Option(None, "--tpm", min=1, help="Tokens per minute per endpoint.")


def existing_file(path: Path, flag: str) -> Path:
    if not path.is_file():
        raise typer.BadParameter(f"{path} does not exist", param_hint=flag)
    return path
