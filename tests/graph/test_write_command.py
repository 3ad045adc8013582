"""`longeval write` on a scripted model: its files, its table, its input rules and its errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from longeval.cli import app
from longeval.llm.scripted import ScriptedModel
from tests.graph.writer_helpers import scripted_writer

runner = CliRunner()


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> Iterator[ScriptedModel]:
    scripted = scripted_writer()
    monkeypatch.setattr("longeval.llm.hub.ModelHub.get", lambda self, spec, **kw: scripted)
    yield scripted


def test_write_a_sample_produces_every_output(model: ScriptedModel, tmp_path: Path) -> None:
    out = tmp_path / "x"
    result = runner.invoke(app, ["write", "--sample", "arxiv-sparse-retrieval", "--out", str(out), "--trace"])
    assert result.exit_code == 0, result.output
    for name in (
        "document.md",
        "document.json",
        "trace.jsonl",
        "usage.json",
        "run.json",
        "generations.jsonl",
        "records.jsonl",
    ):
        assert (out / name).is_file(), name
    document = json.loads((out / "document.json").read_text())
    headings = [s["heading"] for s in document["sections"]]
    assert headings == ["Abstract", "Introduction", "Related Work", "Method", "Experiments", "Conclusion"]
    assert all(s["required_words"] > 0 and s["words"] > 0 for s in document["sections"])
    assert (out / "document.md").read_text().startswith("# Gated Lexical Expansion")
    run = json.loads((out / "run.json").read_text())
    assert run["command"] == "write" and run["finished"] and run["config"]["writer"]["planner"] == "given"
    assert "write_section" in run["prompt_hashes"] and run["models"] == {"writer": "local", "results_judge": "local"}
    assert "[related_work] #2 Related Work" in result.output  # --trace prints events live
    assert "required words" in result.output and "Experiments" in result.output  # the table

    calls = len(model.calls)
    again = runner.invoke(app, ["write", "--sample", "arxiv-sparse-retrieval", "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert len(model.calls) == calls  # already written: no call
    assert json.loads((out / "run.json").read_text())["resumed"] == 1


def test_write_a_record_file_in_the_hugging_face_layout(model: ScriptedModel, tmp_path: Path) -> None:
    rows = [
        {
            "title": f"Paper {n}",
            "headlines": ["Introduction", "Conclusion"],
            "bullet_points": [f"Intro plan {n}.", f"End plan {n}."],
            "sections": ["gold " * 30, "gold " * 20],
            "length_requirement": [30, 20],
            "related_work_ref": [""],
            "experiment_results": [""],
        }
        for n in (1, 2)
    ]
    path = tmp_path / "Paper.json"
    path.write_text(json.dumps(rows))
    result = runner.invoke(app, ["write", "--record", str(path), "--id", "arxiv-1", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "o" / "document.json").read_text())["title"] == "Paper 2"
    assert "Intro plan 2." in model.calls[0].prompt

    wrong = runner.invoke(app, ["write", "--record", str(path), "--id", "nope", "--out", str(tmp_path / "p")])
    assert wrong.exit_code != 0 and "no record with id 'nope'" in wrong.output


def test_a_title_job_plans_with_the_outline_planner(model: ScriptedModel, tmp_path: Path) -> None:
    outline = {
        "sections": [{"heading": "Roots", "plan": "R", "words": 1}, {"heading": "Leaves", "plan": "L", "words": 1}]
    }
    model.script("plan.outline", json.dumps(outline))
    out = tmp_path / "t"
    args = [
        "write",
        "--title",
        "Trees",
        "--brief",
        "About trees.",
        "--sections",
        "2",
        "--words",
        "300",
        "--out",
        str(out),
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    document = json.loads((out / "document.json").read_text())
    assert document["planner"] == "outline"
    assert [(s["heading"], s["required_words"]) for s in document["sections"]] == [("Roots", 150), ("Leaves", 150)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sample", "arxiv-sparse-retrieval", "--title", "T"], "exactly one of --record, --sample or --title"),
        ([], "exactly one of --record, --sample or --title"),
        (["--sample", "arxiv-sparse-retrieval", "--planner", "outlin"], "Did you mean outline?"),
        (["--sample", "arxiv-sparse-retreival"], "Did you mean arxiv-sparse-retrieval"),
        (["--title", "T", "--planner", "given"], "needs a content plan"),
        (["--sample", "arxiv-sparse-retrieval", "--length-scale", "0"], "length_scale"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(
    model: ScriptedModel, tmp_path: Path, args: list[str], message: str
) -> None:
    result = runner.invoke(app, ["write", *args, "--out", str(tmp_path / "o")])
    assert result.exit_code != 0
    assert message in " ".join(result.output.split())


def test_a_folder_holding_another_configuration_is_refused(model: ScriptedModel, tmp_path: Path) -> None:
    out = str(tmp_path / "o")
    assert runner.invoke(app, ["write", "--sample", "arxiv-sparse-retrieval", "--out", out]).exit_code == 0
    result = runner.invoke(app, ["write", "--sample", "arxiv-sparse-retrieval", "--out", out, "--length-scale", "0.5"])
    assert result.exit_code != 0 and "differs in: length_scale" in " ".join(result.output.split())


def test_an_ablation_config_file_sets_the_planner(model: ScriptedModel, tmp_path: Path) -> None:
    config = Path(__file__).resolve().parents[2] / "configs" / "ablations" / "planner_none.toml"
    model.script("write.direct", "## Abstract\n\nA.\n\n## Introduction\n\nI.")
    out = tmp_path / "d"
    result = runner.invoke(
        app, ["write", "--sample", "arxiv-sparse-retrieval", "--config", str(config), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert [c.purpose for c in model.calls] == ["write.direct"]
    assert json.loads((out / "document.json").read_text())["paradigm"] == "direct"
