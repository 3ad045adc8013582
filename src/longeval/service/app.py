"""The app factory. Resources (database, event log, model hub, job runner) open and close in a cleanup context.

    app = create_app(ServiceSettings(data_dir=Path("data")))
    web.run_app(app, host=..., port=...)

One model hub serves every job, so per-endpoint limits are shared by all jobs; tests pass a
`model_factory` ((spec, base_url) -> ChatModel) to use scripted models instead.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack

import structlog
from aiohttp import web

from longeval.llm.hub import ModelHub
from longeval.service.context import ModelFactory
from longeval.service.events import EventLog
from longeval.service.http import bearer_auth, errors_as_json
from longeval.service.jobs import JobStore, open_database
from longeval.service.routes import EVENTS, RUNNER, SETTINGS, STORE, routes
from longeval.service.runner import JobRunner
from longeval.service.schemas import ValidationContext
from longeval.service.settings import ServiceSettings

log = structlog.get_logger(__name__)


def make_redactor(secrets: list[str]) -> Callable[[str], str]:
    """Replaces every secret (API key, token) with '***' in text bound for logs, events or results."""

    def redact(text: str) -> str:
        for secret in secrets:
            text = text.replace(secret, "***")
        return text

    return redact


def hub_model_factory(hub: ModelHub) -> ModelFactory:
    return lambda spec, base_url: hub.get(spec, base_url=base_url)


def create_app(settings: ServiceSettings, *, model_factory: ModelFactory | None = None) -> web.Application:
    token = settings.token.get_secret_value() if settings.token is not None else None
    app = web.Application(client_max_size=settings.max_body_bytes, middlewares=[errors_as_json, bearer_auth(token)])
    app[SETTINGS] = settings

    async def resources(app: web.Application) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            settings.jobs_dir.mkdir(parents=True, exist_ok=True)
            redact = make_redactor(settings.secrets())
            conn = await open_database(settings.database_path)
            stack.push_async_callback(conn.close)
            store, events = JobStore(conn), EventLog(conn, redact=redact)
            await store.init()
            await events.init()
            stack.push_async_callback(events.aclose)
            factory = model_factory
            if factory is None:
                cache = settings.cache_path if settings.response_cache else None
                hub = ModelHub(limits=settings.limits, cache_path=cache, env=settings.env)
                stack.push_async_callback(hub.aclose)
                factory = hub_model_factory(hub)
            runner = JobRunner(
                store=store,
                events=events,
                jobs_dir=settings.jobs_dir,
                data_dir=settings.data_dir,
                model_factory=factory,
                validation=ValidationContext(data_dir=settings.data_dir, allowed_base_urls=settings.allowed_base_urls),
                redact=redact,
                max_running=settings.max_running_jobs,
                max_pending=settings.max_pending_jobs,
            )
            stack.push_async_callback(runner.shutdown)  # first to run at exit: jobs stop before what they use closes
            app[STORE], app[EVENTS], app[RUNNER] = store, events, runner
            await runner.resume_unfinished()
            log.info("service.started", data_dir=str(settings.data_dir), auth=token is not None)
            yield
        log.info("service.stopped")

    async def close_streams(app: web.Application) -> None:
        await app[EVENTS].close_streams()  # open event streams end; clients reconnect with Last-Event-ID

    app.cleanup_ctx.append(resources)
    app.on_shutdown.append(close_streams)
    app.add_routes(routes)
    return app
