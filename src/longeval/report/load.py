"""Reading a run folder for a report: provenance, records, generations, scores and usage.

Reading never writes: a report may run while a bench is still appending, so a torn last line
(a write in progress) is left alone and ignored here rather than cut off.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from longeval.data.records import Domain, GeneratedDocument, Paradigm, Record

T = TypeVar("T", bound=BaseModel)


class RunReadError(ValueError):
    """A run folder that cannot be reported on: names the file and line."""


class ScoreRow(BaseModel):
    """One line of `scores.jsonl`, as the evaluation writes it."""

    model_config = ConfigDict(extra="allow")

    doc_id: str
    record_id: str
    domain: Domain
    writer: str
    paradigm: Paradigm
    planner: str
    metric: str
    judge: str
    repeat: int = 0
    value: float | None
    unscored: bool = False
    explanation: str = ""
    metadata: dict[str, Any] = {}


@dataclass
class RunData:
    path: Path
    label: str
    provenance: dict[str, Any]
    records: dict[str, Record]
    documents: list[GeneratedDocument]
    scores: list[dict[str, Any]]  # validated as ScoreRow, kept as written
    usage: dict[str, Any] = field(default_factory=dict)

    @property
    def judges(self) -> list[str]:
        """Judges that scored something; deterministic rows (judge "none") serve every judge."""
        from longeval.evaluators.base import NO_JUDGE

        return sorted({row["judge"] for row in self.scores if row["judge"] != NO_JUDGE}) or [NO_JUDGE]


def complete_lines(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSONL file with their line numbers, ignoring a last line still being written."""
    if not path.exists():
        return []
    rows = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(keepends=True), start=1):
        if not line.endswith("\n"):
            break
        if line.strip():
            try:
                rows.append((line_no, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise RunReadError(f"{path}:{line_no}: not valid JSON ({exc.msg})") from exc
    return rows


def _parse(model: type[T], path: Path, line_no: int, row: dict[str, Any]) -> T:
    try:
        return model.model_validate(row)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
        raise RunReadError(f"{path}:{line_no}: not a valid {model.__name__} ({problems})") from exc


def read_json(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunReadError(f"{path}: not valid JSON ({exc.msg})") from exc


def load_run(path: Path, *, label: str | None = None) -> RunData:
    path = Path(path)
    if not path.is_dir():
        raise RunReadError(f"--run: {path} is not a run folder")
    if not (path / "run.json").exists() and not (path / "generations.jsonl").exists():
        raise RunReadError(f"--run: {path} holds neither run.json nor generations.jsonl")
    records: dict[str, Record] = {}
    for line_no, row in complete_lines(path / "records.jsonl"):
        record = _parse(Record, path / "records.jsonl", line_no, row)
        records[record.id] = record
    documents: dict[str, GeneratedDocument] = {}
    for line_no, row in complete_lines(path / "generations.jsonl"):
        document = _parse(GeneratedDocument, path / "generations.jsonl", line_no, row)
        documents[document.doc_id] = document
    scores = []
    for line_no, row in complete_lines(path / "scores.jsonl"):
        _parse(ScoreRow, path / "scores.jsonl", line_no, row)
        scores.append(row)
    return RunData(
        path=path,
        label=label or path.name,
        provenance=read_json(path / "run.json"),
        records=records,
        documents=list(documents.values()),
        scores=scores,
        usage=read_json(path / "usage.json"),
    )


def load_runs(paths: list[Path]) -> list[RunData]:
    """Several runs; labels are folder names, made unique with their parents where two collide."""
    labels = [Path(p).name for p in paths]
    if len(set(labels)) < len(labels):
        labels = [f"{Path(p).parent.name}/{Path(p).name}" for p in paths]
    return [load_run(p, label=label) for p, label in zip(paths, labels, strict=True)]
