"""The length sweep on a scripted model; LongBench-Write style prompts from the shared data."""

from __future__ import annotations

from pathlib import Path

import pytest

from longeval.bench.length_sweep import SweepConfig, run_sweep, summarise_sweep, write_sweep_report
from longeval.bench.sweep_prompts import SweepInputError, ruler_prompts
from longeval.evaluators.measures import length_score_sl
from longeval.llm.scripted import ScriptedModel
from longeval.llm.types import Message
from longeval.runs import RunDir


def eighty_words(messages: list[Message]) -> str:
    return " ".join(["word"] * 80)


async def test_sweep_scores_each_length_and_resumes(tmp_path: Path) -> None:
    model = ScriptedModel(model_name="m").script("sweep.write", eighty_words)
    config = SweepConfig(lengths=[100, 50], prompts=2)
    run = RunDir(tmp_path / "sweep")
    rows = await run_sweep(config, run=run, models={"local": model})
    assert len(rows) == 4 and len(model.calls) == 4
    assert all("words long" in c.prompt and "## " in c.prompt for c in model.calls)  # the content plan is given
    assert sorted({c.max_tokens for c in model.calls}) == [139, 214]  # the allowance follows the length

    points = {p.length: p for p in summarise_sweep(rows)}
    assert points[50].len_score == 100.0 and points[100].len_score == pytest.approx(80.0)
    assert points[50].s_l == pytest.approx(length_score_sl(50, 80)) and points[100].n == 2
    markdown, plot = write_sweep_report(list(points.values()), run.path, "whitespace")
    assert "| m | 100 | 2 | 80 | 80 | 88 |" in markdown.read_text()
    assert plot.read_bytes()[:4] == b"\x89PNG"

    again = ScriptedModel(model_name="m")  # unscripted: any call would fail
    assert len(await run_sweep(config, run=run, models={"local": again})) == 4 and not again.calls


def test_ruler_prompts_put_each_length_in_the_instruction(shared_data: Path) -> None:
    prompts = ruler_prompts(shared_data / "longbench_write" / "longwrite_ruler.jsonl", 10)
    assert 1 <= len(prompts) <= 10
    assert all(p.template.isascii() and p.template.count("{words}") == 1 for p in prompts)
    assert len({p.template for p in prompts}) == len(prompts)  # one per topic, not per length
    text = "\n".join(m["content"] for m in prompts[0].messages(1234))
    assert "1234" in text and "{words}" not in text


def test_ruler_prompts_name_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text('{"prompt": "Write a 300-word note"}\n{"prompt": 3}\n')
    with pytest.raises(SweepInputError, match=r"p.jsonl:2: field prompt"):
        ruler_prompts(path, 5)
    with pytest.raises(SweepInputError, match="does not exist"):
        ruler_prompts(tmp_path / "absent.jsonl", 5)


def test_lengths_are_checked() -> None:
    with pytest.raises(ValueError, match="at least 1 word"):
        SweepConfig(lengths=[100, 0])
