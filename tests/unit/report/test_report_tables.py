"""The report on hand-made run folders: missing metrics, unscored items, several runs and judges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from longeval.data.loaders import load_records
from longeval.data.records import GeneratedDocument, GeneratedSection, Record, make_doc_id
from longeval.report import RunReadError, build_report, load_run, load_runs, write_report
from longeval.report.tables import integer
from tests.unit.bench.test_bench_end_to_end import table_rows

JUDGE = "judge-a"


def document(record: Record, writer: str, paradigm: str = "plan") -> GeneratedDocument:
    planner = "given" if paradigm == "plan" else "none"
    return GeneratedDocument(
        doc_id=make_doc_id(record.id, writer, paradigm, planner),
        record_id=record.id,
        domain=record.domain,
        title=record.title,
        writer=writer,
        paradigm=paradigm,  # type: ignore[arg-type]
        planner=planner,
        sections=[
            GeneratedSection(heading=s.heading, text="word " * 30, required_words=s.words, words=30)
            for s in record.sections
        ],
    )


def score(doc: GeneratedDocument, metric: str, value: float | None, *, judge: str = JUDGE, **extra: Any) -> dict:
    return {
        "doc_id": doc.doc_id,
        "record_id": doc.record_id,
        "domain": doc.domain,
        "writer": doc.writer,
        "paradigm": doc.paradigm,
        "planner": doc.planner,
        "metric": metric,
        "judge": "none" if metric == "len" else judge,
        "repeat": 0,
        "value": value,
        "raw": None,
        "explanation": "",
        "metadata": {},
        "unscored": False,
        **extra,
    }


def write_run(path: Path, records: list[Record], docs: list[GeneratedDocument], scores: list[dict]) -> Path:
    path.mkdir(parents=True)
    (path / "records.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in records))
    (path / "generations.jsonl").write_text("".join(d.model_dump_json() + "\n" for d in docs))
    (path / "scores.jsonl").write_text("".join(json.dumps(s) + "\n" for s in scores))
    (path / "run.json").write_text(json.dumps({"command": "bench", "config": {"dataset": "sample"}}))
    return path


@pytest.fixture
def arxiv_and_blog() -> tuple[Record, Record]:
    records = load_records("sample")
    return next(r for r in records if r.domain == "arxiv"), next(r for r in records if r.domain == "blog")


def test_missing_metrics_and_unscored_items_render(tmp_path: Path, arxiv_and_blog: tuple[Record, Record]) -> None:
    arxiv, blog = arxiv_and_blog
    paper, post = document(arxiv, "w"), document(blog, "w")
    scores = [
        score(paper, "len", 50.0),
        score(paper, "cont-fol", 70.0),
        score(paper, "intro", 80.0),
        score(paper, "rw", 60.0),
        score(paper, "me", 40.0),
        score(paper, "ea", None),  # not applicable to this paper: no value, not unscored
        score(paper, "red", None, unscored=True, raw="not json"),
        # "con" never ran for the paper
        score(post, "len", 90.0),
        score(post, "cont-fol", 55.0),
        score(post, "cont-fol", None, unscored=True, repeat=1),
        score(post, "intro", 100.0),
        score(post, "me", 10.0),
        score(post, "red", 30.0),
        score(post, "con", 20.0),
    ]
    run = write_run(tmp_path / "run", [arxiv, blog], [paper, post], scores)
    report = build_report(load_runs([run]), run, plots=False)
    rows = {r["Domain"]: r for r in table_rows(report.markdown, "## Table 4")}
    assert rows["arxiv"] | {} == {
        "Domain": "arxiv",
        "Writer": "w",
        "Overall": "60*",  # mean of 80, 60, 40, 70, 50: EA, Red and Con have no score
        "Intro": "80",
        "RW": "60",
        "EA": "n/s",
        "ME": "40",
        "Cont-fol": "70",
        "Len": "50",
        "Red": "n/s",
        "Con": "n/s",
        "n": "1",
        "unscored": "1",
    }
    blog_row = rows["blog"]
    assert (blog_row["RW"], blog_row["EA"]) == ("-", "-")  # do not apply to blogs
    assert blog_row["Cont-fol"] == "55" and blog_row["unscored"] == "1"  # the unscored repeat is not a 0
    assert blog_row["Overall"] == integer((90 + 55 + 100 + 10 + 30 + 20) / 6)
    assert "## Table 6" not in report.markdown  # one paradigm only
    assert "No usage recorded" in report.markdown


def test_several_runs_and_judges_side_by_side(tmp_path: Path, arxiv_and_blog: tuple[Record, Record]) -> None:
    arxiv, _ = arxiv_and_blog
    paths = []
    for i, run_dir in enumerate(("a/run", "b/run")):
        plan, direct = document(arxiv, "w"), document(arxiv, "w", "direct")
        scores = [score(plan, "len", 10.0 * (i + 1)), score(direct, "len", 5.0), score(plan, "red", 40.0)]
        scores.append(score(plan, "red", 70.0, judge="judge-b"))
        paths.append(write_run(tmp_path / run_dir, [arxiv], [plan, direct], scores))
    report, out = write_report(load_runs(paths), tmp_path / "compare")
    table = table_rows(report.markdown, "## Table 4")
    assert {r["Run"] for r in table} == {"a/run", "b/run"} and {r["Judge"] for r in table} == {JUDGE, "judge-b"}
    lens = {(r["Run"], r["Paradigm"], r["Judge"]): r["Len"] for r in table}
    assert lens[("a/run", "plan (given)", JUDGE)] == "10" and lens[("b/run", "plan (given)", "judge-b")] == "20"
    reds = {(r["Run"], r["Judge"]): r["Red"] for r in table if r["Paradigm"] != "direct"}
    assert reds[("a/run", JUDGE)] == "40" and reds[("a/run", "judge-b")] == "70"
    table6 = table_rows(report.markdown, "## Table 6")
    assert len(table6) == 8  # 2 runs x 2 judges x (direct, plan)
    assert out == tmp_path / "compare" / "report.md"
    assert sorted(p.name for p in (tmp_path / "compare").iterdir()) == [
        "fig1_information_content.png",
        "report.md",
        "section_lengths.png",
    ]
    assert (tmp_path / "compare" / "section_lengths.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_usage_section_sums_purposes(tmp_path: Path, arxiv_and_blog: tuple[Record, Record]) -> None:
    arxiv, _ = arxiv_and_blog
    doc = document(arxiv, "w")
    run = write_run(tmp_path / "run", [arxiv], [doc], [score(doc, "len", 50.0)])
    rows = [
        {"model": "m1", "purpose": "write.section", "calls": 3, "cache_hits": 1, "prompt_tokens": 100,
         "completion_tokens": 50, "latency_s": 2.0, "failures": 0},
        {"model": "m2", "purpose": "write.section", "calls": 2, "cache_hits": 0, "prompt_tokens": 10,
         "completion_tokens": 5, "latency_s": 1.0, "failures": 1},
    ]  # fmt: skip
    totals = {"calls": 5, "cache_hits": 1, "prompt_tokens": 110, "completion_tokens": 55, "latency_s": 3.0}
    (run / "usage.json").write_text(json.dumps({"totals": {**totals, "failures": 1}, "by_model_purpose": rows}))
    report = build_report(load_runs([run]), run, plots=False)
    usage = {r["Purpose"]: r for r in table_rows(report.markdown, "1 document;")}
    assert usage["write.section"]["Calls"] == "5" and usage["write.section"]["Prompt tokens"] == "110"
    assert "5.0 calls and 165 tokens per document" in report.markdown


def test_unreadable_runs_are_named(tmp_path: Path) -> None:
    with pytest.raises(RunReadError, match="not a run folder"):
        load_run(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    with pytest.raises(RunReadError, match="neither run.json nor generations.jsonl"):
        load_run(tmp_path / "empty")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "run.json").write_text("{}")
    (bad / "scores.jsonl").write_text('{"doc_id": "d"}\n{"torn": ')
    with pytest.raises(RunReadError, match=r"scores.jsonl:1: not a valid ScoreRow"):
        load_run(bad)
    (bad / "scores.jsonl").write_text('{"torn": ')  # a line still being written is ignored
    assert load_run(bad).scores == []
