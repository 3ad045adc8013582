"""Length and error analysis of generated long texts, per model and length constraint.

Per group: mean and median length under each word counter, the share of outputs reaching the
required length, the length-perception error (mean |produced - required|), the repetition rate
(outputs with a sentence of 5+ words occurring 3 or more times) and the refusal rate (outputs that
open with a refusal prefix).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Sequence

from pydantic import BaseModel

from longeval.evaluators.measures import (
    COUNTERS,
    DEFAULT_REFUSAL_PREFIXES,
    Counter,
    count_words,
    is_refusal,
    length_perception_error,
    repeated_sentences,
)
from longeval.hellobench.results_files import Output
from longeval.hellobench.tasks import LENGTH_CONSTRAINTS


class OutputMeasures(BaseModel):
    id: str
    model: str
    length_constraint: str | None
    lengths: dict[str, int]  # counter -> words
    repeated: dict[str, int]  # normalised sentence -> occurrences (3 or more)
    refusal: bool


class LengthStats(BaseModel):
    mean: float
    median: float


class ErrorGroup(BaseModel):
    model: str
    length_constraint: str | None
    outputs: int
    counter: str  # the counter the requirement is checked with
    required_words: int | None
    lengths: dict[str, LengthStats]
    reaching_share: float | None
    length_perception_error: float | None
    repetition_rate: float
    refusal_rate: float
    repetitive_ids: list[str]
    refusal_ids: list[str]


def measure_output(
    output: Output,
    *,
    counters: Sequence[Counter] = COUNTERS,
    refusal_prefixes: Sequence[str] = DEFAULT_REFUSAL_PREFIXES,
    min_repeats: int = 3,
) -> OutputMeasures:
    return OutputMeasures(
        id=output.id,
        model=output.model,
        length_constraint=output.length_constraint,
        lengths={counter: count_words(output.response, counter) for counter in counters},
        repeated=repeated_sentences(output.response, min_count=min_repeats),
        refusal=is_refusal(output.response, refusal_prefixes),
    )


def measure_outputs(
    outputs: Iterable[Output],
    *,
    counters: Sequence[Counter] = COUNTERS,
    refusal_prefixes: Sequence[str] = DEFAULT_REFUSAL_PREFIXES,
    on_done: Callable[[str], None] | None = None,
) -> list[OutputMeasures]:
    measured = []
    for output in outputs:
        measured.append(measure_output(output, counters=counters, refusal_prefixes=refusal_prefixes))
        if on_done is not None:
            on_done(output.id)
    return measured


def required_length(length_constraint: str | None, override: int | None) -> int | None:
    if override is not None:
        return override
    return LENGTH_CONSTRAINTS.get(length_constraint) if length_constraint else None


def analyse_errors(
    measured: Sequence[OutputMeasures], *, counter: Counter = "nltk", required_words: int | None = None
) -> list[ErrorGroup]:
    """One row per (model, length constraint); `required_words` overrides the constraint's length."""
    groups: dict[tuple[str, str | None], list[OutputMeasures]] = {}
    for m in measured:
        groups.setdefault((m.model, m.length_constraint), []).append(m)
    rows = []
    for (model, constraint), members in sorted(groups.items(), key=lambda kv: (kv[0][0], _order(kv[0][1]))):
        if counter not in members[0].lengths:
            raise ValueError(f"--counter {counter}: the outputs were not counted with it")
        required = required_length(constraint, required_words)
        produced = [m.lengths[counter] for m in members]
        rows.append(
            ErrorGroup(
                model=model,
                length_constraint=constraint,
                outputs=len(members),
                counter=counter,
                required_words=required,
                lengths={
                    name: LengthStats(
                        mean=statistics.fmean(m.lengths[name] for m in members),
                        median=statistics.median(m.lengths[name] for m in members),
                    )
                    for name in members[0].lengths
                },
                reaching_share=(sum(p >= required for p in produced) / len(produced)) if required else None,
                length_perception_error=(
                    length_perception_error((required, p) for p in produced) if required else None
                ),
                repetition_rate=sum(bool(m.repeated) for m in members) / len(members),
                refusal_rate=sum(m.refusal for m in members) / len(members),
                repetitive_ids=[m.id for m in members if m.repeated],
                refusal_ids=[m.id for m in members if m.refusal],
            )
        )
    return rows


def _order(constraint: str | None) -> int:
    return 0 if constraint is None else int(constraint.removesuffix("k"))
