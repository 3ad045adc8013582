"""HelloEval scoring: re-scoring released judgements reproduces the formula computed here independently."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest

from longeval.hellobench.results_files import read_judgements
from longeval.hellobench.scoring import Judgement, item_scores, rescale, score_judgement, summarise
from longeval.hellobench.tasks import CATEGORIES, HelloBenchDataError, load_task_index, load_weights


def score_released(path: Path) -> object:
    judgements, duplicates = read_judgements(path)
    weights = load_weights()
    return summarise([score_judgement(j, weights) for j in judgements], duplicates=duplicates)


def independent_category_scores(hellobench_dir: Path, model: str) -> dict[str, float]:
    """The formula straight from the released files: per task sum(w_i * s_i), per category (mean - 75) * 4."""
    text = (hellobench_dir / "weighted_scores.txt").read_text(encoding="utf-8")
    weights = ast.literal_eval(text[text.index("{") :])
    scores = {}
    for category in CATEGORIES:
        task_file = hellobench_dir / "data" / "main_data" / f"{category}.jsonl"
        if not task_file.exists():
            task_file = task_file.with_name(f"{category}_reconstructed.jsonl")
        subcategory = {}
        for line in task_file.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            subcategory[row["id"]] = row["category"]
        results = hellobench_dir / "judgements" / "main_exp" / model / f"{category}_results.jsonl"
        totals = []
        for line in results.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            w = weights[subcategory[row["id"]]]
            totals.append(
                sum(w[i] * item["evaluation_score"] for i, item in enumerate(row["checklist_wise_evaluation"]))
            )
        scores[category] = (sum(totals) / len(totals) - 75) * 4
    return scores


@pytest.mark.parametrize("model", ["gpt4o_0806", "claude35", "qwen2_7b"])
def test_rescoring_released_main_judgements(hellobench_dir: Path, model: str) -> None:
    expected = independent_category_scores(hellobench_dir, model)
    report = score_released(hellobench_dir / "judgements" / "main_exp" / model)
    got = {g.category: g.category_score for g in report.groups}
    assert got == pytest.approx(expected, abs=1e-9)
    assert [g.length_constraint for g in report.groups] == [None] * 5
    assert report.overall == pytest.approx(sum(expected.values()) / 5)
    assert (report.scored, report.unscored, report.duplicates) == (647, 0, [])


def test_gpt4o_scores_pinned_to_two_decimals(hellobench_dir: Path) -> None:
    report = score_released(hellobench_dir / "judgements" / "main_exp" / "gpt4o_0806")
    assert [round(g.category_score, 2) for g in report.groups] == [54.82, 29.71, 42.88, 67.49, 47.87]
    assert round(report.overall, 2) == 48.55


def test_wrong_item_count_is_unscored_and_counted(hellobench_dir: Path, tmp_path: Path) -> None:
    source = hellobench_dir / "judgements" / "main_exp" / "gpt4o_0806" / "chat_results.jsonl"
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    dropped_id = rows[3]["id"]
    dropped_score = sum(
        w * item["evaluation_score"]
        for w, item in zip(
            load_weights()[load_task_index()[dropped_id][1]], rows[3]["checklist_wise_evaluation"], strict=True
        )
    )
    rows[3]["checklist_wise_evaluation"] = rows[3]["checklist_wise_evaluation"][:-1]
    (tmp_path / "chat_results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")

    report = score_released(tmp_path)
    (chat,) = report.groups
    assert (chat.scored, chat.unscored) == (146, 1)
    assert report.unscored_tasks == [(dropped_id, "5 judged items for a checklist of 6")]
    assert report.overall is None  # four categories missing
    full = score_released(source).groups[0]
    # the unscored task is left out of the mean, not counted as 0
    assert chat.mean == pytest.approx((full.mean * 147 - dropped_score) / 146)


def test_length_constrained_judgements_group_by_constraint(hellobench_dir: Path, tmp_path: Path) -> None:
    for size in ("2k", "16k"):
        name = f"heuristic_text_generation_{size}_results.jsonl"
        shutil.copy(hellobench_dir / "judgements" / "length_constrained_exp" / "suri_7b" / name, tmp_path / name)
    report = score_released(tmp_path)
    assert [(g.category, g.length_constraint, g.scored) for g in report.groups] == [
        ("heuristic_text_generation", "2k", 123),
        ("heuristic_text_generation", "16k", 123),
    ]
    assert report.groups[0].category_score > report.groups[1].category_score  # suri degrades at 16k


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([{"checklist_id": 1, "evaluation_score": 1}, {"checklist_id": 0, "evaluation_score": "0.5"}], [0.5, 1.0]),
        ([{"checklist_id": 0, "evaluation_score": 0.3}, {"checklist_id": 1, "evaluation_score": 1}], "not one of"),
        ([{"checklist_id": 0, "evaluation_score": 1}, {"checklist_id": 0, "evaluation_score": 1}], "appears twice"),
        ([{"checklist_id": 0, "evaluation_score": 1}, {"checklist_id": 5, "evaluation_score": 1}], "are not 0..1"),
        ([{"checklist_id": 0}, {"checklist_id": 1, "evaluation_score": 1}], "no numeric"),
        ([{"checklist_id": 0, "evaluation_score": 1}], "1 judged items for a checklist of 2"),
    ],
)
def test_item_scores(items: list[dict], expected: object) -> None:
    result = item_scores(items, 2)
    if isinstance(expected, list):
        assert result == expected
    else:
        assert isinstance(result, str) and expected in result


def test_weighted_score_and_rescale_by_hand() -> None:
    weights = load_weights()
    items = [{"checklist_id": i, "evaluation_score": s} for i, s in enumerate([1, 1, 1, 1, 1])]
    full = score_judgement(
        Judgement(id="t", category="text_completion", subcategory="continuation", items=items), weights
    )
    assert full.score == pytest.approx(100.0)
    w = weights["continuation"]
    half = [{"checklist_id": i, "evaluation_score": s} for i, s in enumerate([0.5, 0, 1, 0.25, 0.75])]
    got = score_judgement(
        Judgement(id="t", category="text_completion", subcategory="continuation", items=half), weights
    )
    assert got.score == pytest.approx(0.5 * w[0] + w[2] + 0.25 * w[3] + 0.75 * w[4])
    assert rescale(75) == 0 and rescale(100) == 100 and rescale(50) == -100


def test_unknown_task_and_missing_judgement_are_unscored() -> None:
    weights = load_weights()
    unknown = score_judgement(Judgement(id="x", category="chat", subcategory=None, items=[]), weights)
    failed = score_judgement(
        Judgement(id="y", category="chat", subcategory="rewrite", items=None, error="bad"), weights
    )
    report = summarise([unknown, failed])
    assert (report.scored, report.unscored) == (0, 2)
    assert report.groups[0].mean is None and report.groups[0].category_score is None
    assert report.unscored_tasks == [("x", "task id not in the task index"), ("y", "bad")]


def test_released_file_of_the_wrong_category_is_refused(hellobench_dir: Path, tmp_path: Path) -> None:
    source = hellobench_dir / "judgements" / "main_exp" / "gpt4o_0806" / "chat_results.jsonl"
    shutil.copy(source, tmp_path / "open_ended_qa_results.jsonl")
    with pytest.raises(HelloBenchDataError, match="belongs to chat, not open_ended_qa"):
        read_judgements(tmp_path)


def test_duplicates_keep_the_first(tmp_path: Path) -> None:
    items = [{"checklist_id": i, "evaluation_score": 1.0, "reason": "r"} for i in range(5)]
    row = {"id": "text_completion_000", "instruction": "i", "response": "r", "checklist_wise_evaluation": items}
    worse = {**row, "checklist_wise_evaluation": [{**i, "evaluation_score": 0.0} for i in items]}
    (tmp_path / "text_completion_results.jsonl").write_text(json.dumps(row) + "\n" + json.dumps(worse) + "\n")
    report = score_released(tmp_path)
    assert report.duplicates == ["text_completion_000"]
    assert report.groups[0].mean == pytest.approx(100.0)
