"""Random replacement replaces exactly the stated share; two-judge agreement; repeat confidence intervals."""

from __future__ import annotations

import pytest
from scipy import stats

from longeval.evaluators.validity import (
    confidence_interval,
    judge_agreement,
    repeat_intervals,
    replace_sections,
    replaced_count,
)
from tests.fakes.longeval_documents import make_document, make_record


def _documents() -> list:
    records = [make_record("arxiv", f"paper-{i}") for i in range(3)] + [make_record("blog", "blog-0")]
    return [make_document(r, marker=r.id) for r in records]


@pytest.mark.parametrize(("sections", "share", "expected"), [(6, 0.1, 1), (6, 0.3, 2), (6, 0.5, 3), (6, 0.9, 5),
                                                             (10, 0.3, 3), (3, 0.5, 2), (6, 1.0, 6), (6, 0.0, 0)])  # fmt: skip
def test_replaced_count_rounds_the_share_half_up(sections: int, share: float, expected: int) -> None:
    assert replaced_count(sections, share) == expected


@pytest.mark.parametrize("share", [0.1, 0.3, 0.5, 0.9])
def test_replacement_replaces_exactly_the_stated_share_with_other_records_sections(share: float) -> None:
    documents = _documents()
    replaced, report = replace_sections(documents, share, seed=7)
    for original, new in zip(documents, replaced, strict=True):
        changed = [i for i, (a, b) in enumerate(zip(original.sections, new.sections, strict=True)) if a.text != b.text]
        assert len(changed) == replaced_count(len(original.sections), share)
        listed = [r for r in report if r.doc_id == original.doc_id]
        assert sorted(r.section_index for r in listed) == changed
        for item in listed:
            assert new.sections[item.section_index].heading == original.sections[item.section_index].heading
            assert not new.sections[item.section_index].text.startswith(f"{original.record_id}:")
            assert item.source_doc_id != original.doc_id
            donor = next(d for d in documents if d.doc_id == item.source_doc_id)
            assert donor.record_id != original.record_id
            assert new.sections[item.section_index].text == donor.sections[item.source_section_index].text


def test_replacement_is_seeded() -> None:
    documents = _documents()
    assert replace_sections(documents, 0.5, seed=1)[1] == replace_sections(documents, 0.5, seed=1)[1]
    assert replace_sections(documents, 0.5, seed=1)[1] != replace_sections(documents, 0.5, seed=2)[1]


def test_replacement_needs_two_records() -> None:
    with pytest.raises(ValueError, match="two different records"):
        replace_sections([make_document(make_record())], 0.5)


def _rows(judge: str, values: list[float | None], metric: str = "red") -> list[dict]:
    return [
        {"doc_id": f"d{i}", "metric": metric, "judge": judge, "repeat": 0, "value": v} for i, v in enumerate(values)
    ]


def test_agreement_reports_spearman_pearson_and_mean_difference() -> None:
    a = [10.0, 20.0, 30.0, 40.0, None]
    b = [15.0, 22.0, 29.0, 60.0, 50.0]
    [agreement] = judge_agreement(_rows("A", a) + _rows("B", b), "A", "B")
    assert agreement.n == 4  # d4 is unscored by A: not paired
    assert agreement.spearman == pytest.approx(1.0)
    assert agreement.pearson == pytest.approx(stats.pearsonr(a[:4], b[:4]).statistic)
    assert agreement.mean_difference == pytest.approx((-5 - 2 + 1 - 20) / 4)


def test_agreement_is_none_where_correlation_is_undefined() -> None:
    [agreement] = judge_agreement(_rows("A", [50.0, 50.0, 50.0]) + _rows("B", [1.0, 2.0, 3.0]), "A", "B")
    assert agreement.spearman is None and agreement.pearson is None and agreement.n == 3


def test_confidence_interval_is_student_t() -> None:
    mean, half = confidence_interval([60.0, 70.0, 80.0])
    # sd 10, n 3: t(0.975, 2) = 4.3027 -> 4.3027 * 10 / sqrt(3) = 24.84
    assert mean == 70.0 and half == pytest.approx(24.841, abs=1e-3)
    assert confidence_interval([5.0])[1] is None


def test_repeat_intervals_use_per_repeat_means() -> None:
    rows = []
    for repeat, values in enumerate([[50.0, 70.0], [60.0, 80.0], [70.0, 90.0]]):
        rows += [{"doc_id": f"d{i}", "metric": "red", "judge": "A", "repeat": repeat, "value": v}
                 for i, v in enumerate(values)]  # fmt: skip
    [interval] = repeat_intervals(rows, "A")
    assert interval.repeats == 3 and interval.mean == pytest.approx(70.0)
    assert interval.interval == pytest.approx((70.0 - 24.841, 70.0 + 24.841), abs=1e-3)
