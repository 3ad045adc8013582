"""Generation and judging with a scripted model: defaults, resume, retry, unscored, failures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from longeval.hellobench.generation import GenerationSettings, generate_responses
from longeval.hellobench.judging import JudgeSettings, judge_responses, judge_task
from longeval.hellobench.results_files import read_run_judgements
from longeval.hellobench.scoring import score_judgement, summarise
from longeval.hellobench.tasks import Task, load_weights
from longeval.llm.scripted import ScriptedModel
from longeval.llm.types import Message, ModelError
from longeval.runs import JsonlStore, RunDir

TASKS = [
    Task(
        id=f"heuristic_text_generation_00{i}",
        category="heuristic_text_generation",
        subcategory="story_writing",
        instruction=f"Write story number {i}. It must be no shorter than 2000 words.",
        checklist=[f"Question {k}?" for k in range(5)],
        length_constraint="2k",
    )
    for i in range(3)
]


def verdict(scores: list[float]) -> str:
    items = [{"checklist_id": i, "reason": "because", "evaluation_score": s} for i, s in enumerate(scores)]
    return json.dumps({"checklist_wise_evaluation": items})


def fail_for_good(_messages: list[Message]) -> str:
    raise ModelError("server down", endpoint="scripted://", purpose="test")


async def test_generation_uses_paper_defaults_and_resumes(tmp_path: Path) -> None:
    model = ScriptedModel().script("hellobench.generate", lambda msgs: "Once upon a time. " * 3)
    run = RunDir(tmp_path / "run")
    done: list[str] = []
    summary = await generate_responses(TASKS, model, run.generations(), GenerationSettings(), on_done=done.append)
    assert (summary.generated, summary.skipped, summary.failed) == (3, 0, [])
    assert sorted(done) == [t.id for t in TASKS]
    call = model.calls[0]
    assert (call.temperature, call.max_tokens) == (0.8, 16384)
    assert call.messages == [{"role": "user", "content": TASKS[0].instruction}]
    row = run.generations().get(TASKS[0].id)
    assert row is not None and row["length_constraint"] == "2k" and row["model"] == "scripted"

    again = await generate_responses(TASKS, model, run.generations(), GenerationSettings())
    assert (again.generated, again.skipped) == (0, 3)
    assert len(model.calls) == 3


async def test_generation_failure_is_reported_not_written(tmp_path: Path) -> None:
    model = ScriptedModel().script("hellobench.generate", "A response.")
    model.script("hellobench.generate", fail_for_good, when=lambda prompt: "number 1" in prompt)
    store = JsonlStore(tmp_path / "generations.jsonl", lambda r: r["doc_id"])
    summary = await generate_responses(TASKS, model, store, GenerationSettings(temperature=0.2, max_tokens=100))
    assert summary.generated == 2
    assert [task_id for task_id, _ in summary.failed] == [TASKS[1].id]
    assert TASKS[1].id not in store
    assert {(c.temperature, c.max_tokens) for c in model.calls} == {(0.2, 100)}


async def test_judge_scores_each_item() -> None:
    judge = ScriptedModel(model_name="judge").script("hellobench.judge", verdict([1, 0.75, 0.5, 0.25, 0]))
    row = await judge_task(TASKS[0], "A story.", judge, JudgeSettings())
    w = load_weights()["story_writing"]
    assert row["status"] == "scored"
    assert row["weighted_score"] == pytest.approx(w[0] + 0.75 * w[1] + 0.5 * w[2] + 0.25 * w[3])
    call = judge.calls[0]
    assert (call.temperature, call.seed, call.max_tokens) == (0.8, 42, 4096)
    assert call.json_schema is not None
    assert "Question 4?" in call.prompt and "A story." in call.prompt


async def test_wrong_item_count_is_retried_once_then_scored() -> None:
    judge = ScriptedModel().script("hellobench.judge", [verdict([1, 1, 1]), verdict([1, 1, 1, 1, 1])])
    row = await judge_task(TASKS[0], "A story.", judge, JudgeSettings())
    assert row["status"] == "scored" and row["weighted_score"] == pytest.approx(100.0)
    assert len(judge.calls) == 2
    assert "at least 5 items" in judge.calls[1].prompt  # the corrective message names the problem
    schema = judge.calls[0].json_schema
    assert schema is not None
    items = schema["properties"]["checklist_wise_evaluation"]
    assert (items["minItems"], items["maxItems"]) == (5, 5)
    item_schema = schema["$defs"][items["items"]["$ref"].rsplit("/", 1)[1]]
    assert (
        item_schema["properties"]["checklist_id"]["minimum"],
        item_schema["properties"]["checklist_id"]["maximum"],
    ) == (0, 4)


async def test_wrong_item_count_twice_is_unscored_and_counted(tmp_path: Path) -> None:
    judge = ScriptedModel(model_name="judge").script("hellobench.judge", verdict([1, 1, 1, 1, 1]))
    judge.script("hellobench.judge", [verdict([1, 1]), verdict([1, 1, 1, 1, 1, 1])], when=lambda p: "number 2" in p)
    run = RunDir(tmp_path / "run")
    tasks = {t.id: t for t in TASKS}
    generations = [{"doc_id": t.id, "response": "A story."} for t in TASKS]
    summary = await judge_responses(tasks, generations, judge, run.scores(), JudgeSettings())
    assert summary.scored == 2
    assert [task_id for task_id, _ in summary.unscored] == [TASKS[2].id]
    unscored = run.scores().get(f"{TASKS[2].id}|helloeval|judge|0")
    assert unscored is not None and unscored["status"] == "unscored"
    assert unscored["checklist_wise_evaluation"] is None and len(unscored["raw_replies"]) == 2

    judgements, _ = read_run_judgements(run.path)
    report = summarise([score_judgement(j, load_weights()) for j in judgements])
    assert (report.scored, report.unscored) == (2, 1)
    assert report.groups[0].mean == pytest.approx(100.0)

    calls_before = len(judge.calls)
    again = await judge_responses(tasks, generations, judge, run.scores(), JudgeSettings())
    assert (again.skipped, again.scored, len(judge.calls)) == (3, 0, calls_before)  # resumed: no duplicates


async def test_judge_call_failure_is_not_written(tmp_path: Path) -> None:
    judge = ScriptedModel().script("hellobench.judge", fail_for_good)
    store = JsonlStore(tmp_path / "scores.jsonl", lambda r: f"{r['doc_id']}|{r['metric']}|{r['judge']}|{r['repeat']}")
    summary = await judge_responses(
        {TASKS[0].id: TASKS[0]}, [{"doc_id": TASKS[0].id, "response": "x"}], judge, store, JudgeSettings()
    )
    assert len(summary.failed) == 1 and len(store) == 0


async def test_long_responses_are_cut_to_the_token_limit() -> None:
    judge = ScriptedModel().script("hellobench.judge", verdict([1, 1, 1, 1, 1]))
    response = "Alpha beta gamma, delta zebra yak."
    row = await judge_task(TASKS[0], response, judge, JudgeSettings(max_response_tokens=4))
    assert row["response_truncated"] is True
    assert "Alpha beta gamma ," in judge.calls[0].prompt and "zebra" not in judge.calls[0].prompt
    kept = await judge_task(TASKS[0], response, judge, JudgeSettings(max_response_tokens=8))
    assert kept["response_truncated"] is False and response in judge.calls[1].prompt


async def test_judging_needs_the_task_records(tmp_path: Path) -> None:
    store = JsonlStore(tmp_path / "scores.jsonl", lambda r: r["doc_id"])
    with pytest.raises(ValueError, match="without a task record"):
        await judge_responses({}, [{"doc_id": "a", "response": "x"}], ScriptedModel(), store, JudgeSettings())
