"""A job's events: persisted with ids that increase by one per job, so `Last-Event-ID` resumes without gaps.

Jobs emit from synchronous callbacks (the writer's `on_event`), so `emit` only numbers the event
and queues it; a flusher task writes queued events in order, in batches, off the event loop.
Streams read only what is written, and wait on a condition that each flush notifies.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiosqlite

from longeval.runs import now_iso

END = "end"  # the last event of every job that reached a final status

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    job_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (job_id, seq)
);
"""


@dataclass(frozen=True)
class JobEvent:
    job_id: str
    seq: int
    type: str
    data: str  # JSON text, already redacted

    def to_sse(self) -> bytes:
        return f"id: {self.seq}\nevent: {self.type}\ndata: {self.data}\n\n".encode()


class EventLog:
    def __init__(self, conn: aiosqlite.Connection, *, redact: Callable[[str], str] = lambda text: text) -> None:
        self._conn = conn
        self._redact = redact
        self._next_seq: dict[str, int] = {}
        self._written: dict[str, int] = {}
        self._pending: list[JobEvent] = []
        self._write_lock = asyncio.Lock()
        self._wake = asyncio.Event()
        self._changed = asyncio.Condition()
        self._streams_closed = False
        self._stopped = False
        self._flusher: asyncio.Task[None] | None = None

    async def init(self) -> None:
        await self._conn.executescript(_SCHEMA)
        await self._conn.commit()
        self._flusher = asyncio.create_task(self._flush_forever(), name="event-flusher")

    async def open_job(self, job_id: str) -> None:
        """Continue a job's numbering after its stored events (a resumed job goes on where it stopped)."""
        async with self._conn.execute("SELECT MAX(seq) FROM events WHERE job_id = ?", (job_id,)) as cursor:
            row = await cursor.fetchone()
        last = row[0] if row is not None and row[0] is not None else 0
        self._next_seq[job_id] = last + 1
        self._written[job_id] = last

    def emit(self, job_id: str, type_: str, data: dict[str, Any]) -> int:
        if job_id not in self._next_seq:
            raise RuntimeError(f"job {job_id}: an event was emitted before open_job")
        seq = self._next_seq[job_id]
        self._next_seq[job_id] = seq + 1
        payload = {"id": seq, "type": type_, "job_id": job_id, "time": now_iso(), **data}
        text = self._redact(json.dumps(payload, ensure_ascii=False, sort_keys=True, default=str))
        self._pending.append(JobEvent(job_id, seq, type_, text))
        self._wake.set()
        return seq

    async def flush(self) -> None:
        """Write every event emitted so far; on return they are readable."""
        async with self._write_lock:
            batch, self._pending = self._pending, []
            if batch:
                await self._conn.executemany(
                    "INSERT INTO events (job_id, seq, type, data) VALUES (?, ?, ?, ?)",
                    [(e.job_id, e.seq, e.type, e.data) for e in batch],
                )
                await self._conn.commit()
                for event in batch:
                    self._written[event.job_id] = event.seq
        if batch:
            async with self._changed:
                self._changed.notify_all()

    async def _flush_forever(self) -> None:
        while not self._stopped:
            await self._wake.wait()
            self._wake.clear()
            await self.flush()

    async def after(self, job_id: str, seq: int, *, limit: int = 500) -> list[JobEvent]:
        async with self._conn.execute(
            "SELECT job_id, seq, type, data FROM events WHERE job_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (job_id, seq, limit),
        ) as cursor:
            rows = await cursor.fetchall()
        return [JobEvent(r[0], r[1], r[2], r[3]) for r in rows]

    async def wait(self, job_id: str, seq: int, *, timeout_s: float) -> bool:
        """Until an event after `seq` is written or streams close (True), or `timeout_s` passes (False)."""

        def ready() -> bool:
            return self._streams_closed or self._written.get(job_id, 0) > seq

        async with self._changed:
            try:
                async with asyncio.timeout(timeout_s):
                    await self._changed.wait_for(ready)
            except TimeoutError:
                return False
        return True

    @property
    def streams_closed(self) -> bool:
        return self._streams_closed

    async def close_streams(self) -> None:
        """Let every waiting stream finish (the service is stopping); clients reconnect with Last-Event-ID."""
        self._streams_closed = True
        async with self._changed:
            self._changed.notify_all()

    async def aclose(self) -> None:
        self._stopped = True
        self._streams_closed = True
        self._wake.set()
        if self._flusher is not None:
            await self._flusher
        await self.flush()
        async with self._changed:
            self._changed.notify_all()
