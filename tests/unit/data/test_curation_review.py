"""The review sheet round trip (the paper's human check): export, fill in, apply."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from typer.testing import CliRunner

from longeval.data.curation_review import (
    ReviewSheetError,
    apply_review,
    export_review_sheet,
    read_review_sheet,
)
from longeval.data.loaders import load_records, write_records_jsonl
from longeval.data.records import Record, Section


def make_record(record_id: str, domain: str, headings: list[str]) -> Record:
    return Record(
        id=record_id,
        domain=domain,  # type: ignore[arg-type]
        title=record_id,
        sections=[Section(heading=h, text=f"gold text of {h} " * 5, plan=f"Plan of {h}.") for h in headings],
    )


RECORDS = [
    make_record("arxiv-a", "arxiv", ["Abstract", "Introduction"]),
    make_record("arxiv-b", "arxiv", ["Abstract", "Introduction"]),
    make_record("blog-c", "blog", ["Introduction", "Tips"]),
]


def fill(sheet: Path, verdicts: dict[tuple[str, str], str]) -> None:
    with sheet.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
        fields = list(rows[0])
    for row in rows:
        row["adequate"] = verdicts.get((row["record_id"], row["heading"]), "")
    with sheet.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)


def test_round_trip_drops_rejected_records(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    assert export_review_sheet(RECORDS, sheet) == 6
    fill(
        sheet,
        {
            ("arxiv-a", "Abstract"): "yes",
            ("arxiv-a", "Introduction"): "no",
            ("arxiv-b", "Abstract"): "Y",
            ("arxiv-b", "Introduction"): "adequate",
            ("blog-c", "Introduction"): "yes",
        },
    )
    outcome = apply_review(RECORDS, read_review_sheet(sheet))
    assert [r.id for r in outcome.kept] == ["arxiv-b", "blog-c"]
    assert outcome.rejected == {"arxiv-a": ["Introduction"]}
    assert outcome.unreviewed == 1
    arxiv, blog = outcome.by_domain
    assert (arxiv.plans_reviewed, arxiv.plans_adequate, arxiv.records_kept, arxiv.records_rejected) == (4, 3, 1, 1)
    assert arxiv.adequate_share == pytest.approx(0.75)
    assert (blog.plans_reviewed, blog.plans_adequate, blog.records_rejected) == (1, 1, 0)


def test_bad_verdicts_are_reported_by_line_and_column(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    export_review_sheet(RECORDS, sheet)
    fill(sheet, {("arxiv-a", "Abstract"): "maybe", ("blog-c", "Tips"): "perhaps"})
    with pytest.raises(ReviewSheetError) as caught:
        read_review_sheet(sheet)
    message = str(caught.value)
    assert "sheet.csv:2: column adequate" in message and "'maybe' is not a verdict" in message
    assert "sheet.csv:7: column adequate" in message


def test_a_sheet_for_other_records_is_refused(tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    export_review_sheet(RECORDS, sheet)
    changed = [make_record("arxiv-a", "arxiv", ["Abstract", "Background"]), RECORDS[2]]
    with pytest.raises(ReviewSheetError) as caught:
        apply_review(changed, read_review_sheet(sheet))
    assert "record arxiv-a: section 1 is not 'Introduction'" in str(caught.value)
    assert "record arxiv-b: not in the dataset" in str(caught.value)


def test_cli_apply_review(tmp_path: Path) -> None:
    from longeval.cli import app

    dataset, sheet = tmp_path / "peps.jsonl", tmp_path / "peps.review.csv"
    write_records_jsonl(dataset, RECORDS)
    export_review_sheet(RECORDS, sheet)
    fill(sheet, {("blog-c", "Tips"): "no"})
    result = CliRunner().invoke(app, ["curate", "--apply-review", str(sheet), "--out", str(dataset)])
    assert result.exit_code == 0, result.output
    assert "rejected blog-c: inadequate plan for 'Tips'" in result.output
    assert [r.id for r in load_records(tmp_path / "peps.reviewed.jsonl")] == ["arxiv-a", "arxiv-b"]


def test_cli_refuses_curation_without_a_domain(tmp_path: Path) -> None:
    from longeval.cli import app

    doc = tmp_path / "a.md"
    doc.write_text("# T\n\n## A\n\ntext\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["curate", str(doc), "--out", str(tmp_path / "o.jsonl")])
    assert result.exit_code == 2 and "--domain" in result.output
