"""The records a bench runs on: loaded, filtered by domain, limited per domain, lengths scaled."""

from __future__ import annotations

import hashlib
import json

from longeval.bench.config import BenchConfig, BenchRunError
from longeval.data.records import Record


def scale_lengths(record: Record, scale: float) -> Record:
    """The record with every required length scaled (gold texts unchanged), so the writer and the Len
    metric measure against the same requirement."""
    if scale == 1.0:
        return record
    sections = [
        s.model_copy(update={"words": max(1, round(s.words * scale)) if s.words else 0}) for s in record.sections
    ]
    return record.model_copy(update={"sections": sections})


def select_records(records: list[Record], config: BenchConfig) -> list[Record]:
    """Records of the chosen domains, at most `limit` per domain, in the dataset's order."""
    taken: dict[str, int] = {}
    chosen = []
    for record in records:
        if record.domain not in config.domains:
            continue
        if config.limit is not None and taken.get(record.domain, 0) >= config.limit:
            continue
        taken[record.domain] = taken.get(record.domain, 0) + 1
        chosen.append(scale_lengths(record, config.length_scale))
    return chosen


def load_bench_records(config: BenchConfig) -> list[Record]:
    from longeval.data.loaders import load_records

    records = select_records(load_records(config.dataset, on_bad_record=config.on_bad_record), config)
    if not records:
        raise BenchRunError(f"--dataset {config.dataset}: no records in the domains {', '.join(config.domains)}")
    return records


def dataset_hash(records: list[Record]) -> str:
    """The hash of the records as the bench uses them (after selection and scaling)."""
    payload = json.dumps([r.model_dump(mode="json") for r in records], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()[:16]
