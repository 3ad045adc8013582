"""The evaluation graph: concurrent judging under the shared cap, rows written as they complete,
reruns that make no call, failures that are retried, repeats and a second judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from structlog.testing import capture_logs

from longeval.evaluation import evaluate_run
from longeval.llm.hub import ModelHub
from longeval.llm.limits import Limits
from longeval.llm.scripted import ScriptedModel
from longeval.llm.types import Completion, ModelError
from longeval.runs import RunDir
from tests.fakes.longeval_documents import make_document, make_record, write_run
from tests.fakes.openai_server import FakeOpenAIServer, json_reply, running_fake_server


def _blog_run(path: Path, documents: int) -> RunDir:
    records = [make_record("blog", f"blog-{i}") for i in range(documents)]
    return write_run(RunDir(path), records, [make_document(r) for r in records])


async def test_200_judge_calls_never_exceed_the_concurrency_cap_and_a_rerun_makes_none(tmp_path: Path) -> None:
    run = _blog_run(tmp_path / "run", 100)  # 100 blog documents x (Red, Con) = 200 judge calls
    server = FakeOpenAIServer(reply=json_reply({"score": 7}), delay_s=0.01)  # a delay, so that calls overlap
    written: list[dict[str, Any]] = []
    # capture_logs: rendering 200 calls' debug lines to the console would triple the test's time
    with capture_logs():
        async with running_fake_server(server), ModelHub(limits=Limits(max_concurrency=4)) as hub:
            judge = hub.get("openai:fake", base_url=server.url)
            summary = await evaluate_run(run, judge=judge, metrics=["red", "con"], on_result=written.append)
            requests_after_first_run = len(server.requests)
            again = await evaluate_run(run, judge=judge, metrics=["red", "con"])
    assert requests_after_first_run == 200
    assert 2 <= server.max_in_flight <= 4  # concurrent, and never past the cap
    assert summary.tally["calls"] == 200 and summary.tally["scored"] == 200
    assert len(written) == 200 and len(run.scores()) == 200
    [table] = summary.tables["openai:fake"]
    assert [(m.label, m.value, m.n, m.unscored) for m in table.metrics] == [
        ("Red", pytest.approx(600 / 9), 100, 0),
        ("Con", pytest.approx(600 / 9), 100, 0),
    ]
    assert len(server.requests) == 200  # the rerun made no new call
    assert again.tally["skipped"] == 200 and again.tally["calls"] == 0
    assert again.tables == summary.tables


def _scripted_judge(name: str = "scripted", score: int = 7) -> ScriptedModel:
    model = ScriptedModel(model_name=name)
    for purpose in ("content_following", "redundancy", "consistency", "introduction", "related_work",
                    "experiment_analysis", "method"):  # fmt: skip
        model.script(f"judge.{purpose}", f'{{"score": {score}}}')
    model.script("judge.ea_applies", '{"analyses_experiments": false}')
    model.script("judge.ea_applies", '{"analyses_experiments": true}', when=lambda p: "GLUE" in p)
    return model


async def test_every_metric_of_every_domain_is_written_with_provenance(tmp_path: Path) -> None:
    records = [make_record(d) for d in ("arxiv", "blog", "wikipedia")]
    run = write_run(RunDir(tmp_path), records, [make_document(r) for r in records])
    summary = await evaluate_run(run, judge=_scripted_judge())
    rows = [json.loads(line) for line in run.scores_path.read_text().splitlines()]
    by_domain = {d: sorted(r["metric"] for r in rows if r["domain"] == d) for d in ("arxiv", "blog", "wikipedia")}
    assert by_domain["arxiv"] == sorted(["len", "cont-fol", "red", "con", "intro", "rw", "ea", "me"])
    assert by_domain["blog"] == sorted(["len", "cont-fol", "red", "con", "intro", "me"])
    assert by_domain["wikipedia"] == sorted(["len", "cont-fol", "con", "intro", "rw", "me"])
    red = next(r for r in rows if r["metric"] == "red" and r["domain"] == "arxiv")
    assert red["judge"] == "scripted" and red["metadata"]["judge_model"] == "scripted"
    assert red["metadata"]["prompt_hash"] and red["raw"] == '{"score": 7}' and red["unscored"] is False
    assert {"doc_id", "record_id", "writer", "paradigm", "planner", "repeat", "explanation"} <= red.keys()
    length = next(r for r in rows if r["metric"] == "len")
    assert length["judge"] == "none" and length["value"] == 100.0
    assert summary.tally["unscored"] == 0 and summary.unscored == 0


async def test_malformed_verdicts_are_written_unscored_and_counted(tmp_path: Path) -> None:
    run = _blog_run(tmp_path, 2)
    judge = ScriptedModel().script("judge.redundancy", "not a verdict")
    summary = await evaluate_run(run, judge=judge, metrics=["red"])
    assert summary.tally["unscored"] == 2 and summary.tally["calls"] == 4  # each: a try and a corrective retry
    [table] = summary.tables["scripted"]
    assert (table.metrics[0].value, table.metrics[0].n, table.metrics[0].unscored) == (None, 0, 2)
    assert all(r["unscored"] and r["raw"] == "not a verdict" for r in run.scores().rows())


class FlakyJudge:
    """Fails for good on its first `failures` calls, then answers."""

    name = "flaky"
    endpoint = "flaky://"

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    async def complete(self, messages: list, *, purpose: str, **_: Any) -> Completion:
        self.calls += 1
        if self.calls <= self.failures:
            raise ModelError("server down", endpoint=self.endpoint, purpose=purpose)
        return Completion('{"score": 10}', "stop", 1, 1, 0.0, model=self.name, purpose=purpose)


async def test_a_failed_judge_call_writes_nothing_and_a_rerun_retries_it(tmp_path: Path) -> None:
    run = _blog_run(tmp_path, 1)
    judge = FlakyJudge(failures=1)
    failed: list[dict[str, Any]] = []
    first = await evaluate_run(run, judge=judge, metrics=["red"], on_result=failed.append)
    assert first.tally["failed"] == 1 and len(run.scores()) == 0
    assert failed[0]["failed"] and "server down" in failed[0]["error"]
    second = await evaluate_run(run, judge=judge, metrics=["red"])
    assert second.tally["scored"] == 1 and run.scores().rows()[0]["value"] == 100.0


async def test_repeats_use_different_seeds_and_report_a_confidence_interval(tmp_path: Path) -> None:
    run = _blog_run(tmp_path, 2)
    grades = {0: 4, 100: 7, 200: 10}  # by seed: repeat r judges with seed 100 * r
    judge = ScriptedModel()
    judge.script("judge.redundancy", lambda messages: "")  # replaced below: the reply depends on the seed
    seeds: list[int] = []

    async def complete(messages: list, *, purpose: str, seed: int = 0, **kwargs: Any) -> Completion:
        seeds.append(seed)
        return Completion(f'{{"score": {grades[seed]}}}', "stop", 1, 1, 0.0, model="scripted", purpose=purpose)

    judge.complete = complete  # type: ignore[method-assign]
    summary = await evaluate_run(run, judge=judge, metrics=["len", "red"], repeats=3)
    assert sorted(set(seeds)) == [0, 100, 200] and len(seeds) == 6
    assert len(run.scores()) == 2 * 3 + 2  # Red per repeat; Len once (it needs no judge)
    red = next(i for i in summary.intervals["scripted"] if i.metric == "red")
    assert red.repeats == 3 and red.mean == pytest.approx((300 / 9 + 600 / 9 + 100) / 3)
    assert red.half_width is not None and red.half_width > 0


async def test_second_judge_scores_the_same_items_and_reports_agreement(tmp_path: Path) -> None:
    run = _blog_run(tmp_path, 4)
    first, second = _scripted_judge("A", 7), _scripted_judge("B", 4)
    summary = await evaluate_run(run, judge=first, second_judge=second, metrics=["len", "red"])
    assert summary.judges == ["A", "B"]
    assert {r["judge"] for r in run.scores().rows()} == {"A", "B", "none"}
    [agreement] = [a for a in summary.agreement if a.metric == "red"]
    assert agreement.n == 4 and agreement.mean_difference == pytest.approx(300 / 9)
    assert agreement.spearman is None  # both judges are constant here: no correlation to report


async def test_random_replacement_lowers_a_judge_that_reads_the_text(tmp_path: Path) -> None:
    from longeval.evaluation import judge_check_replacement

    records = [make_record("arxiv", f"paper-{i}").model_copy(update={"title": f"Paper {i}"}) for i in range(3)]
    run = write_run(RunDir(tmp_path), records, [make_document(r, marker=r.id) for r in records])

    def grade(messages: list) -> str:
        # 10 when the section is the document's own (its text names its record and heading), else 0
        prompt = messages[-1]["content"]
        heading = prompt.split("Section heading: ")[1].split("\n")[0]
        title = prompt.split("Document title: ")[1].split("\n")[0]
        record = next(r for r in records if r.title == title)
        own = f"{record.id}:{heading}" in prompt
        return f'{{"score": {10 if own else 0}}}'

    judge = ScriptedModel().script("judge.content_following", grade)
    levels = await judge_check_replacement(run, judge=judge, shares=[0.5, 1.0], metrics=["cont-fol"])
    values = [level.table[0].value for level in levels]
    assert [level.share for level in levels] == [0.0, 0.5, 1.0]
    assert values == [pytest.approx(100.0), pytest.approx(50.0), pytest.approx(0.0)]
    assert [len(level.replacements) for level in levels] == [0, 9, 18]
