"""Deterministic text measures shared by the LongEval and HelloBench evaluators.

Word counts come under three named counters because the reference implementations disagree:

- `whitespace`: `len(text.split())`, as LongEval's code counts.
- `nltk`: `len(nltk.word_tokenize(text))`, as HelloBench counts (punctuation marks are tokens; made with
  nltk 3.9.1, whose `punkt_tab` data is read from `NLTK_DATA`).
- `longwriter`: CJK characters plus English words, as LongWriter's `count_words`.
"""

from __future__ import annotations

import math
import re
from collections import Counter as Tally
from collections.abc import Iterable, Sequence
from typing import Literal, get_args

Counter = Literal["whitespace", "nltk", "longwriter"]
COUNTERS: tuple[Counter, ...] = get_args(Counter)

# LongWriter's count_words (evaluation/pred.py): one CJK ideograph is one word; English words are ASCII runs.
_CJK_CHAR = re.compile(r"[\u4e00-\u9fff]")
_ENGLISH_WORD = re.compile(r"\b[a-zA-Z]+\b")
_WORD = re.compile(r"\w+")
# A sentence ends at . ! ? (or their CJK forms) followed by space, or at a line break.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s+|\n+")
_NON_WORD = re.compile(r"[^\w\s]")

DEFAULT_REFUSAL_PREFIXES: tuple[str, ...] = (
    "I'm sorry, but",
    "I am sorry, but",
    "Sorry, but",
    "I apologize, but",
    "I cannot assist",
    "I cannot help",
    "I cannot provide",
    "I cannot fulfill",
    "I cannot comply",
    "I cannot continue",
    "I cannot write",
    "I can't assist",
    "I can't help",
    "I can't provide",
    "I can't fulfill",
    "I can't comply",
    "I can't continue",
    "I can't write",
    "I will not",
    "I won't",
    "As an AI",
)


class NltkDataMissingError(LookupError):
    """nltk's `punkt_tab` tokenizer data is not where nltk looks for it."""


def nltk_word_tokenize(text: str) -> list[str]:
    """`nltk.word_tokenize`, with a clear error where punkt_tab is missing."""
    import nltk  # lazily: importing nltk is slow and only the `nltk` counter needs it

    try:
        return nltk.word_tokenize(text)
    except LookupError as exc:
        raise NltkDataMissingError(
            "the `nltk` word counter needs nltk's punkt_tab data: set NLTK_DATA to a folder holding "
            "tokenizers/punkt_tab (e.g. NLTK_DATA=../shared/data/nltk_data), or run "
            "`python -m nltk.downloader punkt_tab` where the network is reachable"
        ) from exc


def count_words(text: str, counter: Counter = "whitespace") -> int:
    """The length of `text` under one named counter."""
    if counter == "whitespace":
        return len(text.split())
    if counter == "nltk":
        return len(nltk_word_tokenize(text))
    if counter == "longwriter":
        return len(_CJK_CHAR.findall(text)) + len(_ENGLISH_WORD.findall(text))
    raise ValueError(f"unknown word counter {counter!r}; use one of {', '.join(COUNTERS)}")


def information_content(text: str) -> float:
    """Words times the Shannon entropy (bits) of the text's word-frequency distribution.

    Words are lowercased `\\w+` runs, so punctuation and case do not make new word types.
    """
    words = _WORD.findall(text.lower())
    if not words:
        return 0.0
    total = len(words)
    entropy = -sum((n / total) * math.log2(n / total) for n in Tally(words).values())
    return total * entropy


def length_score_sl(required: int, produced: int) -> float:
    """LongWriter's length score S_l (0-100): overshoot is penalised over 3x, undershoot over 2x."""
    if required <= 0:
        raise ValueError(f"required length must be positive, got {required}")
    if produced <= 0:
        return 0.0
    x, y = required, produced
    if y > x:
        return 100 * max(0.0, 1 - (y / x - 1) / 3)
    return 100 * max(0.0, 1 - (x / y - 1) / 2)


def split_sentences(text: str) -> list[str]:
    """Sentences normalised for comparison: lowercased, punctuation dropped, spaces collapsed."""
    sentences = []
    for part in _SENTENCE_BREAK.split(text):
        normalised = " ".join(_NON_WORD.sub("", part.lower()).split())
        if normalised:
            sentences.append(normalised)
    return sentences


def repeated_sentences(text: str, min_count: int = 3, *, min_words: int = 5) -> dict[str, int]:
    """Normalised sentences of at least `min_words` words that occur `min_count` or more times.

    Short sentences are ignored because headings, dialogue tags and stage directions ("CUT TO:")
    legitimately recur in clean text.
    """
    tally = Tally(s for s in split_sentences(text) if len(s.split()) >= min_words)
    return {sentence: n for sentence, n in tally.most_common() if n >= min_count}


def _normalise_opening(text: str) -> str:
    opening = text.lstrip().lstrip("*#>_ \t").replace("\u2019", "'")
    return opening.casefold()


def is_refusal(text: str, prefixes: Sequence[str] = DEFAULT_REFUSAL_PREFIXES) -> bool:
    """Whether the reply opens with one of the refusal prefixes (case-insensitive, markdown stripped)."""
    opening = _normalise_opening(text)
    return any(opening.startswith(_normalise_opening(prefix)) for prefix in prefixes if prefix.strip())


def length_perception_error(pairs: Iterable[tuple[int, int]]) -> float:
    """Mean absolute difference between produced and required length over (required, produced) pairs."""
    differences = [abs(produced - required) for required, produced in pairs]
    if not differences:
        raise ValueError("length_perception_error needs at least one (required, produced) pair")
    return sum(differences) / len(differences)
