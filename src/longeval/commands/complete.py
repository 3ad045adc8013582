"""`longeval complete PROMPT`: one completion, printed with a usage line."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import typer
from pydantic import BaseModel, ConfigDict
from rich.console import Console

from longeval.commands.options import ApiKeyOpt, BaseUrlOpt, ModelOpt, existing_file
from longeval.llm.types import Message


class _AnyObject(BaseModel):
    """Validation for a user-supplied schema happens against the schema itself, below."""

    model_config = ConfigDict(extra="allow")


async def _complete(
    prompt: str,
    model_spec: str,
    base_url: str | None,
    api_key: str | None,
    schema: dict | None,
    max_tokens: int,
    temperature: float,
    seed: int,
) -> None:
    from longeval.llm.hub import ModelHub

    hub = ModelHub()
    model = hub.get(model_spec, base_url=base_url, api_key=api_key)
    completion = await model.complete(
        [Message(role="user", content=prompt)],
        purpose="cli.complete",
        max_tokens=max_tokens,
        temperature=temperature,
        seed=seed,
        json_schema=schema,
    )
    out, err = Console(soft_wrap=True), Console(stderr=True, soft_wrap=True)
    if schema is not None:
        from longeval.llm.structured import extract_json

        try:
            parsed = json.loads(extract_json(completion.text))
        except json.JSONDecodeError as exc:
            err.print(f"[red]the reply is not valid JSON ({exc.msg}); raw reply follows[/red]")
            out.print(completion.text, markup=False, highlight=False)
            raise typer.Exit(1) from exc
        out.print_json(data=parsed)
    else:
        out.print(completion.text, markup=False, highlight=False)
    tps = completion.completion_tokens / completion.latency_s if completion.latency_s else 0.0
    err.print(
        f"[dim]usage: model={completion.model} prompt_tokens={completion.prompt_tokens} "
        f"completion_tokens={completion.completion_tokens} latency={completion.latency_s:.2f}s "
        f"({tps:.1f} tok/s) finish={completion.finish_reason} cached={completion.cached}[/dim]"
    )


def register(app: typer.Typer) -> None:
    @app.command()
    def complete(
        prompt: str = typer.Argument(..., help="The prompt (one user message)."),
        model: str = ModelOpt,
        base_url: str | None = BaseUrlOpt,
        api_key: str | None = ApiKeyOpt,
        json_schema: Path | None = typer.Option(None, "--json-schema", help="A JSON-schema file: reply as JSON."),
        max_tokens: int = typer.Option(256, "--max-tokens", min=1),
        temperature: float = typer.Option(0.7, "--temperature", min=0.0),
        seed: int = typer.Option(0, "--seed"),
    ) -> None:
        """Complete one prompt and print the reply and a usage line."""
        schema = None
        if json_schema is not None:
            try:
                schema = json.loads(existing_file(json_schema, "--json-schema").read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise typer.BadParameter(f"{json_schema} is not JSON: {exc.msg}", param_hint="--json-schema") from exc
        asyncio.run(_complete(prompt, model, base_url, api_key, schema, max_tokens, temperature, seed))
