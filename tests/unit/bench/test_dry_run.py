"""The dry run's plan of work against the calls a run then makes."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from longeval.bench import BenchConfig, plan_bench, run_bench
from longeval.bench.simulate import schema_instance, words_for_allowance
from longeval.data.records import Record
from longeval.runs import RunDir
from tests.unit.bench.conftest import fresh_backends


async def test_dry_run_call_counts_equal_the_calls_made(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record]
) -> None:
    run = RunDir(tmp_path / "run")
    backends = fresh_backends(yes=True)  # the plan assumes every yes/no step answers yes
    work = await plan_bench(small_config, run=run, backends=backends, records=small_records)
    assert not list(run.path.iterdir()), "a dry run writes nothing into the run folder"
    assert all(not m.calls for m in backends.values())

    await run_bench(small_config, run=run, backends=backends, records=small_records)
    made = Counter(c.purpose for m in backends.values() for c in m.calls)
    assert {purpose: e.calls for purpose, e in work.by_purpose.items()} == dict(made)
    assert work.documents == 6 and work.documents_done == 0 and work.totals.calls == sum(made.values())
    assert work.by_model["scripted-judge"].calls == len(backends["j"].calls)
    assert work.totals.prompt_tokens > 0 and work.totals.completion_tokens > 0


async def test_dry_run_total_holds_whatever_the_yes_no_answers(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record]
) -> None:
    backends = fresh_backends(yes=False)
    work = await plan_bench(small_config, backends=backends, records=small_records)
    await run_bench(small_config, run=RunDir(tmp_path / "run"), backends=backends, records=small_records)
    assert work.totals.calls == sum(len(m.calls) for m in backends.values())


async def test_dry_run_of_a_finished_run_plans_nothing(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record]
) -> None:
    run = RunDir(tmp_path / "run")
    await run_bench(small_config, run=run, backends=fresh_backends(), records=small_records)
    before = sorted((p.name, p.stat().st_mtime_ns) for p in run.path.iterdir())
    work = await plan_bench(small_config, run=run, backends=fresh_backends(), records=small_records)
    assert work.totals.calls == 0 and work.documents_done == 6 and work.judgements_done > 0
    assert sorted((p.name, p.stat().st_mtime_ns) for p in run.path.iterdir()) == before


def test_simulated_replies_fit_the_schema_and_the_allowance() -> None:
    from pydantic import BaseModel, Field

    class Inner(BaseModel):
        heading: str = Field(min_length=3)
        words: int = Field(ge=1, le=9)

    class Verdict(BaseModel):
        score: float = Field(ge=1, le=10)
        ok: bool
        items: list[Inner] = Field(min_length=2)
        note: str | None = None

    value = schema_instance(Verdict.model_json_schema(), yes_no_answer=False)
    parsed = Verdict.model_validate(value)
    assert parsed.ok is False and len(parsed.items) == 2 and 1 <= parsed.score <= 10
    from longeval.agents.config import max_tokens_for

    for words in (1, 7, 150, 333, 2000):
        assert words_for_allowance(max_tokens_for(words, 10**6)) >= words
