"""`hellobench generate|judge|score|errors` end to end, on a scripted model and the released data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from longeval.commands.hellobench import app  # the sub-app itself: independent of other commands
from longeval.llm.scripted import ScriptedModel

runner = CliRunner()


def task_folder(root: Path) -> Path:
    """A two-task folder in HelloBench's layout, with a 2k length-constrained variant."""
    for sub, instruction in (
        ("main_data/heuristic_text_generation.jsonl", "Write a story about {}."),
        (
            "length_constrained_data/heuristic_text_generation_2k.jsonl",
            "Write a story about {}, no shorter than 2000 words.",
        ),
    ):
        path = root / "data" / sub
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = [
            {
                "id": f"heuristic_text_generation_00{i}",
                "category": "story_writing",
                "instruction": instruction.format(topic),
                "checklists": [f"Item {k}?" for k in range(5)],
            }
            for i, topic in enumerate(["a lighthouse", "a comet"])
        ]
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return root


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> ScriptedModel:
    model = ScriptedModel(model_name="scripted-judge")
    model.script("hellobench.generate", "The keeper lit the lamp. The sea was calm that night.")
    items = [{"checklist_id": i, "reason": "ok", "evaluation_score": 0.75} for i in range(5)]
    model.script("hellobench.judge", json.dumps({"checklist_wise_evaluation": items}))
    monkeypatch.setattr("longeval.llm.hub.ModelHub.get", lambda self, spec, **kw: model)
    return model


def test_generate_judge_score_errors(scripted: ScriptedModel, tmp_path: Path) -> None:
    data, run = task_folder(tmp_path / "data"), tmp_path / "run"
    args = ["generate", "--data", str(data), "--length-constraint", "2k", "--out", str(run)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "generated 2" in result.output
    provenance = json.loads((run / "run.json").read_text())
    assert provenance["command"] == "hellobench generate" and provenance["config"]["temperature"] == 0.8
    assert "no shorter than 2000 words" in scripted.calls_for("hellobench.generate")[0].prompt

    result = runner.invoke(app, ["judge", "--run", str(run), "--judge", "openai:judge"])
    assert result.exit_code == 0, result.output
    assert "scored 2, unscored 0" in result.output
    assert "heuristic_text_generation" in result.output and "75.00" in result.output  # score table
    result = runner.invoke(app, ["judge", "--run", str(run), "--judge", "openai:judge"])
    assert "scored 0, unscored 0, already judged 2" in result.output
    assert len(scripted.calls_for("hellobench.judge")) == 2

    result = runner.invoke(app, ["score", "--judgements", str(run), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["groups"][0]["category_score"] == pytest.approx(0.0)  # every item 0.75: (75 - 75) * 4
    assert report["groups"][0]["length_constraint"] == "2k" and report["overall"] is None

    result = runner.invoke(app, ["errors", "--results", str(run), "--json", "--plot", str(run / "lengths.png")])
    assert result.exit_code == 0, result.output
    (group,) = json.loads(result.output[: result.output.rindex("]") + 1])
    assert group["lengths"]["whitespace"]["mean"] == 11 and group["required_words"] == 2000
    assert (run / "lengths.png").is_file()


def test_a_run_folder_keeps_one_model_and_constraint(scripted: ScriptedModel, tmp_path: Path) -> None:
    data, run = task_folder(tmp_path / "data"), tmp_path / "run"
    first = ["generate", "--data", str(data), "--category", "heuristic_text_generation"]
    assert runner.invoke(app, [*first, "--out", str(run)]).exit_code == 0
    result = runner.invoke(app, ["generate", "--data", str(data), "--length-constraint", "2k", "--out", str(run)])
    assert result.exit_code == 2
    assert "use a new --out folder" in result.output


def test_bad_flags_are_named(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["generate", "--data", str(tmp_path), "--category", "poems", "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 2 and "--category poems" in result.output
    result = runner.invoke(app, ["errors", "--results", str(tmp_path), "--counter", "chars"])
    assert result.exit_code == 2 and "--counter chars" in result.output
    result = runner.invoke(app, ["score", "--judgements", str(tmp_path)])
    assert result.exit_code == 2 and "no *_results.jsonl" in result.output


def test_score_released_judgements(hellobench_dir: Path) -> None:
    folder = hellobench_dir / "judgements" / "main_exp" / "gpt4o_0806"
    result = runner.invoke(app, ["score", "--judgements", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert round(report["overall"], 2) == 48.55 and report["unscored"] == 0
    result = runner.invoke(app, ["score", "--judgements", str(folder)])
    assert "overall (mean of the five categories): 48.55" in result.output


def test_unknown_model_and_foreign_run_folder(tmp_path: Path) -> None:
    data = task_folder(tmp_path / "data")
    args = ["generate", "--data", str(data), "--category", "heuristic_text_generation"]
    result = runner.invoke(app, [*args, "--model", "nope:x", "--out", str(tmp_path / "r1")])
    assert result.exit_code == 2 and "unknown model backend 'nope'" in result.output
    foreign = tmp_path / "r2"
    foreign.mkdir()
    (foreign / "run.json").write_text(json.dumps({"command": "write", "models": {}, "config": {}}))
    result = runner.invoke(app, [*args, "--out", str(foreign)])
    assert result.exit_code == 2 and "holds a `write` run" in result.output
