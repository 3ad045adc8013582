"""HTTP plumbing: JSON error replies, the bearer-token and error middlewares, and the app's typed keys."""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, Iterable

from aiohttp import web
from pydantic import ValidationError

from longeval.service.schemas import ErrorBody, FieldProblem

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
OPEN_PATHS = frozenset({"/healthz"})  # the only route a token does not guard


def error_response(
    status: int, message: str, problems: Iterable[FieldProblem] = (), *, headers: dict[str, str] | None = None
) -> web.Response:
    body = ErrorBody(status=status, error=message, problems=list(problems))
    return web.json_response(body.model_dump(mode="json"), status=status, headers=headers)


def validation_problems(exc: ValidationError, body: dict[str, object]) -> list[FieldProblem]:
    """Pydantic's errors as (dotted field path, message); the union's `kind` tag is dropped from the path."""
    problems = []
    for error in exc.errors(include_url=False):
        if error["type"] in ("union_tag_not_found", "union_tag_invalid"):
            got = f"got {body['kind']!r}" if "kind" in body else "missing"
            problems.append(FieldProblem(field="kind", message=f"must be one of write, evaluate, bench ({got})"))
            continue
        loc = list(error["loc"])
        if loc and loc[0] == body.get("kind"):
            loc = loc[1:]
        message = error["msg"].removeprefix("Value error, ")
        problems.append(FieldProblem(field=".".join(str(p) for p in loc) or "(body)", message=message))
    return problems


def bearer_auth(token: str | None) -> Handler:
    """Every route but /healthz wants `Authorization: Bearer TOKEN` when the service has a token."""

    @web.middleware
    async def auth(request: web.Request, handler: Handler) -> web.StreamResponse:
        if token is None or request.path in OPEN_PATHS:
            return await handler(request)
        scheme, _, given = request.headers.get("Authorization", "").partition(" ")
        challenge = {"WWW-Authenticate": 'Bearer realm="longeval"'}
        if scheme.lower() != "bearer" or not given.strip():
            return error_response(401, "missing bearer token: send 'Authorization: Bearer TOKEN'", headers=challenge)
        if not hmac.compare_digest(given.strip().encode(), token.encode()):
            return error_response(401, "wrong bearer token", headers=challenge)
        return await handler(request)

    return auth  # type: ignore[return-value]


@web.middleware
async def errors_as_json(request: web.Request, handler: Handler) -> web.StreamResponse:
    """aiohttp's own errors (404, 405, 413, ...) in the API's JSON shape."""
    try:
        return await handler(request)
    except web.HTTPException as exc:
        if exc.status < 400:
            raise
        headers = {k: v for k, v in exc.headers.items() if k in ("Allow", "WWW-Authenticate", "Retry-After")}
        own_text = bool(exc.text) and not exc.text.startswith(f"{exc.status}:")  # aiohttp's default is "404: Not Found"
        message = exc.text if own_text else exc.reason
        if exc.status == 404 and not own_text:
            message = f"no route {request.method} {request.path}"
        return error_response(exc.status, message, headers=headers)
