"""`longeval write` inputs: which record to write, and the writer configuration from defaults, file and flags."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import typer
from pydantic import ValidationError

from longeval.agents.config import WriterConfig
from longeval.data.records import DOMAINS, Record, Section
from longeval.settings import load_config_file, merge_config


def slug(text: str, limit: int = 48) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit] or "document"


def record_hash(record: Record) -> str:
    return hashlib.sha256(record.model_dump_json().encode()).hexdigest()[:16]


def _check_domain(domain: str | None) -> None:
    if domain is not None and domain not in DOMAINS:
        raise typer.BadParameter(f"unknown domain {domain!r}; use one of {', '.join(DOMAINS)}", param_hint="--domain")


def resolve_record(
    *,
    record_file: Path | None,
    record_id: str | None,
    sample: str | None,
    title: str | None,
    brief: str | None,
    sections: int,
    words: int,
    domain: str | None,
) -> Record:
    """Exactly one of --record, --sample, --title names the document to write."""
    chosen = [flag for flag, value in (("--record", record_file), ("--sample", sample), ("--title", title)) if value]
    if len(chosen) != 1:
        given = ", ".join(chosen) if chosen else "none"
        raise typer.BadParameter(f"give exactly one of --record, --sample or --title (given: {given})")
    _check_domain(domain)
    if record_id is not None and record_file is None:
        raise typer.BadParameter("--id picks a record of --record FILE", param_hint="--id")
    if title is not None:
        per_section = max(1, words // sections)
        return Record(
            id=slug(title),
            domain=domain or "blog",  # type: ignore[arg-type]
            title=title,
            brief=brief or "",
            sections=[Section(heading=f"Section {i}", words=per_section) for i in range(1, sections + 1)],
        )
    if brief is not None:
        raise typer.BadParameter("--brief goes with --title", param_hint="--brief")
    if sample is not None:
        from longeval.data.samples import load_sample

        return load_sample(sample)
    assert record_file is not None
    return _record_from_file(record_file, record_id, domain)


def _record_from_file(path: Path, record_id: str | None, domain: str | None) -> Record:
    from longeval.data.loaders import load_records

    if not path.is_file():
        raise typer.BadParameter(f"{path} does not exist", param_hint="--record")
    records = load_records(path, on_bad_record="fail", domain=domain)
    if not records:
        raise typer.BadParameter(f"{path} holds no records", param_hint="--record")
    if record_id is None:
        return records[0]
    for record in records:
        if record.id == record_id:
            return record
    known = ", ".join(r.id for r in records[:10]) + (" ..." if len(records) > 10 else "")
    raise typer.BadParameter(f"no record with id {record_id!r} in {path}; ids: {known}", param_hint="--id")


def build_config(config_file: Path | None, flags: dict[str, Any], *, title_job: bool) -> WriterConfig:
    """defaults < the config file's [writer] table < flags. A title job plans with `outline` unless told."""
    file_values = load_config_file(config_file).get("writer", {})
    merged = merge_config(file_values, flags)
    if title_job and "planner" not in merged:
        merged["planner"] = "outline"
    try:
        return WriterConfig.model_validate(merged)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise typer.BadParameter(f"writer configuration: {problems}") from exc


def check_same_config(previous: dict[str, Any], config: WriterConfig, record: Record, out: Path) -> None:
    """A rerun on the same folder resumes; a different configuration there would mix two runs."""
    before = previous.get("config", {})
    if previous.get("command") != "write" or "writer" not in before:
        return
    now = {"writer": config.model_dump(mode="json"), "record": record.id}
    changed = sorted(
        k for k in set(before["writer"]) | set(now["writer"]) if before["writer"].get(k) != now["writer"].get(k)
    )
    if changed or before.get("record") != record.id:
        what = ", ".join(changed) if changed else "record"
        raise typer.BadParameter(
            f"{out} holds a run with another configuration (differs in: {what}); choose another --out",
            param_hint="--out",
        )
