"""The shipped sample dataset: listing, loading, did-you-mean, and every shipped file valid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from longeval.data import samples
from longeval.data.errors import BadRecordsError
from longeval.data.loaders import load_records
from longeval.registry import UnknownNameError


def _record(record_id: str, domain: str) -> dict:
    return {"id": record_id, "domain": domain, "title": "T", "sections": [{"heading": "H", "text": "x y", "plan": "p"}]}


@pytest.fixture
def sample_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, domain in (("arxiv-a", "arxiv"), ("blog-b", "blog"), ("wikipedia-c", "wikipedia")):
        (tmp_path / f"{name}.json").write_text(json.dumps(_record(name, domain)), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a sample", encoding="utf-8")
    monkeypatch.setattr(samples, "samples_root", lambda: tmp_path)
    return tmp_path


def test_list_and_load(sample_folder: Path) -> None:
    assert samples.list_samples() == ["arxiv-a", "blog-b", "wikipedia-c"]
    assert samples.load_sample("blog-b").domain == "blog"
    assert [r.id for r in samples.load_sample_dataset()] == ["arxiv-a", "blog-b", "wikipedia-c"]
    assert [r.id for r in load_records("sample", domain="wikipedia")] == ["wikipedia-c"]


def test_unknown_name_suggests_close_ones(sample_folder: Path) -> None:
    with pytest.raises(UnknownNameError, match="Did you mean blog-b") as caught:
        samples.load_sample("blog-bb")
    assert "Known: arxiv-a, blog-b, wikipedia-c" in str(caught.value)
    with pytest.raises(UnknownNameError, match="Did you mean"):
        samples.load_sample("arxiv")


def test_a_broken_sample_names_its_file_and_field(sample_folder: Path) -> None:
    broken = _record("blog-z", "blog")
    broken["sections"][0]["heading"] = ""
    (sample_folder / "blog-z.json").write_text(json.dumps(broken), encoding="utf-8")
    (sample_folder / "wikipedia-d.json").write_text("{", encoding="utf-8")
    with pytest.raises(BadRecordsError) as caught:
        samples.load_sample_dataset()
    assert {(p.record, p.field) for p in caught.value.problems} == {
        ("blog-z", "sections.0.heading"),
        ("wikipedia-d", "(file)"),
    }


def test_every_shipped_sample_is_a_valid_record() -> None:
    names = samples.list_samples()
    if not names:
        pytest.skip("no sample records shipped in longeval/data/samples/ yet")
    records = samples.load_sample_dataset()
    assert [r.id for r in records] == names  # a sample's file is named for its record id
    for record in records:
        assert all(s.plan.strip() for s in record.sections), f"{record.id}: every section needs its plan"
