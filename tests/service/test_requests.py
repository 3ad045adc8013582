"""Bad requests are refused with the field at fault named; tokens guard every route but /healthz."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import SecretStr, ValidationError

from longeval.service import ServiceSettings

from .conftest import ClientFactory
from .helpers import blog_record, scripted_writer


async def refused(client: Any, body: Any, status: int = 400) -> dict[str, Any]:
    response = await client.post("/v1/jobs", json=body)
    payload = await response.json()
    assert response.status == status, payload
    assert payload["status"] == status
    return payload


def fields(payload: dict[str, Any]) -> list[str]:
    return [p["field"] for p in payload["problems"]]


async def test_bad_bodies_name_the_field_at_fault(service: ClientFactory) -> None:
    client = await service(scripted_writer())
    record = blog_record()
    del record["title"]
    missing = await refused(client, {"kind": "write", "record": record})
    assert fields(missing) == ["record.title"] and "Field required" in missing["error"]

    wrong_type = await refused(
        client, {"kind": "write", "sample": "blog-sourdough-starter", "config": {"length_scale": "big"}}
    )
    assert fields(wrong_type) == ["config.length_scale"]

    planner = await refused(
        client, {"kind": "write", "sample": "blog-sourdough-starter", "config": {"planner": "outlien"}}
    )
    assert fields(planner) == ["config.planner"]
    assert "unknown planner 'outlien'" in planner["error"] and "Did you mean outline?" in planner["error"]
    assert "Known: given, none, outline" in planner["error"]

    no_kind = await refused(client, {"sample": "blog-sourdough-starter"})
    assert fields(no_kind) == ["kind"] and "write, evaluate, bench" in no_kind["error"]
    assert fields(await refused(client, {"kind": "paint"})) == ["kind"]
    assert fields(await refused(client, {"kind": "write", "sample": "blog-sourdough-starter", "colour": 1})) == [
        "colour"
    ]
    two_sources = await refused(client, {"kind": "write", "sample": "blog-sourdough-starter", "record": blog_record()})
    assert (
        "give exactly one of sample, record, records, records_file, title (given: sample, record)"
        in two_sources["error"]
    )
    assert fields(await refused(client, {"kind": "write", "sample": "no-such-sample"})) == ["sample"]
    assert fields(await refused(client, {"kind": "write", "sample": "blog-sourdough-starter", "model": "gpt:4"})) == [
        "model"
    ]
    assert fields(await refused(client, {"kind": "evaluate", "run_dir": "runs/x", "metrics": ["lenn"]})) == [
        "run_dir",
        "metrics",
    ]
    assert fields(await refused(client, [1, 2])) == ["(body)"]

    not_json = await client.post("/v1/jobs", data=b"{not json", headers={"Content-Type": "application/json"})
    assert not_json.status == 400 and "not valid JSON" in (await not_json.json())["error"]
    jobs = await (await client.get("/v1/jobs")).json()
    assert jobs["jobs"] == []  # nothing refused was stored


async def test_an_oversized_body_gets_413_naming_the_limit(service: ClientFactory, settings: ServiceSettings) -> None:
    small = settings.model_copy(update={"max_body_bytes": 4096})
    client = await service(scripted_writer(), settings=small)
    record = blog_record()
    record["sections"][0]["text"] = "gold " * 2000
    payload = await refused(client, {"kind": "write", "record": record}, status=413)
    assert "this service takes at most 4096 bytes (max_body_bytes)" in payload["error"]


async def test_a_base_url_must_be_allowed(service: ClientFactory, settings: ServiceSettings) -> None:
    """A request cannot send the service's API key to a server of its choosing."""
    client = await service(scripted_writer())
    body = {
        "kind": "write",
        "sample": "blog-sourdough-starter",
        "model": "openai:m",
        "base_url": "http://evil.example/v1",
    }
    payload = await refused(client, body)
    assert fields(payload) == ["base_url"] and "not a base URL this service may call" in payload["error"]


async def test_a_token_guards_every_route_but_healthz(service: ClientFactory, settings: ServiceSettings) -> None:
    guarded = settings.model_copy(update={"token": SecretStr("s3cret-token")})
    client = await service(scripted_writer(), settings=guarded)
    assert (await client.get("/healthz")).status == 200
    for method, path in [
        ("GET", "/v1/jobs"),
        ("POST", "/v1/jobs"),
        ("GET", "/openapi.json"),
        ("GET", "/v1/jobs/" + "a" * 32),
    ]:
        missing = await client.request(method, path)
        assert missing.status == 401, path
        assert missing.headers["WWW-Authenticate"].startswith("Bearer")
        assert "missing bearer token" in (await missing.json())["error"]
        wrong = await client.request(method, path, headers={"Authorization": "Bearer nope"})
        assert wrong.status == 401 and (await wrong.json())["error"] == "wrong bearer token"
    ok = await client.get("/v1/jobs", headers={"Authorization": "Bearer s3cret-token"})
    assert ok.status == 200


def test_the_service_refuses_to_listen_beyond_loopback_without_a_token(settings: ServiceSettings) -> None:
    with pytest.raises(ValidationError, match="refusing to listen on '0.0.0.0' without a token"):
        ServiceSettings(data_dir=settings.data_dir, host="0.0.0.0")
    assert ServiceSettings(data_dir=settings.data_dir, host="0.0.0.0", token=SecretStr("t")).host == "0.0.0.0"
    assert ServiceSettings(data_dir=settings.data_dir, host="::1").token is None
