"""The shared deterministic measures, on fixed texts with values computed by hand."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from longeval.evaluators.measures import (
    COUNTERS,
    NltkDataMissingError,
    count_words,
    information_content,
    is_refusal,
    length_perception_error,
    length_score_sl,
    repeated_sentences,
    split_sentences,
)


def test_counters_are_the_three_named_ones() -> None:
    assert COUNTERS == ("whitespace", "nltk", "longwriter")


@pytest.mark.parametrize(
    ("text", "counter", "expected"),
    [
        ("The cat sat on the mat.", "whitespace", 6),
        ("The cat sat on the mat.", "nltk", 7),  # the full stop is a token
        ("The cat sat on the mat.", "longwriter", 6),
        ("Hello, world! It's fine.", "whitespace", 4),
        ("Hello, world! It's fine.", "nltk", 8),  # Hello , world ! It 's fine .
        ("Hello, world! It's fine.", "longwriter", 5),  # Hello world It s fine
        ("Don't stop\u2014\u6211\u4eec\u8d70\u5427 now.", "whitespace", 3),
        ("Don't stop\u2014\u6211\u4eec\u8d70\u5427 now.", "longwriter", 8),  # Don t stop now + 4 CJK
        ("", "whitespace", 0),
        ("", "nltk", 0),
        ("", "longwriter", 0),
    ],
)
def test_count_words(text: str, counter: str, expected: int) -> None:
    assert count_words(text, counter) == expected  # type: ignore[arg-type]


def test_count_words_rejects_an_unknown_counter() -> None:
    with pytest.raises(ValueError, match="unknown word counter 'chars'"):
        count_words("a b", "chars")  # type: ignore[arg-type]


def test_nltk_counter_without_punkt_tab_names_nltk_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import nltk
    from nltk.tokenize import _get_punkt_tokenizer

    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    _get_punkt_tokenizer.cache_clear()
    try:
        with pytest.raises(NltkDataMissingError, match="NLTK_DATA"):
            count_words("Some text.", "nltk")
    finally:
        _get_punkt_tokenizer.cache_clear()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a b a b", 4.0),  # 4 words x 1 bit
        ("A, b! a B.", 4.0),  # case and punctuation make no new word types
        ("a b c d", 8.0),  # 4 words x 2 bits
        ("a a a a", 0.0),
        ("", 0.0),
        ("x x y", 3 * (-(2 / 3) * math.log2(2 / 3) - (1 / 3) * math.log2(1 / 3))),
    ],
)
def test_information_content(text: str, expected: float) -> None:
    assert information_content(text) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("required", "produced", "expected"),
    [
        (1000, 1000, 100.0),
        (1000, 2500, 50.0),  # 1 - (2.5 - 1) / 3
        (1000, 4000, 0.0),
        (1000, 9000, 0.0),  # clipped at 0
        (1000, 500, 50.0),  # 1 - (2 - 1) / 2
        (2000, 1600, 87.5),  # 1 - (1.25 - 1) / 2
        (1000, 250, 0.0),
        (1000, 0, 0.0),
    ],
)
def test_length_score_sl(required: int, produced: int, expected: float) -> None:
    assert length_score_sl(required, produced) == pytest.approx(expected)


def test_length_score_sl_needs_a_positive_requirement() -> None:
    with pytest.raises(ValueError, match="required length must be positive"):
        length_score_sl(0, 10)


REPETITIVE = (
    "This is a long repeated sentence. This is a long repeated sentence! "
    "THIS is a long, repeated sentence.\nShort one. Short one. Short one. A different sentence entirely here."
)


def test_split_sentences_normalises() -> None:
    assert split_sentences("Hello, World!  Next\nline? Yes.") == ["hello world", "next", "line", "yes"]


def test_repeated_sentences_counts_long_sentences_only() -> None:
    assert repeated_sentences(REPETITIVE) == {"this is a long repeated sentence": 3}
    assert repeated_sentences(REPETITIVE, min_words=1) == {"this is a long repeated sentence": 3, "short one": 3}
    assert repeated_sentences(REPETITIVE, min_count=4) == {}


def test_repeated_sentences_on_clean_text() -> None:
    assert repeated_sentences("One sentence here now. Another sentence follows it. A third one closes it.") == {}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I'm sorry, but I can't help with that.", True),
        ("I\u2019m sorry, but I can\u2019t help with that.", True),  # curly apostrophes
        ("  **I will not** write that story.", True),
        ("As an AI, I have no opinions.", True),
        ("I can't tell you how much I loved that summer.", False),
        ("Once upon a time, I'm sorry to say, it rained.", False),
    ],
)
def test_is_refusal_default_prefixes(text: str, expected: bool) -> None:
    assert is_refusal(text) is expected


def test_is_refusal_custom_prefixes() -> None:
    assert is_refusal("Nope. Not doing it.", prefixes=["nope"])
    assert not is_refusal("I'm sorry, but no.", prefixes=["nope"])


def test_length_perception_error() -> None:
    assert length_perception_error([(2000, 1500), (2000, 2600)]) == pytest.approx(550.0)
    assert length_perception_error(iter([(100, 100)])) == 0.0
    with pytest.raises(ValueError, match="at least one"):
        length_perception_error([])
