"""Load LongEval records from anywhere, through one entry point.

    load_records("dataset.jsonl")            # our schema, one record a line
    load_records("Paper.parquet")            # the Hugging Face layout (detected per record)
    load_records("sample")                   # the dataset shipped in the package
    load_records("hf:SiweiWu/LongEval")      # through `datasets` (installed and online); ":Paper" picks a split

Every malformed record is reported by id (or index) and field: all of them at once in one
`BadRecordsError` (`on_bad_record="fail"`), or logged and left out (`"skip"`).
`domain` is the domain of records that carry none (HF-layout rows); it wins over a split guessed from
a file name ("Paper.json"), not over a split named in the data. For sources that hold several
domains (`hf:`, `sample`) it selects that domain only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import structlog
from pydantic import ValidationError

from longeval.data.errors import BadRecordsError, DataSourceError, RecordProblem, problems_from_validation
from longeval.data.hf_layout import domain_from_split, is_hf_row, record_from_hf_row
from longeval.data.records import DOMAINS, Domain, Record

log = structlog.get_logger(__name__)

OnBadRecord = Literal["skip", "fail"]
SUFFIXES = (".jsonl", ".json", ".parquet")

# (row or None for an unparseable line, its position for messages, the split it came from)
RawRow = tuple[dict[str, Any] | None, str, str | None]


def row_domain(row: dict[str, Any], default: Domain | None) -> Domain | None:
    value = row.get("domain")
    return value if value in DOMAINS else default  # type: ignore[return-value]


def record_from_row(
    row: dict[str, Any], *, fallback_id: str, domain: Domain | None, source: str
) -> tuple[Record | None, list[RecordProblem]]:
    """One row of either layout to a Record, or the problems that stop it.

    `fallback_id` names a record that has no id (`{domain}-{index}`); `domain` is used when the row
    has none.
    """
    chosen = row_domain(row, domain)
    raw_id = row.get("id")
    record_id = str(raw_id) if raw_id not in (None, "") else fallback_id
    if is_hf_row(row):
        return record_from_hf_row(row, record_id=record_id, domain=chosen, source=source)
    if "domain" not in row and domain is not None:
        row = {**row, "domain": domain}
    try:
        return Record.model_validate({**row, "id": record_id} if raw_id in (None, "") else row), []
    except ValidationError as exc:
        return None, problems_from_validation(exc, record=record_id, source=source)


def _read_jsonl(path: Path) -> Iterator[RawRow]:
    with path.open(encoding="utf-8") as fh:
        for line_no, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                yield None, f"{path}:{line_no}: not valid JSON ({exc.msg})", None
                continue
            yield (row if isinstance(row, dict) else None), f"{path}:{line_no}", None


def _read_json(path: Path) -> Iterator[RawRow]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataSourceError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from exc
    if isinstance(data, dict) and data and all(isinstance(v, list) for v in data.values()):
        for split, rows in data.items():  # {"Paper": [...], "Blog": [...]}
            for i, row in enumerate(rows):
                yield (row if isinstance(row, dict) else None), f"{path} [{split}][{i}]", split
    elif isinstance(data, list):
        for i, row in enumerate(data):
            yield (row if isinstance(row, dict) else None), f"{path} [{i}]", None
    elif isinstance(data, dict):
        yield data, str(path), None
    else:
        raise DataSourceError(f"{path}: expected a list of records or one record, got {type(data).__name__}")


def _read_parquet(path: Path) -> Iterator[RawRow]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except pa.ArrowInvalid as exc:
        raise DataSourceError(f"{path}: not a readable parquet file ({exc})") from exc
    for i, row in enumerate(table.to_pylist()):
        yield row, f"{path} [row {i}]", None


def _file_rows(path: Path) -> Iterator[RawRow]:
    readers = {".jsonl": _read_jsonl, ".json": _read_json, ".parquet": _read_parquet}
    reader = readers.get(path.suffix.lower())
    if reader is None:
        raise DataSourceError(f"{path}: unknown dataset file type; use one of {', '.join(SUFFIXES)}")
    yield from reader(path)


def _hf_rows(spec: str, domain: Domain | None) -> Iterator[RawRow]:
    name, _, only_split = spec.partition(":")
    try:
        import datasets  # optional: pip install 'longeval[hf]'
    except ImportError as exc:
        raise DataSourceError(
            f"hf:{spec} needs the `datasets` package (pip install 'longeval[hf]'); or download the dataset "
            f"and pass its JSON, JSONL or parquet files"
        ) from exc
    try:
        splits = datasets.load_dataset(name)
    except OSError as exc:  # offline, unknown name, no access: datasets raises OSError subclasses
        raise DataSourceError(f"hf:{name}: cannot load from the Hugging Face hub ({exc})") from exc
    for split in splits:
        if only_split and split != only_split:
            continue
        if domain is not None and domain_from_split(split) not in (None, domain):
            continue
        for i, row in enumerate(splits[split]):
            yield dict(row), f"hf:{name} [{split}][{i}]", split


def _source_rows(source: str, domain: Domain | None) -> Iterator[tuple[RawRow, Domain | None]]:
    if source.startswith("hf:"):
        for raw in _hf_rows(source[3:], domain):
            yield raw, domain_from_split(raw[2] or "") or domain
        return
    path = Path(source)
    if not path.exists():
        raise DataSourceError(f"{source}: no such file or directory (or use 'sample' or 'hf:NAME')")
    files = sorted(p for p in path.iterdir() if p.suffix.lower() in SUFFIXES) if path.is_dir() else [path]
    if not files:
        raise DataSourceError(f"{source}: no {', '.join(SUFFIXES)} files in this folder")
    for file in files:
        file_domain = domain or domain_from_split(file.name)
        for raw in _file_rows(file):
            yield raw, (domain_from_split(raw[2]) if raw[2] else None) or file_domain


def load_records(
    source: str | os.PathLike[str],
    *,
    on_bad_record: OnBadRecord = "fail",
    domain: str | None = None,
) -> list[Record]:
    """Records from a path (file or folder), "sample" or "hf:NAME[:SPLIT]"; see the module docstring."""
    if on_bad_record not in ("skip", "fail"):
        raise ValueError(f"on_bad_record must be 'skip' or 'fail', not {on_bad_record!r}")
    if domain is not None and domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}; use one of {', '.join(DOMAINS)}")
    chosen: Domain | None = domain  # type: ignore[assignment]
    source = str(source)
    if source == "sample":
        from longeval.data.samples import load_sample_dataset

        return [r for r in load_sample_dataset() if chosen is None or r.domain == chosen]

    records: list[Record] = []
    problems: list[RecordProblem] = []
    seen: dict[str, str] = {}
    per_domain: dict[str, int] = {}  # ids of records without one: {domain}-{index within that domain}
    for index, ((row, where, _split), source_domain) in enumerate(_source_rows(source, chosen)):
        if row is None:
            problems.append(RecordProblem(f"#{index}", "(record)", "not a JSON object", where))
            continue
        domain_of_row = row_domain(row, source_domain)
        count = per_domain.get(domain_of_row or "", 0)
        per_domain[domain_of_row or ""] = count + 1
        fallback_id = f"{domain_of_row}-{count}" if domain_of_row else f"#{index}"
        record, found = record_from_row(row, fallback_id=fallback_id, domain=domain_of_row, source=where)
        if record is not None and record.id in seen:
            found = [RecordProblem(record.id, "id", f"duplicate id (first at {seen[record.id]})", where)]
        if found:
            problems.extend(found)
            continue
        assert record is not None
        seen[record.id] = where
        records.append(record)
    if problems and on_bad_record == "fail":
        raise BadRecordsError(problems)
    for problem in problems:
        log.warning(
            "record.skipped", record=problem.record, field=problem.field, problem=problem.message, source=problem.source
        )
    return records


def write_records_jsonl(path: Path, records: list[Record]) -> None:
    """Write records as JSON lines, atomically (a kill never leaves half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for record in records:
            fh.write(record.model_dump_json() + "\n")
    os.replace(tmp, path)
