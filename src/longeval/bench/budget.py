"""A token budget for a run: no call starts when it could take the run's spend past the budget.

Every model of a bench goes through a `BudgetedModel`. Before a call that the response cache cannot
answer, it reserves the call's worst case (prompt estimate + max_tokens); if the tokens already spent,
those reserved by calls in flight and this one would pass the budget, the call is refused with
`BudgetExhausted` and every later call too. Calls in flight finish and are stored, so the stop is
clean, and a rerun (with a larger budget) continues from there without repeating a call.

`BudgetExhausted` is a `ModelError`: the evaluation records a refused judgement as failed (no row,
so a rerun makes it) and the writer stops the document at a checkpoint.
"""

from __future__ import annotations

from typing import Any

from longeval.llm.cache import cache_key
from longeval.llm.client import Model
from longeval.llm.types import ChatModel, Completion, Message, ModelError
from longeval.llm.usage import UsageLedger


class BudgetExhausted(ModelError):
    """A call refused because it could take the run past its token budget."""


def worst_case_tokens(messages: list[Message], max_tokens: int) -> int:
    """An upper estimate of a call's tokens: English runs about 4 characters a token; count 3, plus the
    chat template's few tokens per message, plus the whole completion allowance."""
    return sum(len(m["content"]) // 3 + 8 for m in messages) + max_tokens


def spent_tokens(usage: dict[str, Any]) -> int:
    totals = usage.get("totals", {})
    return int(totals.get("prompt_tokens") or 0) + int(totals.get("completion_tokens") or 0)


class TokenBudget:
    """The run's spend: tokens before this session, plus what the session's ledger adds, plus reservations."""

    def __init__(self, limit: int | None, *, ledger: UsageLedger, spent_before: int) -> None:
        self.limit = limit
        self.ledger = ledger
        self.spent_before = spent_before
        self._ledger_start = spent_tokens(ledger.to_dict())
        self.reserved = 0
        self.exhausted = False
        self.refused = 0

    @property
    def spent(self) -> int:
        return self.spent_before + spent_tokens(self.ledger.to_dict()) - self._ledger_start

    def reserve(self, tokens: int, *, endpoint: str, purpose: str) -> None:
        if self.limit is not None and (self.exhausted or self.spent + self.reserved + tokens > self.limit):
            self.exhausted = True
            self.refused += 1
            raise BudgetExhausted(
                f"token budget {self.limit:,} reached ({self.spent:,} spent, {self.reserved:,} reserved in flight, "
                f"this call up to {tokens:,}); rerun with a larger --budget-tokens to continue",
                endpoint=endpoint,
                purpose=purpose,
            )
        self.reserved += tokens

    def release(self, tokens: int) -> None:
        self.reserved -= tokens


class BudgetedModel:
    """A `ChatModel` that asks the budget before every call the cache cannot answer."""

    def __init__(self, inner: ChatModel, budget: TokenBudget) -> None:
        self.inner = inner
        self.budget = budget

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def endpoint(self) -> str:
        return self.inner.endpoint

    def _cached(self, messages: list[Message], params: dict[str, Any]) -> bool:
        if not isinstance(self.inner, Model) or self.inner.cache is None:
            return False
        key = cache_key(model=self.inner.name, endpoint=self.inner.endpoint, messages=messages, **params)
        return self.inner.cache.get(key) is not None

    async def complete(
        self,
        messages: list[Message],
        *,
        purpose: str,
        max_tokens: int = 512,
        temperature: float = 0.0,
        seed: int = 0,
        json_schema: dict[str, Any] | None = None,
    ) -> Completion:
        params: dict[str, Any] = {
            "max_tokens": max_tokens,
            "temperature": temperature,
            "seed": seed,
            "json_schema": json_schema,
        }
        if self.budget.limit is None or self._cached(messages, params):
            return await self.inner.complete(messages, purpose=purpose, **params)
        worst_case = worst_case_tokens(messages, max_tokens)
        self.budget.reserve(worst_case, endpoint=self.endpoint, purpose=purpose)
        try:
            return await self.inner.complete(messages, purpose=purpose, **params)
        finally:
            self.budget.release(worst_case)
