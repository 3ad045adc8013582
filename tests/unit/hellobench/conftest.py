"""HelloBench tests read the released data in ../shared/data/hellobench and skip where it is absent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog


@pytest.fixture
def hellobench_dir(shared_data: Path) -> Path:
    folder = shared_data / "hellobench"
    if not folder.is_dir():
        pytest.skip(f"HelloBench data {folder} is absent")
    return folder


@pytest.fixture(autouse=True)
def _fresh_structlog() -> Iterator[None]:
    """The CLI configures structlog to print to the sys.stderr of the moment; under CliRunner that stream
    is closed after the command, so a later log line would fail. Start and end each test unconfigured."""
    structlog.reset_defaults()
    yield
    structlog.reset_defaults()
