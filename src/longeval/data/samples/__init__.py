"""The sample dataset shipped in the package: one record (our schema) per `*.json` file in this folder.

    list_samples()           # ["arxiv-sparse-retrieval", ...]: file names without ".json"
    load_sample(name)        # one Record; an unknown name gets a "did you mean"
    load_sample_dataset()    # every sample, in name order

It lets every command run offline (`--sample NAME`, `--dataset sample`).
"""

from __future__ import annotations

import difflib
import json
from importlib import resources
from importlib.resources.abc import Traversable

from longeval.data.errors import BadRecordsError, RecordProblem
from longeval.data.records import Record
from longeval.registry import UnknownNameError


def samples_root() -> Traversable:
    return resources.files(__name__)


def list_samples() -> list[str]:
    return sorted(p.name.removesuffix(".json") for p in samples_root().iterdir() if p.name.endswith(".json"))


def _parse(name: str) -> Record:
    from longeval.data.loaders import record_from_row

    path = samples_root() / f"{name}.json"
    try:
        row = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BadRecordsError([RecordProblem(name, "(file)", f"not valid JSON ({exc.msg})", f"sample {name}")]) from exc
    if not isinstance(row, dict):
        raise BadRecordsError([RecordProblem(name, "(file)", "expected one record (a JSON object)", f"sample {name}")])
    record, problems = record_from_row(row, fallback_id=name, domain=None, source=f"sample {name}.json")
    if problems:
        raise BadRecordsError(problems)
    assert record is not None
    return record


def load_sample(name: str) -> Record:
    known = list_samples()
    if name not in known:
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.4)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise UnknownNameError(f"unknown sample {name!r}.{hint} Known: {', '.join(known) or '(none shipped)'}")
    return _parse(name)


def load_sample_dataset() -> list[Record]:
    """Every shipped sample; all problems of all files are reported together."""
    records: list[Record] = []
    problems: list[RecordProblem] = []
    for name in list_samples():
        try:
            records.append(_parse(name))
        except BadRecordsError as exc:
            problems.extend(exc.problems)
    if problems:
        raise BadRecordsError(problems)
    return records
