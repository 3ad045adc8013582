"""Tasks, checklists and weights: parsed as data from HelloBench's layout, shipped with the package."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from longeval.hellobench.tasks import (
    HelloBenchDataError,
    load_task_index,
    load_tasks,
    load_weights,
    parse_weights_text,
)


def test_shipped_weights_equal_the_released_file(hellobench_dir: Path) -> None:
    parsed = parse_weights_text((hellobench_dir / "weighted_scores.txt").read_text(encoding="utf-8"))
    assert {k: tuple(v) for k, v in parsed.items()} == load_weights()
    assert len(parsed) == 38
    assert all(sum(w) == pytest.approx(100) for w in parsed.values())


def test_weights_file_is_parsed_never_executed() -> None:
    # Executing this text would exit the interpreter before the dict; parsing it reads the dict.
    text = "raise SystemExit('executed')\nREGRESSION_DICT = {'x': [40.0, 60.0]}\n"
    assert parse_weights_text(text) == {"x": [40.0, 60.0]}
    with pytest.raises(HelloBenchDataError, match="not a plain literal"):
        parse_weights_text("REGRESSION_DICT = {'x': [__import__('os').getpid()]}")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("WEIGHTS = {'x': [100]}", "no `REGRESSION_DICT"),
        ("REGRESSION_DICT = {'x': [50, 40]}", "sum to 90"),
        ("REGRESSION_DICT = {'x': []}", "non-empty list"),
        ("REGRESSION_DICT = {", "not a Python literal file"),
    ],
)
def test_bad_weights_files_are_refused(text: str, message: str) -> None:
    with pytest.raises(HelloBenchDataError, match=message):
        parse_weights_text(text)


def test_load_all_tasks(hellobench_dir: Path) -> None:
    tasks = load_tasks(hellobench_dir)
    assert len(tasks) == 647
    assert Counter(t.category for t in tasks) == {
        "open_ended_qa": 200,
        "summarization": 100,
        "chat": 147,
        "text_completion": 77,
        "heuristic_text_generation": 123,
    }
    weights = load_weights()
    assert all(len(t.checklist) == len(weights[t.subcategory]) for t in tasks)
    # summarization tasks take their checklist from checklists/summarization_checklist.json
    assert {len(t.checklist) for t in tasks if t.category == "summarization"} == {6, 7}


def test_shipped_task_index_matches_the_task_files(hellobench_dir: Path) -> None:
    assert load_task_index() == {t.id: (t.category, t.subcategory) for t in load_tasks(hellobench_dir)}


def test_length_constrained_tasks(hellobench_dir: Path) -> None:
    tasks = load_tasks(hellobench_dir, length_constraint="8k")
    assert len(tasks) == 123
    assert {t.category for t in tasks} == {"heuristic_text_generation"}
    assert {t.required_words for t in tasks} == {8000}
    assert "8000" in tasks[0].instruction
    with pytest.raises(HelloBenchDataError, match="applies to heuristic_text_generation only"):
        load_tasks(hellobench_dir, ["chat"], "2k")


def test_one_category(hellobench_dir: Path) -> None:
    tasks = load_tasks(hellobench_dir, ["text_completion"])
    assert len(tasks) == 77
    assert {t.category for t in tasks} == {"text_completion"}


def test_malformed_task_line_names_file_and_line(tmp_path: Path) -> None:
    main = tmp_path / "data" / "main_data"
    main.mkdir(parents=True)
    good = json.dumps(
        {"id": "chat_1", "category": "rewrite", "instruction": "Rewrite it.", "checklists": list("abcdef")}
    )
    (main / "chat.jsonl").write_text(good + '\n{"id": "chat_2", "category": "rewrite"}\n', encoding="utf-8")
    with pytest.raises(HelloBenchDataError, match=r"chat.jsonl:2: malformed task \(fields: instruction\)"):
        load_tasks(tmp_path, ["chat"])


def test_checklist_length_must_match_weights(tmp_path: Path) -> None:
    main = tmp_path / "data" / "main_data"
    main.mkdir(parents=True)
    row = '{"id": "chat_1", "category": "rewrite", "instruction": "Rewrite it.", "checklists": ["a", "b"]}'
    (main / "chat.jsonl").write_text(row + "\n", encoding="utf-8")
    with pytest.raises(HelloBenchDataError, match="task chat_1: 2 checklist items but 6 weights"):
        load_tasks(tmp_path, ["chat"])


def test_missing_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(HelloBenchDataError, match="no task file for chat"):
        load_tasks(tmp_path, ["chat"])
    with pytest.raises(HelloBenchDataError, match="is not a folder"):
        load_tasks(tmp_path / "absent")
