"""Fixtures: service settings on a temporary data dir, and a client factory over real HTTP (aiohttp's test server)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from longeval.llm.types import ChatModel
from longeval.service import ServiceSettings, create_app

ClientFactory = Callable[..., Awaitable[TestClient]]


@pytest.fixture
def settings(tmp_path: Path) -> ServiceSettings:
    return ServiceSettings(data_dir=tmp_path / "data", heartbeat_s=0.5)


@pytest.fixture
def service(aiohttp_client: Any, settings: ServiceSettings) -> ClientFactory:
    """`await service(model)`: a client of an app whose every model is `model` (or `models[spec]`)."""

    async def start(
        model: ChatModel | None = None,
        *,
        models: dict[str, ChatModel] | None = None,
        settings: ServiceSettings = settings,
    ) -> TestClient:
        by_spec = models or {}
        app = create_app(settings, model_factory=lambda spec, base_url: by_spec.get(spec) or model)
        return await aiohttp_client(app)

    return start
