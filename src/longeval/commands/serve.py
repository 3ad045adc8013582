"""`longeval serve`: the HTTP service (write, evaluate and bench jobs, with server-sent events).

longeval serve [--host 127.0.0.1] [--port 8000] [--token TOKEN] [--data-dir DIR] [--allow-base-url URL ...]
"""

from __future__ import annotations

from pathlib import Path

import typer
from pydantic import SecretStr, ValidationError
from rich.console import Console

from longeval.commands.options import MaxConcurrencyOpt, RpmOpt, TpmOpt

err = Console(stderr=True)


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on; beyond loopback needs a token."),
        port: int = typer.Option(8000, "--port", min=0, max=65535),
        token: str | None = typer.Option(
            None, "--token", help="Bearer token for every route but /healthz (default: $LONGEVAL_TOKEN)."
        ),
        data_dir: Path = typer.Option(
            Path("longeval-data"), "--data-dir", help="Jobs, run folders and input files; requests cannot leave it."
        ),
        allow_base_url: list[str] = typer.Option(
            [], "--allow-base-url", help="A base URL requests may name (repeatable); $OPENAI_BASE_URL is allowed."
        ),
        max_running_jobs: int = typer.Option(2, "--max-running-jobs", min=1, help="Jobs executing at once."),
        max_pending_jobs: int = typer.Option(32, "--max-pending-jobs", min=1, help="Queued + running; more get 429."),
        max_body_bytes: int = typer.Option(1 << 20, "--max-body-bytes", min=1024, help="Largest request body (413)."),
        max_concurrency: int = MaxConcurrencyOpt,
        rpm: int | None = RpmOpt,
        tpm: int | None = TpmOpt,
    ) -> None:
        """Run the HTTP service: POST /v1/jobs, GET /v1/jobs/{id}/events (SSE), /result, /openapi.json."""
        from aiohttp import web

        from longeval.llm.limits import Limits
        from longeval.service import ServiceSettings, create_app
        from longeval.settings import EnvSettings

        env = EnvSettings.from_env()
        chosen_token = token or env.service_token
        allowed = list(dict.fromkeys([*allow_base_url, *([env.openai_base_url] if env.openai_base_url else [])]))
        try:
            settings = ServiceSettings(
                data_dir=data_dir,
                host=host,
                port=port,
                token=SecretStr(chosen_token) if chosen_token else None,
                max_running_jobs=max_running_jobs,
                max_pending_jobs=max_pending_jobs,
                max_body_bytes=max_body_bytes,
                limits=Limits(max_concurrency=max_concurrency, requests_per_minute=rpm, tokens_per_minute=tpm),
                allowed_base_urls=allowed,
                env=env,
            )
        except ValidationError as exc:
            problems = "; ".join(e["msg"].removeprefix("Value error, ") for e in exc.errors())
            raise typer.BadParameter(problems, param_hint="--host/--token") from None
        guard = "bearer token required" if settings.token else "no token (loopback only)"
        err.print(f"longeval service on http://{host}:{port}  data dir {data_dir.resolve()}  ({guard})")
        err.print("API description: /openapi.json; stop with Ctrl-C (unfinished jobs resume at the next start)")
        web.run_app(create_app(settings), host=host, port=port, print=None, handle_signals=True)
