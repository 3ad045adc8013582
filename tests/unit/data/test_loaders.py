"""Loaders: our JSONL, the Hugging Face layout (JSON list, JSONL, parquet, hf:), bad records."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from longeval.data.errors import BadRecordsError, DataSourceError
from longeval.data.loaders import load_records, write_records_jsonl
from longeval.data.records import Record, Section

FIXTURES = Path(__file__).parent / "fixtures"


def hf_rows() -> list[dict]:
    return json.loads((FIXTURES / "hf_paper.json").read_text(encoding="utf-8"))


def test_hf_layout_json_list_maps_every_field() -> None:
    first, second = load_records(FIXTURES / "hf_paper.json")
    assert (first.id, first.domain) == ("arxiv-0", "arxiv")  # domain from the file name's split
    assert first.title == "Learning to Route Tokens in Small Transformers"
    assert [s.heading for s in first.sections][:2] == ["Abstract", "1 Introduction"]
    assert first.sections[0].plan == (
        "The paper studies token routing in small transformers. Routing improves perplexity at equal cost."
    )
    assert first.sections[1].text.startswith("Small language models are cheap")
    assert [s.words for s in first.sections] == [18, 20, 20, 20, 22, 14]
    assert len(first.references) == 2 and first.references[0].startswith("[1] R. Jacobs")
    assert first.experiment_results == ["Table 1: perplexity 31.2 (dense) vs 29.9 (routed); throughput 100% vs 96%."]
    assert second.id == "arxiv-1"
    assert second.references == [] and second.experiment_results == []  # [''] means none


def test_length_requirement_falls_back_to_gold_length(tmp_path: Path) -> None:
    row = hf_rows()[1]
    row["length_requirement"] = [None, "", "7"]
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    (record,) = load_records(path, domain="blog")
    gold = [len(s.text.split()) for s in record.sections]
    assert [s.words for s in record.sections] == [gold[0], gold[1], 7]
    assert (record.id, record.domain) == ("blog-0", "blog")


def test_every_bad_record_is_reported_by_id_and_field(tmp_path: Path) -> None:
    good, second = hf_rows()
    missing_title = {k: v for k, v in second.items() if k != "title"}
    fewer_plans = {**second, "id": "paper-few-plans", "bullet_points": [["only one"]]}
    empty_section = {**second, "id": "paper-empty", "sections": ["text", "  ", "more text"]}
    path = tmp_path / "Paper.json"
    path.write_text(json.dumps([good, missing_title, fewer_plans, empty_section]), encoding="utf-8")

    with pytest.raises(BadRecordsError) as caught:
        load_records(path)
    found = {(p.record, p.field) for p in caught.value.problems}
    assert found == {("arxiv-1", "title"), ("paper-few-plans", "bullet_points"), ("paper-empty", "sections.1")}
    message = str(caught.value)
    assert "3 bad record(s)" in message and "paper-few-plans" in message and "1 plans for 3 sections" in message

    kept = load_records(path, on_bad_record="skip")
    assert [r.id for r in kept] == ["arxiv-0"]


def test_our_jsonl_round_trip_and_schema_errors(tmp_path: Path) -> None:
    record = Record(id="blog-x", domain="blog", title="T", sections=[Section(heading="Intro", text="a b c")])
    path = tmp_path / "ours.jsonl"
    write_records_jsonl(path, [record])
    assert load_records(path) == [record]

    bad = {"id": "bad-1", "domain": "poetry", "title": "T", "sections": [{"heading": "", "text": "x"}]}
    path.write_text(record.model_dump_json() + "\n" + json.dumps(bad) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(BadRecordsError) as caught:
        load_records(path)
    found = {(p.record, p.field) for p in caught.value.problems}
    assert ("bad-1", "domain") in found and ("bad-1", "sections.0.heading") in found
    assert any("not valid JSON" in p.source for p in caught.value.problems)


def test_duplicate_ids_are_problems(tmp_path: Path) -> None:
    row = {"id": "same", "domain": "blog", "title": "T", "sections": [{"heading": "H", "text": "x"}]}
    path = tmp_path / "dup.jsonl"
    path.write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(BadRecordsError, match="duplicate id"):
        load_records(path)


def test_parquet_in_hf_layout(tmp_path: Path) -> None:
    path = tmp_path / "wikipedia-00000-of-00001.parquet"
    pq.write_table(pa.Table.from_pylist(hf_rows()), path)
    records = load_records(path)
    assert [r.id for r in records] == ["wikipedia-0", "wikipedia-1"]
    assert all(r.domain == "wikipedia" for r in records)
    assert records[0].sections[3].plan.startswith("Each token is sent")


def test_domain_is_required_where_nothing_tells_it(tmp_path: Path) -> None:
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(hf_rows()[:1]), encoding="utf-8")
    with pytest.raises(BadRecordsError) as caught:
        load_records(path)
    assert [(p.record, p.field) for p in caught.value.problems] == [("#0", "domain")]
    assert load_records(path, domain="blog")[0].domain == "blog"


def test_split_keyed_json_and_a_folder(tmp_path: Path) -> None:
    (tmp_path / "all.json").write_text(json.dumps({"Paper": hf_rows()[:1], "Blog": hf_rows()[1:]}), encoding="utf-8")
    records = load_records(tmp_path)
    assert [(r.id, r.domain) for r in records] == [("arxiv-0", "arxiv"), ("blog-0", "blog")]


def test_unreadable_sources(tmp_path: Path) -> None:
    with pytest.raises(DataSourceError, match="no such file"):
        load_records(tmp_path / "missing.jsonl")
    (tmp_path / "data.csv").write_text("a,b\n", encoding="utf-8")
    with pytest.raises(DataSourceError, match="unknown dataset file type"):
        load_records(tmp_path / "data.csv")
    with pytest.raises(ValueError, match="on_bad_record"):
        load_records(tmp_path / "data.csv", on_bad_record="ignore")  # type: ignore[arg-type]


def test_hf_source_through_datasets(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = hf_rows()
    fake = types.ModuleType("datasets")
    fake.load_dataset = lambda name: {"Paper": rows[:1], "Blog": rows[1:]}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "datasets", fake)
    assert [r.id for r in load_records("hf:SiweiWu/LongEval")] == ["arxiv-0", "blog-0"]
    assert [r.id for r in load_records("hf:SiweiWu/LongEval", domain="blog")] == ["blog-0"]
    assert [r.id for r in load_records("hf:SiweiWu/LongEval:Paper")] == ["arxiv-0"]

    def offline(name: str) -> None:
        raise ConnectionError("hub unreachable")

    fake.load_dataset = offline  # type: ignore[attr-defined]
    with pytest.raises(DataSourceError, match="cannot load from the Hugging Face hub"):
        load_records("hf:SiweiWu/LongEval")


def test_hf_source_without_datasets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "datasets", None)  # import fails as if not installed
    with pytest.raises(DataSourceError, match=r"longeval\[hf\]"):
        load_records("hf:SiweiWu/LongEval")
