"""HelloBench tests read the released data in ../shared/data/hellobench and skip where it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def hellobench_dir(shared_data: Path) -> Path:
    folder = shared_data / "hellobench"
    if not folder.is_dir():
        pytest.skip(f"HelloBench data {folder} is absent")
    return folder
