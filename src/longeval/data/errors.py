"""Errors of the data layer: every problem names its record (id, or index where there is none) and field."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError


@dataclass(frozen=True)
class RecordProblem:
    record: str  # the record's id, or "#<index>" when it has none
    field: str  # a dotted path: "sections.2.text", "bullet_points"
    message: str
    source: str = ""  # file (and line) or dataset split

    def __str__(self) -> str:
        where = f" ({self.source})" if self.source else ""
        return f"record {self.record}{where}: {self.field}: {self.message}"


class BadRecordsError(ValueError):
    """Raised once with every problem found, not only the first."""

    def __init__(self, problems: list[RecordProblem]) -> None:
        self.problems = problems
        records = len({(p.source, p.record) for p in problems})
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(
            f"{records} bad record(s), {len(problems)} problem(s) "
            f"(pass --on-bad-record skip to leave them out):\n{lines}"
        )


class DataSourceError(ValueError):
    """A dataset source that cannot be read at all (missing file, unknown format, no `datasets`)."""


def problems_from_validation(
    error: ValidationError, *, record: str, source: str, prefix: str = ""
) -> list[RecordProblem]:
    problems = []
    for item in error.errors():
        path = ".".join(str(part) for part in item["loc"]) or "(record)"
        problems.append(RecordProblem(record, f"{prefix}{path}", item["msg"], source))
    return problems
