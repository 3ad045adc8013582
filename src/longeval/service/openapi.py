"""The OpenAPI 3.1 description of every route, its schemas generated from the pydantic models in schemas.py."""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic.json_schema import models_json_schema

from longeval import __version__
from longeval.service.schemas import BenchJob, ErrorBody, EvaluateJob, Health, JobList, JobView, WriteJob

REF = "#/components/schemas/{model}"
JOB_PATH = "/v1/jobs/{job_id}"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    meaning = {
        400: "a bad request; `problems` names each field at fault",
        401: "a missing or wrong bearer token",
        404: "no such job",
        409: "the job's state does not allow this",
        413: "the request body is over the limit",
        429: "too many jobs queued or running; retry later",
    }
    return {str(code): _json(_ref("ErrorBody"), meaning[code]) for code in codes}


JOB_ID_PARAM = {
    "name": "job_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[0-9a-f]{32}$"},
}


def _paths() -> dict[str, Any]:
    job_request = {
        "oneOf": [_ref("WriteJob"), _ref("EvaluateJob"), _ref("BenchJob")],
        "discriminator": {
            "propertyName": "kind",
            "mapping": {
                "write": REF.format(model="WriteJob"),
                "evaluate": REF.format(model="EvaluateJob"),
                "bench": REF.format(model="BenchJob"),
            },  # fmt: skip
        },
    }
    return {
        "/healthz": {
            "get": {
                "summary": "Liveness; needs no token",
                "security": [],
                "responses": {"200": _json(_ref("Health"), "the service is up")},
            }
        },  # fmt: skip
        "/openapi.json": {
            "get": {
                "summary": "This document",
                "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1"), **_errors(401)},
            }
        },
        "/v1/jobs": {
            "post": {
                "summary": "Submit a write, evaluate or bench job",
                "requestBody": {"required": True, "content": {"application/json": {"schema": job_request}}},
                "responses": {
                    "202": _json(_ref("JobView"), "queued; Location names the job"),
                    **_errors(400, 401, 413, 429),
                },
            },
            "get": {
                "summary": "List jobs, newest first",
                "parameters": [
                    {
                        "name": "status",
                        "in": "query",
                        "schema": {"enum": ["queued", "running", "succeeded", "failed", "cancelled"]},
                    },
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
                    },
                ],
                "responses": {"200": _json(_ref("JobList"), "the jobs"), **_errors(400, 401)},
            },
        },
        JOB_PATH: {
            "parameters": [JOB_ID_PARAM],
            "get": {
                "summary": "A job's status, progress and usage",
                "responses": {"200": _json(_ref("JobView"), "the job"), **_errors(401, 404)},
            },
            "delete": {
                "summary": "Cancel a queued or running job; finished work is kept",
                "responses": {"200": _json(_ref("JobView"), "the job, cancelled"), **_errors(401, 404, 409)},
            },
        },
        JOB_PATH + "/events": {
            "parameters": [JOB_ID_PARAM],
            "get": {
                "summary": "Server-sent events: one per step, then `end`; resume with Last-Event-ID",
                "parameters": [
                    {"name": "Last-Event-ID", "in": "header", "schema": {"type": "integer", "minimum": 0}},
                    {"name": "last_event_id", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                ],
                "responses": {
                    "200": {
                        "description": "`id: N`, `event: TYPE` (status, step, document, score, interrupted, end), `data: JSON`",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    },
                    **_errors(400, 401, 404),
                },
            },
        },
        JOB_PATH + "/result": {
            "parameters": [JOB_ID_PARAM],
            "get": {
                "summary": "The job's result: JSON, or the document(s) as Markdown with ?format=md",
                "parameters": [
                    {"name": "format", "in": "query", "schema": {"enum": ["json", "md"], "default": "json"}}
                ],
                "responses": {
                    "200": {
                        "description": "the result (a write job's finished documents even before it ends)",
                        "content": {
                            "application/json": {"schema": {"type": "object"}},
                            "text/markdown": {"schema": {"type": "string"}},
                        },
                    },
                    **_errors(400, 401, 404, 409),
                },
            },
        },
    }


@cache
def openapi_document() -> dict[str, Any]:
    _, schemas = models_json_schema(
        [(m, "validation") for m in (WriteJob, EvaluateJob, BenchJob)]
        + [(m, "serialization") for m in (JobView, JobList, ErrorBody, Health)],
        ref_template=REF,
    )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "longeval service",
            "version": __version__,
            "description": "Write, evaluate and benchmark long documents as background jobs.",
        },  # fmt: skip
        "paths": _paths(),
        "components": {
            "schemas": schemas.get("$defs", {}),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}],
    }
