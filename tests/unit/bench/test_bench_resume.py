"""Kills and budget stops, then reruns: the result equals an uninterrupted run's and no call is made twice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from longeval.bench import BenchConfig, run_bench
from longeval.data.records import Record
from longeval.llm.scripted import ScriptedModel
from longeval.llm.types import Completion, Message
from longeval.runs import RunDir, read_jsonl
from tests.unit.bench.conftest import call_signatures, fresh_backends, tables_of


class Killed(RuntimeError):
    """Stands for a kill: not a model error, so nothing catches it."""


class DyingBackend:
    """A scripted backend that dies on its n-th call, before making it."""

    def __init__(self, inner: ScriptedModel, die_at: int) -> None:
        self.inner = inner
        self.die_at = die_at
        self.attempts = 0
        self.name, self.endpoint = inner.name, inner.endpoint

    async def complete(self, messages: list[Message], **params: Any) -> Completion:
        self.attempts += 1
        if self.attempts == self.die_at:
            raise Killed(f"killed at call {self.die_at}")
        return await self.inner.complete(messages, **params)


def score_values(run_path: Path) -> dict[str, float | None]:
    return {f"{r['doc_id']}|{r['metric']}|{r['repeat']}": r["value"] for r in read_jsonl(run_path / "scores.jsonl")}


async def uninterrupted(tmp_path: Path, config: BenchConfig, records: list[Record]) -> tuple[Path, int]:
    backends = fresh_backends()
    await run_bench(config, run=RunDir(tmp_path / "whole"), backends=backends, records=records)
    return tmp_path / "whole", sum(len(m.calls) for m in backends.values())


@pytest.mark.parametrize("kill", ["on_event_at_evaluation", "judge_mid_evaluation"])
async def test_kill_between_generation_and_evaluation_then_rerun(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record], kill: str
) -> None:
    whole, whole_calls = await uninterrupted(tmp_path, small_config, small_records)
    run = RunDir(tmp_path / "killed")
    first = fresh_backends()
    backends: dict[str, Any] = dict(first)
    on_event = None
    if kill == "on_event_at_evaluation":

        def on_event(event: dict[str, Any]) -> None:
            if event["type"] == "stage" and event["stage"] == "evaluate":
                raise Killed("killed after generation")

    else:
        backends["j"] = DyingBackend(first["j"], die_at=7)
    with pytest.raises(Killed):
        await run_bench(small_config, run=run, backends=backends, records=small_records, on_event=on_event)
    assert len(run.generations()) == 6  # generation finished before the kill
    if kill == "judge_mid_evaluation":
        assert 0 < len(run.scores()) < len(RunDir(whole).scores())

    second = fresh_backends()
    summary = await run_bench(small_config, run=run, backends=second, records=small_records)
    assert summary.complete and summary.reused == 6 and summary.written == 0
    assert all(not c.purpose.startswith("write.") for c in second["w"].calls)
    made = call_signatures(first["w"], first["j"], second["w"], second["j"])
    assert max(made.values()) == 1, "a model call was made twice"
    assert sum(made.values()) == whole_calls
    assert tables_of(run.path) == tables_of(whole)
    assert score_values(run.path) == score_values(whole)
    usage = json.loads(run.usage_path.read_text())
    assert usage["totals"]["calls"] - usage["totals"]["cache_hits"] == whole_calls


async def test_budget_stops_cleanly_and_a_rerun_with_more_continues(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record]
) -> None:
    whole, whole_calls = await uninterrupted(tmp_path, small_config, small_records)
    budget = 6000
    run = RunDir(tmp_path / "budget")
    first = fresh_backends()
    stopped = await run_bench(
        small_config.model_copy(update={"budget_tokens": budget}), run=run, backends=first, records=small_records
    )
    assert stopped.stopped == "budget" and not stopped.complete
    assert not stopped.failed_documents and not stopped.failed_judgements  # a budget stop is not a failure
    spent = json.loads(run.usage_path.read_text())["totals"]
    assert 0 < spent["prompt_tokens"] + spent["completion_tokens"] <= budget
    assert json.loads(run.run_json.read_text())["bench"]["stopped"] == "budget"
    assert len(run.generations()) < 6

    second = fresh_backends()
    summary = await run_bench(small_config, run=run, backends=second, records=small_records)
    assert summary.complete
    made = call_signatures(first["w"], first["j"], second["w"], second["j"])
    assert max(made.values()) == 1 and sum(made.values()) == whole_calls
    assert tables_of(run.path) == tables_of(whole)


async def test_a_rerun_refuses_other_records_or_settings(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record]
) -> None:
    from longeval.bench import BenchRunError

    run = RunDir(tmp_path / "run")
    await run_bench(small_config, run=run, backends=fresh_backends(), records=small_records)
    with pytest.raises(BenchRunError, match="other records"):
        await run_bench(small_config, run=run, backends=fresh_backends(), records=small_records[:2])
    with pytest.raises(BenchRunError, match="seed"):
        await run_bench(
            small_config.model_copy(update={"seed": 3}), run=run, backends=fresh_backends(), records=small_records
        )
