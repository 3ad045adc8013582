"""Fixtures: a small bench (one sample record per domain) on scripted models."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from longeval.bench import BenchConfig
from longeval.bench.records import load_bench_records
from longeval.data.records import Record
from longeval.llm.scripted import ScriptedModel
from longeval.report import load_runs, write_report
from tests.unit.bench.scripted import scripted_judge, scripted_writer


@pytest.fixture
def small_config() -> BenchConfig:
    return BenchConfig(writers=["w"], judge="j", paradigms=["plan", "direct"], limit=1, max_concurrency=3)


@pytest.fixture
def small_records(small_config: BenchConfig) -> list[Record]:
    return load_bench_records(small_config)


def fresh_backends(*, yes: bool | None = None) -> dict[str, ScriptedModel]:
    return {"w": scripted_writer(results_answer=yes), "j": scripted_judge(ea_answer=yes)}


def call_signatures(*models: ScriptedModel) -> Counter[tuple[str, str, int, int]]:
    """Every backend call by what makes it distinct (purpose, prompt, seed, max_tokens)."""
    return Counter((c.purpose, c.prompt, c.seed, c.max_tokens) for m in models for c in m.calls)


def tables_of(run_path: Path) -> str:
    """The report's Table 4 and Table 6 blocks (provenance and usage differ between sessions)."""
    report, _ = write_report(load_runs([run_path]), run_path, plots=False)
    start = report.markdown.index("## Table 4")
    return report.markdown[start : report.markdown.index("## Usage")]
