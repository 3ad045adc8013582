"""A run's usage across sessions: what usage.json held before, plus what this session's ledger added.

A hub passed in by a caller (the service) may have counted other work before this run started, so
the session's share is its ledger now minus its ledger at the start.
"""

from __future__ import annotations

from typing import Any

from longeval.llm.usage import UsageLedger

_COUNTERS = ("calls", "cache_hits", "prompt_tokens", "completion_tokens", "latency_s", "failures")


def _rows(usage: dict[str, Any]) -> dict[tuple[str, str], dict[str, float]]:
    return {
        (row["model"], row["purpose"]): {name: row.get(name, 0) or 0 for name in _COUNTERS}
        for row in usage.get("by_model_purpose", [])
    }


def combine_usage(before: dict[str, Any], now: dict[str, Any], session_start: dict[str, Any]) -> dict[str, Any]:
    """`before + (now - session_start)`, per (model, purpose), with totals recomputed."""
    combined = _rows(before)
    start = _rows(session_start)
    for key, counters in _rows(now).items():
        base = start.get(key, {})
        target = combined.setdefault(key, dict.fromkeys(_COUNTERS, 0))
        for name in _COUNTERS:
            target[name] += counters[name] - base.get(name, 0)
    rows = [{"model": model, "purpose": purpose, **c} for (model, purpose), c in combined.items()]
    return UsageLedger.from_dict({"by_model_purpose": rows}).to_dict()


def session_usage(now: dict[str, Any], session_start: dict[str, Any]) -> dict[str, Any]:
    return combine_usage({}, now, session_start)
