"""Length and error analysis on the released length-constrained outputs (one model/constraint file: fast)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import nltk
import pytest

from longeval.hellobench.errors import OutputMeasures, analyse_errors, measure_output, measure_outputs
from longeval.hellobench.plots import plot_length_distributions
from longeval.hellobench.results_files import Output, read_outputs


def constrained(hellobench_dir: Path, model: str, size: str) -> Path:
    return (
        hellobench_dir
        / "judgements"
        / "length_constrained_exp"
        / model
        / f"heuristic_text_generation_{size}_results.jsonl"
    )


def test_nltk_mean_equals_plain_word_tokenize(hellobench_dir: Path) -> None:
    path = constrained(hellobench_dir, "gpt4o_0806", "2k")
    plain = [len(nltk.word_tokenize(json.loads(line)["response"])) for line in path.read_text().splitlines()]
    (group,) = analyse_errors(measure_outputs(read_outputs(path)))
    assert (group.model, group.length_constraint, group.outputs) == ("gpt4o_0806", "2k", 123)
    assert group.lengths["nltk"].mean == pytest.approx(statistics.fmean(plain))
    assert group.lengths["nltk"].median == statistics.median(plain)
    assert group.required_words == 2000
    assert group.reaching_share == pytest.approx(sum(n >= 2000 for n in plain) / len(plain))
    assert group.length_perception_error == pytest.approx(statistics.fmean(abs(n - 2000) for n in plain))


def test_repetition_flags_real_repetitive_output_and_not_a_clean_one(hellobench_dir: Path) -> None:
    suri = {o.id: o for o in read_outputs(constrained(hellobench_dir, "suri_7b", "2k"))}
    repetitive = measure_output(suri["heuristic_text_generation_049"], counters=["whitespace"])
    assert max(repetitive.repeated.values()) >= 3
    clean_output = {o.id: o for o in read_outputs(constrained(hellobench_dir, "gpt4o_0806", "2k"))}
    clean = measure_output(clean_output["heuristic_text_generation_000"], counters=["whitespace"])
    assert clean.repeated == {}


def test_refusal_found_in_released_chat_outputs(hellobench_dir: Path) -> None:
    outputs = read_outputs(hellobench_dir / "judgements" / "main_exp" / "gpt4o_0806" / "chat_results.jsonl")
    (group,) = analyse_errors(measure_outputs(outputs, counters=["whitespace"]), counter="whitespace")
    assert group.refusal_ids == ["chat_011"]
    assert group.refusal_rate == pytest.approx(1 / 147)
    assert group.required_words is None and group.reaching_share is None  # no constraint, no --required-words


def test_a_folder_of_model_folders(hellobench_dir: Path) -> None:
    outputs = read_outputs(hellobench_dir / "judgements" / "length_constrained_exp")
    groups = {(o.model, o.length_constraint) for o in outputs}
    assert len(groups) == 12 and ("suri_7b", "16k") in groups


def measures(model: str, constraint: str | None, lengths: list[int], repeated: int = 0) -> list[OutputMeasures]:
    return [
        OutputMeasures(
            id=f"{model}-{i}",
            model=model,
            length_constraint=constraint,
            lengths={"whitespace": n},
            repeated={"a repeated sentence of words": 3} if i < repeated else {},
            refusal=False,
        )
        for i, n in enumerate(lengths)
    ]


def test_error_table_by_hand() -> None:
    rows = measures("m", "2k", [1000, 2000, 3000, 2500], repeated=1) + measures("m", None, [10, 30])
    main, two_k = analyse_errors(rows, counter="whitespace")
    assert (two_k.reaching_share, two_k.length_perception_error) == (0.75, pytest.approx((1000 + 0 + 1000 + 500) / 4))
    assert two_k.repetition_rate == 0.25 and two_k.repetitive_ids == ["m-0"]
    assert two_k.lengths["whitespace"].median == 2250
    assert main.reaching_share is None
    (overridden,) = analyse_errors(measures("m", None, [10, 30]), counter="whitespace", required_words=20)
    assert (overridden.reaching_share, overridden.length_perception_error) == (0.5, 10)


def test_plot_writes_a_png(tmp_path: Path) -> None:
    rows = measures("a", "2k", [1500, 2200]) + measures("a", "4k", [3000, 4100]) + measures("b", "2k", [900, 1000])
    path = plot_length_distributions(rows, tmp_path / "plots" / "lengths.png", counter="whitespace")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_folder_outputs(tmp_path: Path) -> None:
    row = {"doc_id": "t1", "model": "m", "length_constraint": "4k", "response": "Hello there."}
    (tmp_path / "generations.jsonl").write_text(json.dumps(row) + "\n")
    assert read_outputs(tmp_path) == [Output(id="t1", model="m", length_constraint="4k", response="Hello there.")]
