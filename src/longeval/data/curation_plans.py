"""Writing content plans (one model call per section, purpose `curate.plan`) and the curation run.

Resumable twice over: records already in the output file with every plan written are reused as
they are, and each plan is appended to a side cache (`OUT.plans.cache`) the moment it arrives, so a
killed run asks again only for the plans it never got.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from longeval.aio import gather_or_cancel
from longeval.data.curation import (
    CurationResult,
    CurationSettings,
    DroppedDocument,
    drop_reasons,
    record_from_document,
)
from longeval.data.loaders import load_records, write_records_jsonl
from longeval.data.records import Record, Section
from longeval.data.splitters import DocumentFormat, UnknownFormatError, split_document
from longeval.llm.types import ChatModel
from longeval.prompts import load_prompt
from longeval.runs import JsonlStore

PURPOSE = "curate.plan"


class PlanError(RuntimeError):
    """The model gave no usable plan for a section."""


class CurationProgress(Protocol):
    def document(self, source: str) -> None: ...
    def planning(self, record_id: str, sections: int) -> None: ...
    def section_planned(self) -> None: ...


class _Silent:
    def document(self, source: str) -> None: ...
    def planning(self, record_id: str, sections: int) -> None: ...
    def section_planned(self) -> None: ...


def side_cache_path(out: Path) -> Path:
    """`peps.jsonl` -> `peps.plans.cache` (JSON lines; a suffix no dataset loader picks up)."""
    return out.with_name(out.stem + ".plans.cache")


class PlanCache:
    """Plans keyed by (model, prompt, title, heading, section text)."""

    def __init__(self, path: Path) -> None:
        self.store = JsonlStore(path, key=lambda row: str(row["key"]))

    @staticmethod
    def key(model: str, prompt_hash: str, title: str, section: Section) -> str:
        material = "\x1f".join([model, prompt_hash, title, section.heading, section.text])
        return hashlib.sha256(material.encode()).hexdigest()[:24]

    def get(self, key: str) -> str | None:
        row = self.store.get(key)
        return str(row["plan"]) if row else None

    def put(self, key: str, *, record_id: str, heading: str, plan: str, model: str) -> None:
        self.store.append({"key": key, "record_id": record_id, "heading": heading, "plan": plan, "model": model})


def clean_plan(text: str, *, truncated: bool) -> str:
    """One paragraph: labels, list markers and a sentence cut off by the token limit removed."""
    text = re.sub(r"^\s*(content plan|plan)\s*:\s*", "", text.strip(), flags=re.I)
    lines = [re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", line).strip() for line in text.splitlines()]
    text = " ".join(line for line in lines if line).strip().strip('"').strip()
    if truncated and not text.endswith((".", "!", "?")):
        last_end = max(text.rfind(". "), text.rfind("! "), text.rfind("? "))
        text = text[: last_end + 1] if last_end > 0 else text
    return text


def _excerpt(text: str, max_words: int) -> str:
    words = text.split()
    return text if len(words) <= max_words else " ".join(words[:max_words]) + " [...]"


async def write_plans(
    record: Record,
    model: ChatModel,
    settings: CurationSettings,
    cache: PlanCache,
    *,
    concurrency: int = 1,
    progress: CurationProgress | None = None,
) -> tuple[Record, int, int]:
    """The record with every section's plan; and how many plans were requested and reused."""
    prompt = load_prompt("curate_plan")
    progress = progress or _Silent()
    gate = asyncio.Semaphore(concurrency)
    counts = {"requested": 0, "reused": 0}

    async def plan_of(section: Section) -> str:
        key = PlanCache.key(model.name, prompt.hash, record.title, section)
        cached = cache.get(key)
        if cached:
            counts["reused"] += 1
            progress.section_planned()
            return cached
        messages = prompt.render_messages(
            title=record.title, heading=section.heading, text=_excerpt(section.text, settings.max_input_words)
        )
        async with gate:
            completion = await model.complete(
                messages,
                purpose=PURPOSE,
                max_tokens=settings.plan_max_tokens,
                temperature=settings.temperature,
                seed=settings.seed,
            )
        plan = clean_plan(completion.text, truncated=completion.finish_reason == "length")
        if not plan:
            raise PlanError(
                f"record {record.id}, section {section.heading!r}: model {model.name} returned no plan "
                f"(reply {completion.text[:80]!r}, finish_reason {completion.finish_reason})"
            )
        counts["requested"] += 1
        cache.put(key, record_id=record.id, heading=section.heading, plan=plan, model=model.name)
        progress.section_planned()
        return plan

    # One section failing stops the others; their finished plans are already in the cache.
    plans = await gather_or_cancel([plan_of(s) for s in record.sections])
    sections = [s.model_copy(update={"plan": p}) for s, p in zip(record.sections, plans, strict=True)]
    return record.model_copy(update={"sections": sections}), counts["requested"], counts["reused"]


def _same_sections(a: Record, b: Record) -> bool:
    return [(s.heading, s.text) for s in a.sections] == [(s.heading, s.text) for s in b.sections]


def _fully_planned(record: Record) -> bool:
    return all(s.plan.strip() for s in record.sections)


async def curate_files(
    paths: Sequence[Path],
    *,
    settings: CurationSettings,
    model: ChatModel,
    out: Path,
    fmt: DocumentFormat | str = "auto",
    limit: int | None = None,
    concurrency: int = 1,
    progress: CurationProgress | None = None,
) -> CurationResult:
    """Split, filter and plan each document; write the kept records to `out` as each completes."""
    progress = progress or _Silent()
    previous = {r.id: r for r in load_records(out)} if out.exists() else {}
    cache = PlanCache(side_cache_path(out))
    result = CurationResult()
    touched: set[str] = set()

    def save() -> None:
        kept_before = [r for rid, r in previous.items() if rid not in touched]
        write_records_jsonl(out, [*kept_before, *result.records])

    for path in paths:
        if limit is not None and len(result.records) >= limit:
            break
        progress.document(str(path))
        try:
            text = path.read_text(encoding="utf-8")
            document = split_document(text, fmt, name=path.name)
        except (UnicodeDecodeError, UnknownFormatError) as exc:
            result.dropped.append(DroppedDocument(str(path), [f"unreadable: {exc}"]))
            continue
        record = record_from_document(
            document, source=path, domain=settings.domain, section_depth=settings.section_depth
        )
        if record is None:
            result.dropped.append(DroppedDocument(str(path), ["no sections with text found (is --format right?)"]))
            continue
        touched.add(record.id)
        reasons = drop_reasons(record, settings)
        if reasons:
            result.dropped.append(DroppedDocument(str(path), reasons))
            save()  # a record dropped now (stricter filters) leaves the output file too
            continue
        old = previous.get(record.id)
        if old is not None and _same_sections(old, record) and _fully_planned(old):
            result.records.append(old)
            result.plans_reused += len(old.sections)
            continue
        progress.planning(record.id, len(record.sections))
        planned, requested, reused = await write_plans(
            record, model, settings, cache, concurrency=concurrency, progress=progress
        )
        result.plans_requested += requested
        result.plans_reused += reused
        result.records.append(planned)
        save()
    save()
    return result
