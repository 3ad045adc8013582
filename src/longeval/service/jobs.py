"""The job store: one SQLite table in the data dir, so a restarted service lists old jobs and resumes the rest.

Every access goes through one aiosqlite connection (its own thread), never blocking the event loop.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import aiosqlite

from longeval.runs import now_iso


class JobStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"

    @property
    def terminal(self) -> bool:
        return self in (JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    request TEXT NOT NULL,
    status TEXT NOT NULL,
    progress TEXT NOT NULL DEFAULT '{}',
    usage TEXT NOT NULL DEFAULT '{}',
    error TEXT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_status ON jobs(status);
"""


@dataclass
class JobRow:
    id: str
    kind: str
    request: dict[str, Any]
    status: JobStatus
    progress: dict[str, Any]
    usage: dict[str, Any]
    error: str | None
    created: str
    updated: str

    @classmethod
    def from_sql(cls, row: aiosqlite.Row) -> JobRow:
        return cls(
            id=row["id"],
            kind=row["kind"],
            request=json.loads(row["request"]),
            status=JobStatus(row["status"]),
            progress=json.loads(row["progress"]),
            usage=json.loads(row["usage"]),
            error=row["error"],
            created=row["created"],
            updated=row["updated"],
        )


async def open_database(path: Path) -> aiosqlite.Connection:
    """The service's database; WAL so readers (event streams) never wait for the writer."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(path)
    conn.row_factory = aiosqlite.Row
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    return conn


class JobStore:
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def init(self) -> None:
        await self._conn.executescript(_SCHEMA)
        await self._conn.commit()

    async def create(self, job_id: str, kind: str, request: dict[str, Any]) -> JobRow:
        now = now_iso()
        await self._conn.execute(
            "INSERT INTO jobs (id, kind, request, status, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
            (job_id, kind, json.dumps(request, sort_keys=True), JobStatus.QUEUED.value, now, now),
        )
        await self._conn.commit()
        row = await self.get(job_id)
        assert row is not None
        return row

    async def get(self, job_id: str) -> JobRow | None:
        async with self._conn.execute("SELECT * FROM jobs WHERE id = ?", (job_id,)) as cursor:
            row = await cursor.fetchone()
        return JobRow.from_sql(row) if row is not None else None

    async def list(self, *, status: JobStatus | None = None, limit: int = 100) -> list[JobRow]:
        query, args = "SELECT * FROM jobs", []
        if status is not None:
            query, args = query + " WHERE status = ?", [status.value]
        async with self._conn.execute(query + " ORDER BY created DESC, rowid DESC LIMIT ?", (*args, limit)) as cursor:
            rows = await cursor.fetchall()
        return [JobRow.from_sql(r) for r in rows]

    async def unfinished(self) -> list[JobRow]:
        """Jobs a stopped service left queued or running, oldest first: they resume at startup."""
        async with self._conn.execute(
            "SELECT * FROM jobs WHERE status IN (?, ?) ORDER BY created, rowid",
            (JobStatus.QUEUED.value, JobStatus.RUNNING.value),
        ) as cursor:
            rows = await cursor.fetchall()
        return [JobRow.from_sql(r) for r in rows]

    async def update(
        self,
        job_id: str,
        *,
        status: JobStatus | None = None,
        progress: dict[str, Any] | None = None,
        usage: dict[str, Any] | None = None,
        error: str | None = None,
        clear_error: bool = False,
    ) -> None:
        sets, args = ["updated = ?"], [now_iso()]
        if status is not None:
            sets.append("status = ?")
            args.append(status.value)
        if progress is not None:
            sets.append("progress = ?")
            args.append(json.dumps(progress, sort_keys=True))
        if usage is not None:
            sets.append("usage = ?")
            args.append(json.dumps(usage, sort_keys=True))
        if error is not None or clear_error:
            sets.append("error = ?")
            args.append(error)  # type: ignore[arg-type]
        await self._conn.execute(f"UPDATE jobs SET {', '.join(sets)} WHERE id = ?", (*args, job_id))
        await self._conn.commit()
