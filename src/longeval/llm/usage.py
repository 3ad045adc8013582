"""Usage accounting per (model, purpose): calls, cache hits, tokens, latency."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from longeval.llm.types import Completion


@dataclass
class UsageCounter:
    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    failures: int = 0

    def add(self, completion: Completion) -> None:
        self.calls += 1
        if completion.cached:
            self.cache_hits += 1
            return  # a cached reply cost no tokens and no time
        self.prompt_tokens += completion.prompt_tokens
        self.completion_tokens += completion.completion_tokens
        self.latency_s += completion.latency_s


class UsageLedger:
    """Shared by every model of a run; `to_dict()` is what `usage.json` holds."""

    def __init__(self) -> None:
        self._counters: dict[tuple[str, str], UsageCounter] = {}

    def _counter(self, model: str, purpose: str) -> UsageCounter:
        return self._counters.setdefault((model, purpose), UsageCounter())

    def record(self, model: str, purpose: str, completion: Completion) -> None:
        self._counter(model, purpose).add(completion)

    def record_failure(self, model: str, purpose: str) -> None:
        self._counter(model, purpose).failures += 1

    def totals(self) -> UsageCounter:
        total = UsageCounter()
        for c in self._counters.values():
            for name, value in asdict(c).items():
                setattr(total, name, getattr(total, name) + value)
        return total

    def by_purpose(self) -> dict[str, UsageCounter]:
        out: dict[str, UsageCounter] = {}
        for (_, purpose), c in self._counters.items():
            agg = out.setdefault(purpose, UsageCounter())
            for name, value in asdict(c).items():
                setattr(agg, name, getattr(agg, name) + value)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "totals": asdict(self.totals()),
            "by_model_purpose": [
                {"model": model, "purpose": purpose, **asdict(c)}
                for (model, purpose), c in sorted(self._counters.items())
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UsageLedger:
        """Continue counting a resumed run's usage."""
        ledger = cls()
        for row in data.get("by_model_purpose", []):
            counter = ledger._counter(row["model"], row["purpose"])
            for name in asdict(counter):
                setattr(counter, name, row.get(name, 0))
        return ledger

    def summary_line(self) -> str:
        t = self.totals()
        return (
            f"calls={t.calls} cache_hits={t.cache_hits} prompt_tokens={t.prompt_tokens} "
            f"completion_tokens={t.completion_tokens} latency={t.latency_s:.1f}s"
        )
