"""Fixtures: one record per domain."""

from __future__ import annotations

import pytest

from longeval.data.records import Record
from tests.graph.writer_helpers import ARXIV_HEADINGS, make_record


@pytest.fixture
def arxiv_record() -> Record:
    return make_record("arxiv", ARXIV_HEADINGS)


@pytest.fixture
def wikipedia_record() -> Record:
    return make_record("wikipedia", ["Overview", "History", "Related work in the field", "Legacy"], results=False)


@pytest.fixture
def blog_record() -> Record:
    return make_record("blog", ["Introduction", "Why it matters", "Experiments we ran", "Wrap-up"])
