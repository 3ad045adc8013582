"""The OpenAPI document describes every route the app serves, and every reference in it resolves."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from longeval.service import ServiceSettings, create_app
from longeval.service.openapi import openapi_document

from .conftest import ClientFactory
from .helpers import scripted_writer


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if "$ref" in node else []
        return own + [r for value in node.values() for r in _refs(value)]
    if isinstance(node, list):
        return [r for value in node for r in _refs(value)]
    return []


def test_every_route_is_described(settings: ServiceSettings) -> None:
    app: web.Application = create_app(settings)
    document = openapi_document()
    served = {
        (route.method.lower(), re.sub(r"\{(\w+):[^}]*\}", r"{\1}", route.resource.canonical))
        for route in app.router.routes()
        if route.method != "HEAD" and route.resource is not None
    }
    described = {
        (method, path) for path, item in document["paths"].items() for method in item if method != "parameters"
    }
    assert served == described
    assert document["openapi"].startswith("3.1")


def test_every_reference_resolves_and_the_request_union_is_discriminated() -> None:
    document = openapi_document()
    schemas = document["components"]["schemas"]
    for ref in _refs(document):
        assert ref.startswith("#/components/schemas/") and ref.rsplit("/", 1)[1] in schemas, ref
    body = document["paths"]["/v1/jobs"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body["discriminator"]["propertyName"] == "kind"
    assert {"WriteJob", "EvaluateJob", "BenchJob"} <= set(schemas)
    assert "planner" in schemas["WriterConfig"]["properties"]


async def test_the_document_is_served(service: ClientFactory) -> None:
    client = await service(scripted_writer())
    served = await (await client.get("/openapi.json")).json()
    assert served == openapi_document()
