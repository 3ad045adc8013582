"""Reading judgements and outputs: this project's run folders and HelloBench's released results files.

Released files are named `{category}_results.jsonl` or `{category}_{2k|4k|8k|16k}_results.jsonl` and
hold `id, instruction, response, checklist_wise_evaluation` per line; a folder of them is one model
(named after the folder), and a folder of such folders is several models.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from longeval.hellobench.judging import METRIC
from longeval.hellobench.scoring import Judgement
from longeval.hellobench.tasks import CATEGORIES, Category, HelloBenchDataError, load_task_index
from longeval.runs import read_jsonl

_RESULTS_NAME = re.compile(rf"^(?P<category>{'|'.join(CATEGORIES)})(?:_(?P<constraint>2k|4k|8k|16k))?_results\.jsonl$")


class ReleasedRow(BaseModel):
    id: str
    response: str
    checklist_wise_evaluation: list[dict[str, Any]] | None = None


class Output(BaseModel):
    """One generated response, for the length and error analysis."""

    id: str
    model: str
    length_constraint: str | None
    response: str


def is_run_folder(path: Path) -> bool:
    return path.is_dir() and (path / "generations.jsonl").is_file()


def parse_results_name(path: Path) -> tuple[Category, str | None]:
    match = _RESULTS_NAME.match(path.name)
    if match is None:
        raise HelloBenchDataError(
            f"{path}: not a HelloBench results file name ({{category}}[_2k|_4k|_8k|_16k]_results.jsonl)"
        )
    return match["category"], match["constraint"]  # type: ignore[return-value]


def results_files(path: Path) -> list[Path]:
    """The released results files at `path`: the file itself, or those directly in the folder."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise HelloBenchDataError(f"{path} does not exist")
    files = sorted(p for p in path.iterdir() if _RESULTS_NAME.match(p.name))
    if not files:
        raise HelloBenchDataError(f"{path}: no *_results.jsonl files and no generations.jsonl")
    return files


def read_released_rows(path: Path) -> list[ReleasedRow]:
    rows = []
    for line_no, raw in enumerate(read_jsonl(path), start=1):
        try:
            rows.append(ReleasedRow.model_validate(raw))
        except ValidationError as exc:
            fields = ", ".join(".".join(map(str, e["loc"])) for e in exc.errors())
            raise HelloBenchDataError(f"{path}:{line_no}: malformed result (fields: {fields})") from exc
    return rows


def _first_of_each(judgements: list[Judgement]) -> tuple[list[Judgement], list[str]]:
    """Keep the first judgement of each (task, constraint), as HelloBench's scorer does; name the rest."""
    seen: set[tuple[str, str | None]] = set()
    kept, duplicates = [], []
    for judgement in judgements:
        key = (judgement.id, judgement.length_constraint)
        if key in seen:
            duplicates.append(judgement.id)
        else:
            seen.add(key)
            kept.append(judgement)
    return kept, duplicates


def read_released_judgements(
    path: Path, index: dict[str, tuple[Category, str]] | None = None
) -> tuple[list[Judgement], list[str]]:
    index = index if index is not None else load_task_index()
    judgements = []
    for file in results_files(path):
        category, constraint = parse_results_name(file)
        for row in read_released_rows(file):
            known = index.get(row.id)
            if known is not None and known[0] != category:
                raise HelloBenchDataError(f"{file}: task {row.id} belongs to {known[0]}, not {category}")
            judgements.append(
                Judgement(
                    id=row.id,
                    category=category,
                    subcategory=known[1] if known else None,
                    length_constraint=constraint,
                    items=row.checklist_wise_evaluation,
                    error=None if row.checklist_wise_evaluation is not None else "no checklist_wise_evaluation",
                )
            )
    return _first_of_each(judgements)


def read_run_judgements(run_dir: Path, judge: str | None = None) -> tuple[list[Judgement], list[str]]:
    rows = [r for r in read_jsonl(run_dir / "scores.jsonl") if r.get("metric") == METRIC]
    judges = sorted({r["judge"] for r in rows})
    if not rows:
        raise HelloBenchDataError(f"{run_dir}: no HelloEval judgements yet; run `longeval hellobench judge` first")
    if judge is None and len(judges) > 1:
        raise HelloBenchDataError(f"{run_dir}: judged by {', '.join(judges)}; choose one with --judge")
    if judge is not None and judge not in judges:
        raise HelloBenchDataError(f"--judge {judge}: not among this run's judges ({', '.join(judges)})")
    chosen = [r for r in rows if judge is None or r["judge"] == judge]
    judgements = [
        Judgement(
            id=r["doc_id"],
            category=r["category"],
            subcategory=r["subcategory"],
            length_constraint=r.get("length_constraint"),
            items=r.get("checklist_wise_evaluation"),
            error=r.get("error"),
        )
        for r in chosen
    ]
    return _first_of_each(judgements)


def read_judgements(
    path: Path, *, judge: str | None = None, index: dict[str, tuple[Category, str]] | None = None
) -> tuple[list[Judgement], list[str]]:
    """Judgements from a run folder, or from released results files (a file or a folder of them)."""
    if is_run_folder(path):
        return read_run_judgements(path, judge)
    return read_released_judgements(path, index)


def read_outputs(path: Path) -> list[Output]:
    """Responses from a run folder, a released results file, a model's folder, or a folder of model folders."""
    if is_run_folder(path):
        return [
            Output(
                id=r["doc_id"], model=r["model"], length_constraint=r.get("length_constraint"), response=r["response"]
            )
            for r in read_jsonl(path / "generations.jsonl")
        ]
    if path.is_dir() and not any(_RESULTS_NAME.match(p.name) for p in path.iterdir()):
        models = sorted(
            p for p in path.iterdir() if p.is_dir() and (is_run_folder(p) or any(p.glob("*_results.jsonl")))
        )
        if not models:
            raise HelloBenchDataError(f"{path}: no generations.jsonl, *_results.jsonl or model folders holding them")
        return [output for model_dir in models for output in read_outputs(model_dir)]
    outputs = []
    for file in results_files(path):
        _, constraint = parse_results_name(file)
        model = file.parent.name
        outputs.extend(
            Output(id=row.id, model=model, length_constraint=constraint, response=row.response)
            for row in read_released_rows(file)
        )
    return outputs
