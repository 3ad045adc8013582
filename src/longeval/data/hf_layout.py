"""The Hugging Face layout of `SiweiWu/LongEval` to our `Record`.

A row holds `title, headlines, bullet_points, sections, length_requirement, related_work_ref,
experiment_results`; lists are parallel (one entry per section) and `['']` means none. Bullet points
(a string or a list of strings per section) become the section's plan; `length_requirement` the
words to write, falling back to the gold length.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from longeval.data.errors import RecordProblem, problems_from_validation
from longeval.data.records import DOMAINS, Domain, Record, Section

REQUIRED_HF_FIELDS = ("title", "headlines", "sections")
SPLIT_DOMAINS: dict[str, Domain] = {
    "paper": "arxiv",
    "arxiv": "arxiv",
    "blog": "blog",
    "wikipedia": "wikipedia",
}


def is_hf_row(row: dict[str, Any]) -> bool:
    return (
        "headlines" in row
        or "bullet_points" in row
        or (isinstance(row.get("sections"), list) and all(isinstance(s, str) for s in row["sections"]))
    )


def domain_from_split(name: str) -> Domain | None:
    """'Paper' -> arxiv, 'wikipedia-00000.parquet' -> wikipedia; None when the name does not tell."""
    for token in re.split(r"[^a-z]+", name.lower()):
        if token in SPLIT_DOMAINS:
            return SPLIT_DOMAINS[token]
    return None


def _none_if_empty(value: Any) -> Any:
    """`['']`, `[]`, `''` and None all mean "none" in this layout."""
    if value is None or value == "" or (isinstance(value, list) and all(v in ("", None) for v in value)):
        return None
    return value


def _texts(value: Any, field: str, problems: list[str]) -> list[str]:
    value = _none_if_empty(value)
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v for v in value if v.strip()]
    problems.append(f"{field}: expected a list of strings, got {type(value).__name__}")
    return []


def _plan(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return " ".join(v.strip() for v in value if v.strip())
    return None


def _words(value: Any) -> int | None:
    """A length requirement: a number or a numeric string; 0 where absent (gold length is used)."""
    if value is None or value == "":
        return 0
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and value >= 0:
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*\d+(\.\d+)?\s*", value):
        return int(float(value))
    return None


def record_from_hf_row(
    row: dict[str, Any], *, record_id: str, domain: Domain | None, source: str
) -> tuple[Record | None, list[RecordProblem]]:
    problems: list[RecordProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(RecordProblem(record_id, field, message, source))

    for name in REQUIRED_HF_FIELDS:
        if name not in row:
            problem(name, "missing field")
    if domain is None:
        problem("domain", f"cannot tell the domain: no domain field, split or --domain (one of {', '.join(DOMAINS)})")
    if problems:
        return None, problems

    headlines, gold = row["headlines"], row["sections"]
    if not isinstance(headlines, list) or not all(isinstance(h, str) for h in headlines):
        problem("headlines", "expected a list of strings")
    if not isinstance(gold, list) or not all(isinstance(s, str) for s in gold):
        problem("sections", "expected a list of strings (the gold text of each section)")
    if problems:
        return None, problems
    if len(headlines) != len(gold):
        problem("sections", f"{len(gold)} sections for {len(headlines)} headlines")
    for i, text in enumerate(gold):
        if not text.strip():
            problem(f"sections.{i}", "empty section")
    for i, heading in enumerate(headlines):
        if not heading.strip():
            problem(f"headlines.{i}", "empty headline")

    bullets = _none_if_empty(row.get("bullet_points"))
    plans: list[str] = [""] * len(gold)
    if bullets is not None:
        if not isinstance(bullets, list) or len(bullets) != len(gold):
            count = len(bullets) if isinstance(bullets, list) else type(bullets).__name__
            problem("bullet_points", f"{count} plans for {len(gold)} sections")
        else:
            for i, bullet in enumerate(bullets):
                plan = _plan(bullet)
                if plan is None:
                    problem(f"bullet_points.{i}", "expected a string or a list of strings")
                else:
                    plans[i] = plan

    lengths = _none_if_empty(row.get("length_requirement"))
    words: list[int] = [0] * len(gold)
    if isinstance(lengths, list):
        if len(lengths) != len(gold):
            problem("length_requirement", f"{len(lengths)} lengths for {len(gold)} sections")
        else:
            for i, value in enumerate(lengths):
                parsed = _words(value)
                if parsed is None:
                    problem(f"length_requirement.{i}", f"not a word count: {value!r}")
                else:
                    words[i] = parsed
    elif lengths is not None and _words(lengths) is None:
        problem("length_requirement", f"not a word count: {lengths!r}")
    # A single number is a whole-document budget; per-section words then fall back to gold lengths.

    text_problems: list[str] = []
    references = _texts(row.get("related_work_ref"), "related_work_ref", text_problems)
    results = _texts(row.get("experiment_results"), "experiment_results", text_problems)
    for message in text_problems:
        field, _, detail = message.partition(": ")
        problem(field, detail)
    if problems:
        return None, problems

    try:
        record = Record(
            id=record_id,
            domain=domain,
            title=row["title"],
            sections=[
                Section(heading=h.strip(), text=t, plan=p, words=w)
                for h, t, p, w in zip(headlines, gold, plans, words, strict=True)
            ],
            references=references,
            experiment_results=results,
        )
    except ValidationError as exc:
        return None, problems_from_validation(exc, record=record_id, source=source)
    return record, []
