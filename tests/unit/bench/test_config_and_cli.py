"""Bench configuration (defaults < file < flags), the example configs, and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from longeval.bench import BenchConfig, load_bench_config
from longeval.bench.records import scale_lengths, select_records
from longeval.cli import app
from longeval.data.loaders import load_records
from longeval.settings import ConfigError

CONFIGS = Path(__file__).resolve().parents[3] / "configs" / "bench"


def test_flags_override_the_file_which_overrides_defaults(tmp_path: Path) -> None:
    path = tmp_path / "b.toml"
    path.write_text('[bench]\nlimit = 2\njudge = "openai:judge"\n[bench.writing]\nlength_control = true\n')
    config = load_bench_config(path, {"limit": 1, "judge": None, "paradigms": ["direct", "plan", "direct"]})
    assert config.limit == 1 and config.judge == "openai:judge" and config.paradigms == ["direct", "plan"]
    assert config.writing.length_control is True and config.writers == ["local"]
    assert config.writer_config("direct").planner == "none" and config.writer_config("plan").planner == "given"


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('planner = "none"', "writes directly"),
        ('planner = "outlnie"', "Did you mean outline"),
        ('[writing]\nplanner = "outline"', "top level"),
        ('paradigms = ["sideways"]', "paradigms"),
        ("budget_tokens = 0", "budget_tokens"),
        ('colour = "blue"', "colour"),
    ],
)
def test_bad_configs_name_the_field(tmp_path: Path, toml: str, message: str) -> None:
    path = tmp_path / "b.toml"
    path.write_text(toml + "\n")
    with pytest.raises(ConfigError, match=message):
        load_bench_config(path)


@pytest.mark.parametrize("path", sorted(CONFIGS.glob("*.toml")), ids=lambda p: p.name)
def test_example_configs_load(path: Path) -> None:
    assert isinstance(load_bench_config(path), BenchConfig)


def test_records_are_limited_per_domain_and_scaled() -> None:
    records = load_records("sample")
    chosen = select_records(records, BenchConfig(limit=1, domains=["blog", "arxiv"], length_scale=0.5))
    assert sorted(r.domain for r in chosen) == ["arxiv", "blog"]
    original = next(r for r in records if r.id == chosen[0].id)
    assert [s.words for s in chosen[0].sections] == [max(1, round(s.words * 0.5)) for s in original.sections]
    assert [s.text for s in chosen[0].sections] == [s.text for s in original.sections]
    assert scale_lengths(original, 1.0) is original


def test_dry_run_command_prints_the_plan_and_creates_nothing(tmp_path: Path) -> None:
    out = tmp_path / "never"
    result = CliRunner().invoke(app, ["bench", "--limit", "1", "--domains", "blog", "--out", str(out), "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "Plan of work: 1 document" in result.output and "judge.content_following" in result.output
    assert not out.exists()


def test_bench_command_reports_bad_input_without_a_traceback(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "--writer", "nope", "--out", str(tmp_path / "o"), "--dry-run"])
    assert result.exit_code == 1 and "unknown model backend 'nope'" in result.output
    result = CliRunner().invoke(app, ["bench", "--planner", "none", "--out", str(tmp_path / "o"), "--dry-run"])
    assert result.exit_code == 1 and "writes directly" in result.output


def test_a_selection_without_records_is_an_error(tmp_path: Path) -> None:
    from longeval.bench import BenchRunError
    from longeval.bench.records import load_bench_records

    blog = next(r for r in load_records("sample") if r.domain == "blog")
    path = tmp_path / "one.jsonl"
    path.write_text(blog.model_dump_json() + "\n")
    with pytest.raises(BenchRunError, match="no records in the domains arxiv"):
        load_bench_records(BenchConfig(dataset=str(path), domains=["arxiv"]))
