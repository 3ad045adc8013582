from __future__ import annotations

import json
from pathlib import Path

from longeval.runs import JsonlStore, RunDir, score_key


def test_store_skips_duplicates_and_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "scores.jsonl"
    store = JsonlStore(path, score_key)
    row = {"doc_id": "d1", "metric": "red", "judge": "local", "repeat": 0, "value": 70.0}
    assert store.append(row) is True
    assert store.append({**row, "value": 10.0}) is False  # same key: never written twice
    reopened = JsonlStore(path, score_key)
    assert len(reopened) == 1 and reopened.get("d1|red|local|0")["value"] == 70.0
    assert len(path.read_text().splitlines()) == 1


def test_torn_last_line_is_cut_off_on_reopen(tmp_path: Path) -> None:
    path = tmp_path / "generations.jsonl"
    good = json.dumps({"doc_id": "a"}) + "\n"
    path.write_text(good + '{"doc_id": "b", "sec')  # a kill in the middle of a write
    store = JsonlStore(path, lambda r: r["doc_id"])
    assert "a" in store and "b" not in store and len(store) == 1
    assert path.read_text() == good
    store.append({"doc_id": "b"})
    assert [json.loads(line)["doc_id"] for line in path.read_text().splitlines()] == ["a", "b"]


def test_provenance_keeps_first_start_and_counts_resumes(tmp_path: Path) -> None:
    run = RunDir(tmp_path / "run")
    args = dict(
        command="write",
        config={"planner": "given"},
        models={"writer": "local"},
        endpoints={"writer": "local"},
        dataset_hash="abc",
        seed=0,
        prompt_hashes={"p": "h"},
    )
    first = run.start(**args)
    second = run.start(**args)
    assert second["started"] == first["started"] and second["resumed"] == 1
    run.finish(documents=3)
    provenance = run.read_provenance()
    assert provenance["finished"] is not None and provenance["documents"] == 3
    assert provenance["version"] and provenance["config"] == {"planner": "given"}
