"""A run folder: provenance, append-only results files, resume.

Everything a run writes lives in its folder. Results are JSON lines appended as work
completes; a rerun on the same folder reads the keys already written and skips that work, so a
crash or kill loses at most the line being written (a torn last line is cut off on reopen).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import structlog

from longeval import __version__

log = structlog.get_logger(__name__)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class JsonlStore:
    """An append-only JSON-lines file that knows which keys it holds.

    `key` maps a row to its identity; appending a row whose key is already present is a no-op,
    so a resumed run never writes a result twice.
    """

    def __init__(self, path: Path, key: Callable[[dict[str, Any]], str]) -> None:
        self.path = path
        self._key = key
        self._rows: dict[str, dict[str, Any]] = {}
        self._load()

    def _load(self) -> None:
        if not self.path.exists():
            return
        raw = self.path.read_bytes()
        good_end = 0
        for line_no, line in enumerate(raw.splitlines(keepends=True), start=1):
            if not line.endswith(b"\n"):
                log.warning("jsonl.torn_line_dropped", path=str(self.path), line=line_no)
                break
            stripped = line.strip()
            if stripped:
                try:
                    row = json.loads(stripped)
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{self.path}:{line_no}: not valid JSON ({exc.msg})") from exc
                self._rows[self._key(row)] = row
            good_end += len(line)
        if good_end < len(raw):
            with self.path.open("r+b") as fh:
                fh.truncate(good_end)

    def __contains__(self, key: str) -> bool:
        return key in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, key: str) -> dict[str, Any] | None:
        return self._rows.get(key)

    def rows(self) -> list[dict[str, Any]]:
        return list(self._rows.values())

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(list(self._rows.values()))

    def append(self, row: dict[str, Any]) -> bool:
        """Write `row` unless its key is present; True when written."""
        key = self._key(row)
        if key in self._rows:
            return False
        self.path.parent.mkdir(parents=True, exist_ok=True)
        line = json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n"
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(line)
            fh.flush()
            os.fsync(fh.fileno())
        self._rows[key] = row
        return True


def append_jsonl(path: Path, row: dict[str, Any]) -> None:
    """Append one line to a log-like file (traces), without identity checks."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{line_no}: not valid JSON ({exc.msg})") from exc
    return rows


def git_commit() -> str | None:
    """The source tree's commit, when the package runs from a git checkout."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=here, capture_output=True, text=True, timeout=5, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout.strip() or None


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def generation_key(row: dict[str, Any]) -> str:
    return str(row["doc_id"])


def score_key(row: dict[str, Any]) -> str:
    return f"{row['doc_id']}|{row['metric']}|{row['judge']}|{row.get('repeat', 0)}"


@dataclass
class RunDir:
    """The files of one run. Creating it makes the folder; nothing is written outside it."""

    path: Path

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        self.path.mkdir(parents=True, exist_ok=True)

    run_json = property(lambda self: self.path / "run.json")
    records_path = property(lambda self: self.path / "records.jsonl")  # the inputs, so later stages run alone
    generations_path = property(lambda self: self.path / "generations.jsonl")
    scores_path = property(lambda self: self.path / "scores.jsonl")
    trace_path = property(lambda self: self.path / "trace.jsonl")
    usage_path = property(lambda self: self.path / "usage.json")
    cache_path = property(lambda self: self.path / "cache.sqlite")
    checkpoints_path = property(lambda self: self.path / "checkpoints.sqlite")
    report_path = property(lambda self: self.path / "report.md")

    def records(self) -> JsonlStore:
        return JsonlStore(self.records_path, lambda row: str(row["id"]))

    def generations(self) -> JsonlStore:
        return JsonlStore(self.generations_path, generation_key)

    def scores(self) -> JsonlStore:
        return JsonlStore(self.scores_path, score_key)

    def read_provenance(self) -> dict[str, Any]:
        if not self.run_json.exists():
            return {}
        return json.loads(self.run_json.read_text(encoding="utf-8"))

    def start(
        self,
        *,
        command: str,
        config: dict[str, Any],
        models: dict[str, str],
        endpoints: dict[str, str],
        dataset_hash: str | None,
        seed: int,
        prompt_hashes: dict[str, str],
    ) -> dict[str, Any]:
        """Record provenance; a resumed run keeps its first start and counts its resumes."""
        previous = self.read_provenance()
        provenance = {
            "package": "longeval",
            "version": __version__,
            "git_commit": git_commit(),
            "python": sys.version.split()[0],
            "command": command,
            "config": config,
            "models": models,
            "endpoints": endpoints,
            "prompt_hashes": prompt_hashes,
            "dataset_hash": dataset_hash,
            "seed": seed,
            "started": previous.get("started", now_iso()),
            "resumed": previous.get("resumed", -1) + 1,
            "finished": None,
        }
        self._write_json(self.run_json, provenance)
        return provenance

    def finish(self, **extra: Any) -> None:
        provenance = self.read_provenance()
        provenance.update(extra)
        provenance["finished"] = now_iso()
        self._write_json(self.run_json, provenance)

    def update(self, **extra: Any) -> None:
        """Add keys to run.json without marking the run finished (a session's running totals)."""
        provenance = self.read_provenance()
        provenance.update(extra)
        self._write_json(self.run_json, provenance)

    def write_usage(self, usage: dict[str, Any]) -> None:
        self._write_json(self.usage_path, usage)

    @staticmethod
    def _write_json(path: Path, data: dict[str, Any]) -> None:
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)  # atomic: a kill never leaves half a run.json
