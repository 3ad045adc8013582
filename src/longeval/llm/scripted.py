"""A strict scripted model for tests: replies chosen by purpose; an unscripted call fails.

model = ScriptedModel()
model.script("write.section", "Some text.")                       # every call with that purpose
model.script("judge.redundancy", ['{"score": 7}', "bad"])          # replies in turn, then fail
model.script("write.section", lambda msgs: "...", when=lambda p: "Related" in p)
model.calls  # every call, in order: ScriptedCall(purpose, messages, json_schema, ...)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from longeval.llm.types import Completion, Message

Reply = str | Callable[[list[Message]], str]


class UnscriptedCallError(AssertionError):
    """A test made a model call it did not script."""


@dataclass
class ScriptedCall:
    purpose: str
    messages: list[Message]
    max_tokens: int
    temperature: float
    seed: int
    json_schema: dict[str, Any] | None

    @property
    def prompt(self) -> str:
        return "\n\n".join(m["content"] for m in self.messages)


@dataclass
class _Rule:
    purpose: str
    replies: list[Reply] | None  # None: the single reply repeats forever
    reply: Reply | None
    when: Callable[[str], bool] | None
    used: int = 0

    def matches(self, purpose: str, prompt: str) -> bool:
        if self.purpose != purpose:
            return False
        if self.replies is not None and self.used >= len(self.replies):
            return False
        return self.when is None or self.when(prompt)

    def next_reply(self) -> Reply:
        self.used += 1
        if self.replies is None:
            assert self.reply is not None
            return self.reply
        return self.replies[self.used - 1]


@dataclass
class ScriptedModel:
    model_name: str = "scripted"
    endpoint_name: str = "scripted://"
    delay_s: float = 0.0
    _rules: list[_Rule] = field(default_factory=list)
    calls: list[ScriptedCall] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.model_name

    @property
    def endpoint(self) -> str:
        return self.endpoint_name

    def script(
        self, purpose: str, reply: Reply | Sequence[Reply], *, when: Callable[[str], bool] | None = None
    ) -> ScriptedModel:
        """Script replies for `purpose`. A list is consumed in order; a single reply repeats.

        Later rules take precedence over earlier ones, so a test can override a default.
        """
        if isinstance(reply, str) or callable(reply):
            rule = _Rule(purpose=purpose, replies=None, reply=reply, when=when)
        else:
            rule = _Rule(purpose=purpose, replies=list(reply), reply=None, when=when)
        self._rules.insert(0, rule)
        return self

    def calls_for(self, purpose: str) -> list[ScriptedCall]:
        return [c for c in self.calls if c.purpose == purpose]

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
        call = ScriptedCall(purpose, list(messages), max_tokens, temperature, seed, json_schema)
        self.calls.append(call)
        rule = next((r for r in self._rules if r.matches(purpose, call.prompt)), None)
        if rule is None:
            scripted = sorted({r.purpose for r in self._rules})
            raise UnscriptedCallError(
                f"unscripted model call for purpose {purpose!r} (scripted: {scripted}); prompt starts: "
                f"{call.prompt[:200]!r}"
            )
        reply = rule.next_reply()
        started = time.perf_counter()
        if self.delay_s:
            await asyncio.sleep(self.delay_s)
        text = reply(list(messages)) if callable(reply) else reply
        return Completion(
            text=text,
            finish_reason="stop",
            prompt_tokens=sum(len(m["content"].split()) for m in messages),
            completion_tokens=len(text.split()),
            latency_s=time.perf_counter() - started,
            model=self.model_name,
            purpose=purpose,
        )
