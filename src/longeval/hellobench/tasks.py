"""HelloBench's tasks, checklists and human-fitted checklist weights.

A task folder has HelloBench's layout:

    data/main_data/{category}.jsonl                  (summarization may be summarization_reconstructed.jsonl)
    data/length_constrained_data/heuristic_text_generation_{2k,4k,8k,16k}.jsonl
    checklists/{category}_checklist.json             ({sub-category: [checklist item, ...]})
    weighted_scores.txt                              (REGRESSION_DICT = {sub-category: [weight, ...]})

A task file's `category` field holds the sub-category (e.g. `report_write`); the five categories
are the file names. The weights and an index of task id -> (category, sub-category) ship with the
package, so scoring needs no task folder.
"""

from __future__ import annotations

import ast
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel, Field, ValidationError

Category = Literal["open_ended_qa", "summarization", "chat", "text_completion", "heuristic_text_generation"]
CATEGORIES: tuple[Category, ...] = get_args(Category)
LengthConstraint = Literal["2k", "4k", "8k", "16k"]
LENGTH_CONSTRAINTS: dict[str, int] = {"2k": 2000, "4k": 4000, "8k": 8000, "16k": 16000}
LENGTH_CONSTRAINED_CATEGORY: Category = "heuristic_text_generation"


class HelloBenchDataError(ValueError):
    """A task folder, task file or weights file that cannot be used; the message names file and field."""


class Task(BaseModel):
    id: str
    category: Category
    subcategory: str
    instruction: str
    checklist: list[str] = Field(min_length=1)
    length_constraint: LengthConstraint | None = None

    @property
    def required_words(self) -> int | None:
        return LENGTH_CONSTRAINTS[self.length_constraint] if self.length_constraint else None


class _TaskRow(BaseModel):
    """One line of a HelloBench task file, as released."""

    id: str
    category: str
    instruction: str
    checklists: list[str] | None = None


def parse_weights_text(text: str, *, source: str = "weighted_scores.txt") -> dict[str, list[float]]:
    """Read `REGRESSION_DICT = {...}` as data: the file is parsed, never executed."""
    try:
        tree = ast.parse(text, filename=source)
    except SyntaxError as exc:
        raise HelloBenchDataError(f"{source}: not a Python literal file ({exc.msg}, line {exc.lineno})") from exc
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "REGRESSION_DICT" for t in node.targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError as exc:
                raise HelloBenchDataError(f"{source}: REGRESSION_DICT is not a plain literal ({exc})") from exc
            return _validate_weights(value, source)
    raise HelloBenchDataError(f"{source}: no `REGRESSION_DICT = {{...}}` assignment found")


def _validate_weights(value: Any, source: str) -> dict[str, list[float]]:
    if not isinstance(value, dict) or not value:
        raise HelloBenchDataError(f"{source}: REGRESSION_DICT must be a non-empty dict")
    weights: dict[str, list[float]] = {}
    for subcategory, row in value.items():
        if not isinstance(row, list) or not row or not all(isinstance(w, int | float) for w in row):
            raise HelloBenchDataError(f"{source}: weights of {subcategory!r} must be a non-empty list of numbers")
        if abs(sum(row) - 100) > 1e-6:
            raise HelloBenchDataError(f"{source}: weights of {subcategory!r} sum to {sum(row)}, not 100")
        weights[str(subcategory)] = [float(w) for w in row]
    return weights


def _package_json(name: str) -> dict[str, Any]:
    return json.loads((resources.files("longeval.hellobench") / name).read_text(encoding="utf-8"))


@cache
def load_weights() -> dict[str, tuple[float, ...]]:
    """The shipped checklist weights per sub-category (each sums to 100)."""
    return {k: tuple(v) for k, v in _validate_weights(_package_json("weights.json")["weights"], "weights.json").items()}


@cache
def load_task_index() -> dict[str, tuple[Category, str]]:
    """The shipped index: task id -> (category, sub-category), for re-scoring without the task folder."""
    tasks = _package_json("task_index.json")["tasks"]
    return {task_id: (entry["category"], entry["subcategory"]) for task_id, entry in tasks.items()}


def task_file(data_dir: Path, category: Category, length_constraint: LengthConstraint | None = None) -> Path:
    if length_constraint is not None:
        if category != LENGTH_CONSTRAINED_CATEGORY:
            raise HelloBenchDataError(
                f"--length-constraint applies to {LENGTH_CONSTRAINED_CATEGORY} only, not {category}"
            )
        path = data_dir / "data" / "length_constrained_data" / f"{category}_{length_constraint}.jsonl"
    else:
        path = data_dir / "data" / "main_data" / f"{category}.jsonl"
        if not path.exists() and category == "summarization":
            path = path.with_name("summarization_reconstructed.jsonl")
    if not path.is_file():
        raise HelloBenchDataError(f"{data_dir}: no task file for {category} (looked for {path})")
    return path


def load_checklists(data_dir: Path, category: Category) -> dict[str, list[str]]:
    path = data_dir / "checklists" / f"{category}_checklist.json"
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise HelloBenchDataError(f"{path}: not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise HelloBenchDataError(f"{path}: expected an object of sub-category -> checklist items")
    return data


def load_tasks(
    data_dir: Path,
    categories: list[Category] | None = None,
    length_constraint: LengthConstraint | None = None,
) -> list[Task]:
    """The tasks of the chosen categories (all five by default), with their checklists."""
    data_dir = Path(data_dir)
    if not data_dir.is_dir():
        raise HelloBenchDataError(f"--data: {data_dir} is not a folder")
    if length_constraint is not None:
        categories = categories or [LENGTH_CONSTRAINED_CATEGORY]
    weights = load_weights()
    tasks: list[Task] = []
    for category in categories or list(CATEGORIES):
        path = task_file(data_dir, category, length_constraint)
        checklists = load_checklists(data_dir, category)
        for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                tasks.append(_task_from_line(line, f"{path}:{line_no}", category, checklists, length_constraint))
    for task in tasks:
        expected = weights.get(task.subcategory)
        if expected is None:
            raise HelloBenchDataError(f"task {task.id}: sub-category {task.subcategory!r} has no checklist weights")
        if len(expected) != len(task.checklist):
            raise HelloBenchDataError(
                f"task {task.id}: {len(task.checklist)} checklist items but {len(expected)} weights "
                f"for {task.subcategory!r}"
            )
    return tasks


def _task_from_line(
    line: str,
    where: str,
    category: Category,
    checklists: dict[str, list[str]],
    length_constraint: LengthConstraint | None,
) -> Task:
    try:
        row = _TaskRow.model_validate_json(line)
    except ValidationError as exc:
        fields = ", ".join(".".join(map(str, e["loc"])) or "line" for e in exc.errors())
        raise HelloBenchDataError(f"{where}: malformed task (fields: {fields})") from exc
    checklist = row.checklists or checklists.get(row.category)
    if not checklist:
        raise HelloBenchDataError(
            f"{where}: task {row.id} has no `checklists` and the checklist file has none for {row.category!r}"
        )
    return Task(
        id=row.id,
        category=category,
        subcategory=row.category,
        instruction=row.instruction,
        checklist=checklist,
        length_constraint=length_constraint,
    )


def task_index_from_folder(data_dir: Path) -> dict[str, tuple[Category, str]]:
    """Task id -> (category, sub-category) read from a task folder instead of the shipped index."""
    return {task.id: (task.category, task.subcategory) for task in load_tasks(data_dir)}
