"""`longeval evaluate` and `longeval judge-check` end to end, with metrics that need no judge model."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from typer.testing import CliRunner

from longeval.commands import evaluate
from longeval.runs import RunDir
from tests.fakes.longeval_documents import make_document, make_record, write_run

runner = CliRunner()
app = typer.Typer()  # only these commands: the test does not depend on the other command modules
evaluate.register(app)


def _run(path: Path) -> Path:
    records = [make_record("arxiv"), make_record("blog")]
    documents = [make_document(records[0]), make_document(records[1], words_per_section=5)]
    write_run(RunDir(path), records, documents)
    return path


def test_evaluate_prints_the_table_and_writes_scores(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    result = runner.invoke(app, ["evaluate", "--run", str(run), "--metrics", "len"])
    assert result.exit_code == 0, result.output
    assert "Len" in result.stdout and "Overall" in result.stdout and "unscored" in result.stdout
    assert "judge calls: 0" in result.stdout
    rows = [json.loads(line) for line in (run / "scores.jsonl").read_text().splitlines()]
    assert sorted(r["value"] for r in rows)[-1] == 100.0 and len(rows) == 2

    again = runner.invoke(app, ["evaluate", "--run", str(run), "--metrics", "len"])
    assert "already in scores.jsonl: 2" in again.stdout


def test_evaluate_refuses_a_folder_without_generations(tmp_path: Path) -> None:
    result = runner.invoke(app, ["evaluate", "--run", str(tmp_path)])
    assert result.exit_code != 0 and "generations.jsonl" in result.output


def test_unknown_metric_is_a_clear_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["evaluate", "--run", str(_run(tmp_path)), "--metrics", "redundancy"])
    assert result.exit_code == 1 and "unknown metric 'redundancy'" in result.output


def test_judge_check_prints_every_metric_per_share_and_lists_replacements(tmp_path: Path) -> None:
    run = _run(tmp_path / "run")
    result = runner.invoke(app, ["judge-check", "--run", str(run), "--metrics", "len", "--replace", "0.5,1"])
    assert result.exit_code == 0, result.output
    assert "0%" in result.stdout and "50%" in result.stdout and "100%" in result.stdout
    listing = json.loads((run / "judge_check" / "replace_0.5_seed0" / "replacements.json").read_text())
    assert len(listing) == 3 + 2  # half of 6 arXiv sections, half (rounded up) of 3 blog sections


def test_judge_check_rejects_shares_outside_0_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["judge-check", "--run", str(_run(tmp_path)), "--replace", "0.5,30"])
    assert result.exit_code != 0 and "(0, 1]" in result.output


def test_evaluate_outputs_produced_elsewhere_against_a_dataset(tmp_path: Path) -> None:
    records = [make_record("blog", "blog-a"), make_record("wikipedia", "wiki-b")]
    dataset = tmp_path / "dataset.jsonl"
    dataset.write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text("".join(make_document(r).model_dump_json() + "\n" for r in records), encoding="utf-8")
    result = runner.invoke(
        app, ["evaluate", "--generations", str(outputs), "--dataset", str(dataset), "--metrics", "len"]
    )
    assert result.exit_code == 0, result.output
    scores = tmp_path / "outputs-eval" / "scores.jsonl"
    assert sorted(json.loads(line)["record_id"] for line in scores.read_text().splitlines()) == ["blog-a", "wiki-b"]


def test_generations_naming_an_unknown_record_are_refused_with_the_line(tmp_path: Path) -> None:
    dataset = tmp_path / "dataset.jsonl"
    dataset.write_text(make_record("blog", "blog-a").model_dump_json() + "\n", encoding="utf-8")
    outputs = tmp_path / "outputs.jsonl"
    outputs.write_text(make_document(make_record("blog", "blog-z")).model_dump_json() + "\n", encoding="utf-8")
    result = runner.invoke(app, ["evaluate", "--generations", str(outputs), "--dataset", str(dataset)])
    assert result.exit_code == 1
    assert "outputs.jsonl:1" in result.output and "'blog-z'" in result.output
    assert not (tmp_path / "outputs-eval" / "generations.jsonl").exists()  # nothing half-imported
