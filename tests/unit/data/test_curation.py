"""Curation end to end with the scripted model: plans, ratio, filters, resume, limit, summary."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from longeval.data.curation import CurationSettings, fold_sections, summarize
from longeval.data.curation_plans import PURPOSE, PlanError, clean_plan, curate_files, side_cache_path
from longeval.data.loaders import load_records
from longeval.data.splitters import SplitSection
from longeval.llm.scripted import ScriptedModel, UnscriptedCallError
from longeval.llm.types import Message

FIXTURES = Path(__file__).parent / "fixtures"
PLAN_WORDS = 17  # plan_reply's words besides the heading


def plan_reply(messages: list[Message]) -> str:
    heading = re.search(r"^Section: (.+)$", messages[-1]["content"], re.M)
    assert heading is not None
    return f"The section {heading.group(1)} sets out its topic. It gives an example. It names a risk. It ends here."


def planning_model() -> ScriptedModel:
    return ScriptedModel().script(PURPOSE, plan_reply)


@pytest.fixture
def docs(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "docs"
    folder.mkdir()
    return {name: Path(shutil.copy(FIXTURES / name, folder / name)) for name in ("paper.tex", "post.md")}


async def test_plans_written_for_every_section(docs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    model = planning_model()
    settings = CurationSettings(domain="arxiv", min_words=50)
    result = await curate_files([docs["paper.tex"]], settings=settings, model=model, out=out)

    (record,) = result.records
    assert record.id == "arxiv-paper" and record.title == "Sparse Routing for Tiny Language Models"
    assert [s.heading for s in record.sections] == [
        "Abstract",
        "Introduction",
        "Related Work",
        "Method",
        "Experiments",
        "Conclusion",
    ]
    assert "#### Load balancing" in record.sections[2].text  # subsections folded into their parent
    assert all(s.plan.startswith(f"The section {s.heading} sets out") for s in record.sections)
    assert len(model.calls_for(PURPOSE)) == len(record.sections) == result.plans_requested
    first_prompt = model.calls[0].prompt
    assert "Sparse Routing for Tiny Language Models" in first_prompt and "We study how sparse routing" in first_prompt
    assert record.plan_words == sum(PLAN_WORDS + len(s.heading.split()) for s in record.sections)
    assert load_records(out) == [record]

    (summary,) = summarize(result.records)
    assert (summary.domain, summary.count) == ("arxiv", 1)
    assert summary.ratio == pytest.approx(record.plan_words / record.gold_words)


async def test_filters_say_why_a_document_was_dropped(docs: dict[str, Path], tmp_path: Path) -> None:
    model = ScriptedModel()  # strict: no call may happen for dropped documents
    result = await curate_files(
        [docs["post.md"], docs["paper.tex"]],
        settings=CurationSettings(domain="arxiv", min_words=5000),
        model=model,
        out=tmp_path / "out.jsonl",
    )
    assert result.records == [] and model.calls == []
    reasons = {Path(d.source).name: d.reasons for d in result.dropped}
    assert reasons["post.md"][0].startswith("too short: ")
    assert "--min-words 5000" in reasons["post.md"][0]
    assert any(r.startswith("missing an abstract") for r in reasons["post.md"])
    assert len(reasons["paper.tex"]) == 1  # long enough sections, abstract and introduction present: only length


async def test_blog_lead_opens_the_introduction(docs: dict[str, Path], tmp_path: Path) -> None:
    result = await curate_files(
        [docs["post.md"]],
        settings=CurationSettings(domain="blog", min_words=20),
        model=planning_model(),
        out=tmp_path / "out.jsonl",
    )
    (record,) = result.records
    assert [s.heading for s in record.sections] == ["Introduction", "Feeding schedule", "Troubleshooting"]
    assert record.sections[0].text.startswith("A starter is a small colony")  # the lead, then the section
    assert "Most starters die of neglect" in record.sections[0].text


async def test_rerun_requests_nothing_and_the_side_cache_resumes(docs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    settings = CurationSettings(domain="arxiv", min_words=50)
    first = await curate_files([docs["paper.tex"]], settings=settings, model=planning_model(), out=out)

    strict = ScriptedModel()  # any call would fail the test
    again = await curate_files([docs["paper.tex"]], settings=settings, model=strict, out=out)
    assert again.records == first.records and strict.calls == [] and again.plans_requested == 0

    out.unlink()  # the output is gone, the side cache of plans is not
    assert side_cache_path(out).exists()
    from_cache = await curate_files([docs["paper.tex"]], settings=settings, model=strict, out=out)
    assert from_cache.records == first.records and strict.calls == []
    assert from_cache.plans_reused == len(first.records[0].sections)


async def test_a_killed_run_asks_only_for_missing_plans(docs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    settings = CurationSettings(domain="arxiv", min_words=50)
    failing = ScriptedModel().script(PURPOSE, [plan_reply, plan_reply])  # a third call is unscripted
    with pytest.raises(UnscriptedCallError):
        await curate_files([docs["paper.tex"]], settings=settings, model=failing, out=out)

    model = planning_model()
    result = await curate_files([docs["paper.tex"]], settings=settings, model=model, out=out)
    sections = len(result.records[0].sections)
    assert result.plans_reused == 2 and len(model.calls) == sections - 2 == result.plans_requested


async def test_limit_stops_after_enough_records(docs: dict[str, Path], tmp_path: Path) -> None:
    model = planning_model()
    result = await curate_files(
        [docs["paper.tex"], docs["post.md"]],
        settings=CurationSettings(domain="blog", min_words=20),
        model=model,
        out=tmp_path / "out.jsonl",
        limit=1,
    )
    assert [r.id for r in result.records] == ["blog-paper"]
    assert result.dropped == []


async def test_an_empty_plan_is_an_error_not_a_plan(docs: dict[str, Path], tmp_path: Path) -> None:
    model = ScriptedModel().script(PURPOSE, "   ")
    with pytest.raises(PlanError, match=r"record arxiv-paper, section 'Abstract'.*no plan"):
        await curate_files(
            [docs["paper.tex"]],
            settings=CurationSettings(domain="arxiv", min_words=50),
            model=model,
            out=tmp_path / "out.jsonl",
            concurrency=1,
        )
    assert not (tmp_path / "out.jsonl").exists() or load_records(tmp_path / "out.jsonl") == []


def test_clean_plan() -> None:
    assert clean_plan("Content plan:\n- It opens.\n- It closes.", truncated=False) == "It opens. It closes."
    assert clean_plan("It opens. It closes. It trails off and", truncated=True) == "It opens. It closes."


def test_fold_sections_by_depth() -> None:
    sections = [
        SplitSection("A", 1, "a text"),
        SplitSection("A.1", 2, "a1 text"),
        SplitSection("A.1.a", 3, "deep"),
        SplitSection("B", 1, ""),
        SplitSection("B.1", 2, "b1 text"),
        SplitSection("C", 1, ""),
    ]
    top = fold_sections(sections, 1)
    assert [(s.heading, s.text) for s in top] == [
        ("A", "a text\n\n### A.1\n\na1 text\n\n#### A.1.a\n\ndeep"),
        ("B", "### B.1\n\nb1 text"),
    ]  # C has no text at all: left out
    assert [(s.level, s.heading) for s in fold_sections(sections, 2)] == [(1, "A"), (2, "A.1"), (2, "B.1")]


def test_a_lead_becomes_the_introduction_except_in_papers(tmp_path: Path) -> None:
    from longeval.data.curation import record_from_document
    from longeval.data.splitters import split_document

    text = "Opening words " * 12 + "\n\n## Method\n\nHow it works.\n\n## Results\n\nWhat we found.\n"
    document = split_document(text, "md")
    blog = record_from_document(document, source=tmp_path / "note-1.md", domain="blog")
    paper = record_from_document(document, source=tmp_path / "note-1.md", domain="arxiv")
    assert blog is not None and paper is not None
    assert [s.heading for s in blog.sections] == ["Introduction", "Method", "Results"]
    assert blog.sections[0].text.startswith("Opening words")
    assert [s.heading for s in paper.sections] == ["Method", "Results"]
    assert (blog.id, blog.title) == ("blog-note-1", "note 1")
