"""A SQLite response cache: a rerun or a resumed run makes no call twice."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from longeval.llm.types import Completion, Message


def cache_key(
    *,
    model: str,
    endpoint: str,
    messages: list[Message],
    max_tokens: int,
    temperature: float,
    seed: int,
    json_schema: dict[str, Any] | None,
) -> str:
    payload = {
        "model": model,
        "endpoint": endpoint,
        "messages": messages,
        "max_tokens": max_tokens,
        "temperature": temperature,
        "seed": seed,
        "json_schema": json_schema,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


class ResponseCache:
    """Key -> completion. Reads and writes are a few hundred microseconds, so they run inline."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, purpose TEXT, completion TEXT NOT NULL)"
        )

    def get(self, key: str) -> Completion | None:
        with self._lock:
            row = self._db.execute("SELECT completion FROM responses WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        data["cached"] = True
        return Completion(**data)

    def put(self, key: str, completion: Completion) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, purpose, completion) VALUES (?, ?, ?)",
                (key, completion.purpose, json.dumps(completion.to_dict())),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
