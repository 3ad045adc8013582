"""Shared test setup: offline, with nltk's data from ../shared/data where present."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"

# Tests never reach a hub; nltk reads punkt_tab from the shared data folder.
os.environ.setdefault("NLTK_DATA", str(SHARED_DATA / "nltk_data"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
for _secret in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "LONGEVAL_TOKEN"):
    os.environ.pop(_secret, None)


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data folder {SHARED_DATA} is absent")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def _unconfigured_logging() -> Iterator[None]:
    """CLI tests run the entry point, which configures structlog globally: undo it after every test."""
    structlog.reset_defaults()
    yield
    structlog.reset_defaults()
