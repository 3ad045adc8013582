"""Content checks for the sample dataset shipped in `longeval/data/samples/*.json`.

These guard the samples themselves (lengths, plans, headings, references, tables), not the loader.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

import longeval.data
from longeval.data.records import DOMAINS, Record, count_words

SAMPLES_DIR = Path(longeval.data.__file__).resolve().parent / "samples"
SAMPLE_FILES = sorted(SAMPLES_DIR.glob("*.json"))

MIN_GOLD_WORDS = {"arxiv": 1600, "blog": 1500, "wikipedia": 1500}
# The method section may be called either; every other arXiv heading is fixed.
ARXIV_HEADINGS = ["Abstract", "Introduction", "Related Work", "{method}", "Experiments", "Conclusion"]
WIKI_MARKUP = ("{{", "}}", "[[", "]]", "<ref", "'''", "==")


def sentence_count(text: str) -> int:
    """Sentences as runs ending in . ! or ? followed by whitespace (no nltk needed)."""
    return len([s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s])


def load(path: Path) -> Record:
    return Record.model_validate(json.loads(path.read_text(encoding="utf-8")))


def files_of(domain: str) -> list[Path]:
    return [p for p in SAMPLE_FILES if json.loads(p.read_text(encoding="utf-8")).get("domain") == domain]


@pytest.fixture(params=SAMPLE_FILES, ids=[p.stem for p in SAMPLE_FILES])
def sample(request: pytest.FixtureRequest) -> tuple[Path, Record]:
    return request.param, load(request.param)


@pytest.fixture(params=files_of("arxiv"), ids=[p.stem for p in files_of("arxiv")])
def arxiv_sample(request: pytest.FixtureRequest) -> Record:
    return load(request.param)


@pytest.fixture(params=files_of("wikipedia"), ids=[p.stem for p in files_of("wikipedia")])
def wikipedia_sample(request: pytest.FixtureRequest) -> Record:
    return load(request.param)


def test_at_least_two_samples_per_domain() -> None:
    domains = Counter(load(p).domain for p in SAMPLE_FILES)
    assert all(domains[d] >= 2 for d in DOMAINS), domains


def test_file_name_is_the_record_id(sample: tuple[Path, Record]) -> None:
    path, record = sample
    assert path.stem == record.id


def test_stored_words_match_the_gold_text(sample: tuple[Path, Record]) -> None:
    _, record = sample
    for section in record.sections:
        assert section.text.strip(), f"{record.id}: empty section {section.heading!r}"
        assert section.words == count_words(section.text), f"{record.id}: {section.heading!r}"


def test_gold_length_meets_the_domain_minimum(sample: tuple[Path, Record]) -> None:
    _, record = sample
    assert record.gold_words >= MIN_GOLD_WORDS[record.domain], (record.id, record.gold_words)


def test_every_plan_has_four_or_five_sentences(sample: tuple[Path, Record]) -> None:
    _, record = sample
    for section in record.sections:
        n = sentence_count(section.plan)
        assert 4 <= n <= 5, f"{record.id}: plan of {section.heading!r} has {n} sentences"
        assert count_words(section.plan) < section.words, f"{record.id}: plan longer than {section.heading!r}"


def test_compression_ratio_is_in_the_papers_range(sample: tuple[Path, Record]) -> None:
    _, record = sample
    ratio = record.plan_words / record.gold_words
    assert 0.1 <= ratio <= 0.4, (record.id, round(ratio, 3))


def test_brief_is_one_or_two_sentences(sample: tuple[Path, Record]) -> None:
    _, record = sample
    assert 1 <= sentence_count(record.brief) <= 2, record.id


def test_headings_fit_the_domain(sample: tuple[Path, Record]) -> None:
    _, record = sample
    headings = [s.heading for s in record.sections]
    if record.domain == "arxiv":
        assert len(headings) == len(ARXIV_HEADINGS), headings
        assert headings[3] in ("Method", "Approach"), headings
        assert headings == [h.format(method=headings[3]) for h in ARXIV_HEADINGS]
    elif record.domain == "blog":
        assert headings[0] == "Introduction"
        assert 4 <= len(headings) <= 6
    else:
        assert headings[0] == "Introduction"
        assert 5 <= len(headings) <= 6


def test_arxiv_related_work_cites_its_references(arxiv_sample: Record) -> None:
    record = arxiv_sample
    assert 6 <= len(record.references) <= 10
    related = record.find_section("related_work")
    assert related is not None
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", related.text)}
    assert len(cited) >= 3, cited
    assert cited <= set(range(1, len(record.references) + 1)), cited


def test_arxiv_results_tables_are_discussed_in_experiments(arxiv_sample: Record) -> None:
    record = arxiv_sample
    assert 2 <= len(record.experiment_results) <= 3
    experiments = record.find_section("experiments")
    assert experiments is not None
    for i, table in enumerate(record.experiment_results, start=1):
        rows = [line for line in table.splitlines() if line.startswith("|")]
        assert len(rows) >= 4, f"table {i} of {record.id} is not a Markdown table"
        assert table.startswith(f"Table {i}:")
        assert f"Table {i}" in experiments.text, f"{record.id}: Table {i} is never discussed"


def test_wikipedia_articles_have_references_and_no_markup(wikipedia_sample: Record) -> None:
    record = wikipedia_sample
    assert 6 <= len(record.references) <= 10
    for section in record.sections:
        found = [m for m in WIKI_MARKUP if m in section.text]
        assert not found, f"{record.id}: {section.heading!r} holds wiki markup {found}"
