"""The human check of content plans (the paper's Table 3): a CSV review sheet, out and back in.

Export one row per section; a reviewer fills `adequate` with yes or no (blank: not reviewed).
Applying the sheet drops every record with a plan marked inadequate.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError, field_validator

from longeval.data.records import Record, count_words

COLUMNS = ["record_id", "domain", "section", "heading", "gold_words", "plan_words", "plan", "adequate", "comment"]
_YES = {"yes", "y", "1", "true", "adequate", "ok"}
_NO = {"no", "n", "0", "false", "inadequate", "reject", "rejected"}


class ReviewSheetError(ValueError):
    pass


class ReviewRow(BaseModel):
    record_id: str = Field(min_length=1)
    section: int = Field(ge=0)
    heading: str
    adequate: bool | None
    comment: str = ""

    @field_validator("adequate", mode="before")
    @classmethod
    def _verdict(cls, value: object) -> bool | None:
        text = str(value or "").strip().lower()
        if not text:
            return None
        if text in _YES:
            return True
        if text in _NO:
            return False
        raise ValueError(f"{value!r} is not a verdict: write yes or no (or leave it blank)")


def export_review_sheet(records: list[Record], path: Path) -> int:
    """Write the sheet; returns the number of rows (plans) written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = 0
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        for record in records:
            for index, section in enumerate(record.sections):
                writer.writerow(
                    {
                        "record_id": record.id,
                        "domain": record.domain,
                        "section": index,
                        "heading": section.heading,
                        "gold_words": count_words(section.text),
                        "plan_words": count_words(section.plan),
                        "plan": section.plan,
                        "adequate": "",
                        "comment": "",
                    }
                )
                rows += 1
    return rows


def read_review_sheet(path: Path) -> list[ReviewRow]:
    """Every row, validated; all bad rows are reported together by line and column."""
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = {"record_id", "section", "heading", "adequate"} - set(reader.fieldnames or [])
        if missing:
            raise ReviewSheetError(f"{path}: missing column(s) {', '.join(sorted(missing))}")
        rows: list[ReviewRow] = []
        problems: list[str] = []
        for raw in reader:
            try:
                rows.append(ReviewRow.model_validate({k: raw.get(k) or "" for k in ReviewRow.model_fields}))
            except ValidationError as exc:
                for err in exc.errors():
                    column = ".".join(str(p) for p in err["loc"])
                    problems.append(f"{path}:{reader.line_num}: column {column}: {err['msg']}")
    if problems:
        raise ReviewSheetError("bad review sheet rows:\n" + "\n".join(f"  - {p}" for p in problems))
    return rows


@dataclass(frozen=True)
class DomainReview:
    domain: str
    plans_reviewed: int
    plans_adequate: int
    records_kept: int
    records_rejected: int

    @property
    def adequate_share(self) -> float:
        return self.plans_adequate / self.plans_reviewed if self.plans_reviewed else 0.0


@dataclass
class ReviewOutcome:
    kept: list[Record]
    rejected: dict[str, list[str]]  # record id -> headings whose plan was marked inadequate
    unreviewed: int
    by_domain: list[DomainReview] = field(default_factory=list)


def apply_review(records: list[Record], rows: list[ReviewRow]) -> ReviewOutcome:
    """Drop records with an inadequate plan. A row that matches no section of `records` is an error."""
    by_id = {r.id: r for r in records}
    problems = []
    for row in rows:
        record = by_id.get(row.record_id)
        if record is None:
            problems.append(f"record {row.record_id}: not in the dataset")
        elif row.section >= len(record.sections) or record.sections[row.section].heading != row.heading:
            problems.append(f"record {row.record_id}: section {row.section} is not {row.heading!r} in the dataset")
    if problems:
        raise ReviewSheetError(
            "the review sheet does not match the dataset:\n" + "\n".join(f"  - {p}" for p in problems)
        )

    rejected: dict[str, list[str]] = {}
    reviewed: dict[str, list[bool]] = {}
    for row in rows:
        if row.adequate is None:
            continue
        reviewed.setdefault(by_id[row.record_id].domain, []).append(row.adequate)
        if not row.adequate:
            rejected.setdefault(row.record_id, []).append(row.heading)
    kept = [r for r in records if r.id not in rejected]
    domains = sorted({r.domain for r in records})
    summary = [
        DomainReview(
            domain=domain,
            plans_reviewed=len(reviewed.get(domain, [])),
            plans_adequate=sum(reviewed.get(domain, [])),
            records_kept=sum(r.domain == domain for r in kept),
            records_rejected=sum(by_id[rid].domain == domain for rid in rejected),
        )
        for domain in domains
    ]
    unreviewed = sum(row.adequate is None for row in rows)
    return ReviewOutcome(kept=kept, rejected=rejected, unreviewed=unreviewed, by_domain=summary)
