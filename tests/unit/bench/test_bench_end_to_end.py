"""A small bench end to end on scripted models: every number of the report traceable to scores.jsonl."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path
from statistics import fmean

from longeval.bench import BenchConfig, run_bench
from longeval.data.records import Record
from longeval.evaluators.catalog import LONGEVAL_METRICS, metrics_for_domain
from longeval.report import load_runs, write_report
from longeval.runs import RunDir, read_jsonl
from tests.unit.bench.conftest import fresh_backends

LABELS = {"len": "Len", "cont-fol": "Cont-fol", "red": "Red", "con": "Con", "intro": "Intro", "rw": "RW"}
LABELS |= {"ea": "EA", "me": "ME"}


def table_rows(markdown: str, title: str) -> list[dict[str, str]]:
    block = markdown[markdown.index(title) :].split("\n\n")[1]
    lines = [line.strip("|").split("|") for line in block.splitlines()]
    header = [h.strip() for h in lines[0]]
    return [dict(zip(header, (c.strip() for c in cells), strict=True)) for cells in lines[2:]]


def expected_from_scores(rows: list[dict], judge: str) -> dict[tuple[str, str, str], dict[str, float | None]]:
    """Recomputed independently: per (domain, writer, paradigm) and metric, the mean of scored rows."""
    values: dict[tuple[str, str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        if row["judge"] in (judge, "none") and row["value"] is not None:
            values[(row["domain"], row["writer"], row["paradigm"])][row["metric"]].append(row["value"])
    return {group: {m: fmean(v) for m, v in per_metric.items()} for group, per_metric in values.items()}


def half_up(value: float) -> str:
    return str(math.floor(value + 0.5))


async def test_small_bench_report_traces_to_scores(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record]
) -> None:
    backends = fresh_backends()
    events: list[dict] = []
    summary = await run_bench(
        small_config, run=RunDir(tmp_path / "run"), backends=backends, records=small_records, on_event=events.append
    )
    assert summary.complete and summary.documents == 6 and summary.written == 6
    assert {e["type"] for e in events} >= {"plan", "stage", "write.step", "document", "score", "done"}

    report, path = write_report(load_runs([tmp_path / "run"]), tmp_path / "run")
    assert path.read_text() == report.markdown
    scores = read_jsonl(tmp_path / "run" / "scores.jsonl")
    expected = expected_from_scores(scores, "scripted-judge")
    table = table_rows(report.markdown, "## Table 4")
    assert len(table) == 6
    for row in table:
        paradigm = "plan" if row["Paradigm"].startswith("plan") else "direct"
        group = expected[(row["Domain"], row["Writer"], paradigm)]
        applicable = metrics_for_domain(row["Domain"])
        for metric in LONGEVAL_METRICS:
            shown = row[LABELS[metric]]
            if metric not in applicable:
                assert shown == "-", (row, metric)
            else:
                assert shown == half_up(group[metric]), (row, metric)
        assert row["Overall"] == half_up(fmean(group[m] for m in applicable))
        documents = {s["doc_id"] for s in scores if (s["domain"], s["paradigm"]) == (row["Domain"], paradigm)}
        assert row["n"] == str(len(documents)) == "1"
        assert row["unscored"] == "0"
    table6 = table_rows(report.markdown, "## Table 6")
    assert len(table6) == 6 and {r["Paradigm"] for r in table6} == {"direct", "plan (given)"}
    assert all((tmp_path / "run" / name).stat().st_size > 0 for name in ("fig1_information_content.png",))


async def test_provenance_and_usage_are_written(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record]
) -> None:
    backends = fresh_backends()
    await run_bench(small_config, run=RunDir(tmp_path / "run"), backends=backends, records=small_records)
    provenance = json.loads((tmp_path / "run" / "run.json").read_text())
    assert provenance["command"] == "bench" and provenance["finished"]
    assert provenance["config"]["fingerprint"] == small_config.fingerprint()
    assert provenance["bench"]["complete"] is True and provenance["bench"]["sessions"] == 1
    assert provenance["prompt_hashes"]["write_section"]
    usage = json.loads((tmp_path / "run" / "usage.json").read_text())
    assert usage["totals"]["calls"] == sum(len(m.calls) for m in backends.values())


async def test_a_rerun_of_a_finished_bench_makes_no_call(
    tmp_path: Path, small_config: BenchConfig, small_records: list[Record]
) -> None:
    run = RunDir(tmp_path / "run")
    await run_bench(small_config, run=run, backends=fresh_backends(), records=small_records)
    again = fresh_backends()
    summary = await run_bench(small_config, run=run, backends=again, records=small_records)
    assert summary.reused == 6 and summary.written == 0 and summary.judged == 0
    assert all(not m.calls for m in again.values())
    assert json.loads(run.run_json.read_text())["bench"]["sessions"] == 2


async def test_a_second_judge_and_repeats_show_side_by_side(tmp_path: Path) -> None:
    from tests.unit.bench.scripted import scripted_judge, scripted_writer

    config = BenchConfig(writers=["w"], judge="j", second_judge="j2", repeats=2, domains=["blog"], limit=1)
    backends = {"w": scripted_writer(), "j": scripted_judge(), "j2": scripted_judge("second-judge")}
    summary = await run_bench(config, run=RunDir(tmp_path / "run"), backends=backends)
    assert summary.complete
    scores = read_jsonl(tmp_path / "run" / "scores.jsonl")
    assert {(s["judge"], s["repeat"]) for s in scores if s["metric"] == "red"} == {
        (j, r) for j in ("scripted-judge", "second-judge") for r in (0, 1)
    }
    report, _ = write_report(load_runs([tmp_path / "run"]), tmp_path / "run", plots=False)
    table = table_rows(report.markdown, "## Table 4")
    assert [r["Judge"] for r in table] == ["scripted-judge", "second-judge"]
    for row in table:
        expected = expected_from_scores(scores, row["Judge"])[("blog", "scripted-writer", "plan")]
        assert row["Red"] == half_up(expected["red"]) and row["Len"] == half_up(expected["len"])
    provenance = json.loads((tmp_path / "run" / "run.json").read_text())
    assert provenance["models"]["second_judge"] == "j2" and "second-judge" in provenance["endpoints"]
