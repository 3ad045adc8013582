"""The benchmark's unit: a LongEval record, and what a writer produces from it.

These schemas are the edge between files and code: every loader produces `Record`s, every
writer produces `GeneratedDocument`s, and both are validated here.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator

Domain = Literal["arxiv", "blog", "wikipedia"]
DOMAINS: tuple[Domain, ...] = ("arxiv", "blog", "wikipedia")

SectionRole = Literal["abstract", "introduction", "related_work", "method", "experiments", "conclusion", "other"]

# Sections are recognised by heading, never by position. Order matters: the first match wins.
_ROLE_PATTERNS: list[tuple[SectionRole, re.Pattern[str]]] = [
    ("abstract", re.compile(r"\babstract\b|\bsummary\b", re.I)),
    ("introduction", re.compile(r"\bintroduction\b|\boverview\b|\bbackground and motivation\b", re.I)),
    (
        "related_work",
        re.compile(r"\brelated\s+work|\bprior\s+work|\bliterature\s+review|\brelated\s+research", re.I),
    ),
    ("experiments", re.compile(r"\bexperiment|\bevaluation\b|\bresults?\b|\bablation|\bbenchmark", re.I)),
    (
        "method",
        re.compile(
            r"\bmethod|\bapproach\b|\bmodel\b|\barchitecture\b|\bframework\b|\bspecification\b|\bdesign\b",
            re.I,
        ),
    ),
    ("conclusion", re.compile(r"\bconclusion|\bdiscussion\b|\bfuture\s+work|\bclosing", re.I)),
]


def section_role(heading: str) -> SectionRole:
    """The role of a section, read from its heading ("2 Related Work" -> "related_work")."""
    for role, pattern in _ROLE_PATTERNS:
        if pattern.search(heading):
            return role
    return "other"


def count_words(text: str) -> int:
    """Whitespace word count, as LongEval's code counts (other counters live in evaluators)."""
    return len(text.split())


class Section(BaseModel):
    heading: str = Field(min_length=1)
    text: str = Field(default="", description="the gold text (may be empty for title-only jobs)")
    plan: str = Field(default="", description="the content plan: 4-5 sentences on what the section says")
    words: int = Field(default=0, ge=0, description="required words: the gold length, or a planner's budget")
    level: int = Field(default=1, ge=1, le=6)

    @model_validator(mode="after")
    def _default_words(self) -> Section:
        if self.words == 0 and self.text:
            self.words = count_words(self.text)
        return self

    @property
    def role(self) -> SectionRole:
        return section_role(self.heading)


class Record(BaseModel):
    id: str = Field(min_length=1)
    domain: Domain
    title: str = Field(min_length=1)
    sections: list[Section]
    references: list[str] = Field(default_factory=list)
    experiment_results: list[str] = Field(default_factory=list)
    brief: str = Field(default="", description="a short description, for planners that start from a title")

    @field_validator("sections")
    @classmethod
    def _at_least_one_section(cls, sections: list[Section]) -> list[Section]:
        if not sections:
            raise ValueError("a record needs at least one section")
        return sections

    @property
    def gold_words(self) -> int:
        return sum(count_words(s.text) for s in self.sections)

    @property
    def plan_words(self) -> int:
        return sum(count_words(s.plan) for s in self.sections)

    @property
    def required_words(self) -> int:
        return sum(s.words for s in self.sections)

    def find_section(self, role: SectionRole) -> Section | None:
        return next((s for s in self.sections if s.role == role), None)


class GeneratedSection(BaseModel):
    heading: str
    text: str
    required_words: int = Field(ge=0)
    words: int = Field(ge=0)
    seconds: float = 0.0


Paradigm = Literal["plan", "direct"]


class GeneratedDocument(BaseModel):
    """One written document: a line of `generations.jsonl`."""

    doc_id: str = Field(description="unique within a run: record id x writer x paradigm x planner")
    record_id: str
    domain: Domain
    title: str
    writer: str
    paradigm: Paradigm
    planner: str
    sections: list[GeneratedSection]

    @property
    def text(self) -> str:
        return "\n\n".join(f"## {s.heading}\n\n{s.text}" for s in self.sections)

    @property
    def words(self) -> int:
        return sum(s.words for s in self.sections)

    def to_markdown(self) -> str:
        return f"# {self.title}\n\n{self.text}\n"


def make_doc_id(record_id: str, writer: str, paradigm: str, planner: str) -> str:
    return f"{record_id}|{writer}|{paradigm}|{planner}"
