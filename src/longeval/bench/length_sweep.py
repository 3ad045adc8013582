"""The length sweep (the paper's Figure 2): ask for texts of each required length, measure what comes back.

Per (model, length, prompt) one call; the reply's words give the Len score `min(1, words / required)`
x 100 and LongWriter's S_l. Rows go to `length_sweep.jsonl` as they complete, so a rerun with the
same folder continues; `length_sweep.md` and `length_sweep.png` summarise per model and length.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from longeval.agents.config import max_tokens_for
from longeval.bench.sweep_prompts import SweepInputError, SweepPrompt, SweepSource, plan_prompts, ruler_prompts
from longeval.data.records import Record
from longeval.evaluators.measures import Counter, count_words, length_score_sl
from longeval.llm.types import ChatModel
from longeval.runs import JsonlStore, RunDir

SWEEP_FILE = "length_sweep.jsonl"
EventHandler = Callable[[dict[str, Any]], None]


class SweepConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    lengths: list[int] = Field(min_length=1)
    models: list[str] = Field(default_factory=lambda: ["local"], min_length=1)
    source: SweepSource = "plans"
    dataset: str = Field(default="sample", description="records for the plans source")
    prompts_file: Path | None = Field(default=None, description="JSONL with a prompt field, for the ruler source")
    prompts: int = Field(default=2, ge=1, description="prompts per length")
    counter: Counter = "whitespace"
    max_tokens: int = Field(default=65536, ge=16, description="cap on one reply's tokens")
    temperature: float = Field(default=0.0, ge=0, le=2)
    seed: int = 0

    @field_validator("lengths")
    @classmethod
    def _positive_sorted(cls, lengths: list[int]) -> list[int]:
        if any(n < 1 for n in lengths):
            raise ValueError(f"every length must be at least 1 word (got {lengths})")
        return sorted(set(lengths))


def sweep_key(row: dict[str, Any]) -> str:
    return f"{row['model']}|{row['length']}|{row['prompt_id']}"


def load_prompts(config: SweepConfig) -> tuple[list[SweepPrompt], dict[str, Record]]:
    if config.source == "ruler":
        if config.prompts_file is None:
            raise SweepInputError("--source ruler needs --prompts-file (e.g. LongWriter's longwrite_ruler.jsonl)")
        return ruler_prompts(config.prompts_file, config.prompts), {}
    from longeval.data.loaders import load_records

    return plan_prompts(load_records(config.dataset), config.prompts)


async def run_sweep(
    config: SweepConfig,
    *,
    run: RunDir,
    models: dict[str, ChatModel],
    max_concurrency: int = 4,
    on_event: EventHandler | None = None,
) -> list[dict[str, Any]]:
    """Every (model, length, prompt) not yet in the folder; returns all rows of the folder."""
    prompts, records = load_prompts(config)
    store = JsonlStore(run.path / SWEEP_FILE, sweep_key)
    jobs = [(spec, length, p) for spec in config.models for length in config.lengths for p in prompts]
    emit = on_event or (lambda event: None)
    emit({"type": "stage", "stage": "sweep", "jobs": len(jobs)})
    slots = asyncio.Semaphore(max_concurrency)

    async def one(spec: str, length: int, prompt: SweepPrompt) -> None:
        model = models[spec]
        key = sweep_key({"model": model.name, "length": length, "prompt_id": prompt.prompt_id})
        if key in store:
            emit({"type": "sweep", "status": "done_before", "key": key})
            return
        async with slots:
            completion = await model.complete(
                prompt.messages(length, records.get(prompt.prompt_id)),
                purpose="sweep.write",
                max_tokens=max_tokens_for(length, config.max_tokens),
                temperature=config.temperature,
                seed=config.seed,
            )
        words = count_words(completion.text, config.counter)
        row = {
            "model": model.name,
            "length": length,
            "prompt_id": prompt.prompt_id,
            "source": prompt.source,
            "words": words,
            "len_score": 100.0 * min(1.0, words / length),
            "s_l": length_score_sl(length, words),
            "finish_reason": completion.finish_reason,
            "completion_tokens": completion.completion_tokens,
            "text": completion.text,
        }
        store.append(row)
        emit({"type": "sweep", "status": "written", "key": key, "words": words})

    await asyncio.gather(*(one(*job) for job in jobs))
    return store.rows()


@dataclass
class SweepPoint:
    model: str
    length: int
    n: int
    words: float
    len_score: float
    s_l: float


def summarise_sweep(rows: list[dict[str, Any]]) -> list[SweepPoint]:
    groups: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in rows:
        groups.setdefault((row["model"], row["length"]), []).append(row)
    return [
        SweepPoint(
            model=model,
            length=length,
            n=len(group),
            words=fmean(r["words"] for r in group),
            len_score=fmean(r["len_score"] for r in group),
            s_l=fmean(r["s_l"] for r in group),
        )
        for (model, length), group in sorted(groups.items())
    ]


def sweep_markdown(points: list[SweepPoint], counter: str) -> str:
    from longeval.report.tables import integer, markdown_table

    body = [[p.model, str(p.length), str(p.n), f"{p.words:.0f}", integer(p.len_score), integer(p.s_l)] for p in points]
    table = markdown_table(["Model", "Required words", "n", "Mean words", "Len", "S_l"], body)
    note = (
        f"Words counted with the `{counter}` counter. Len: mean of min(1, words / required) x 100. "
        "S_l (LongWriter): 100 x max(0, 1 - (y/x - 1)/3) when longer than asked, 100 x max(0, 1 - (x/y - 1)/2) "
        "when shorter (x required, y written)."
    )
    return f"# Length sweep\n\n{table}\n\n{note}\n\n![length sweep](length_sweep.png)\n"


def write_sweep_report(points: list[SweepPoint], out: Path, counter: str) -> tuple[Path, Path]:
    from longeval.report.plots import plot_length_curve

    lengths = sorted({p.length for p in points})
    series: dict[str, list[float | None]] = {}
    for model in sorted({p.model for p in points}):
        by_length = {p.length: p for p in points if p.model == model}
        series[f"{model} Len"] = [by_length[n].len_score if n in by_length else None for n in lengths]
        series[f"{model} S_l"] = [by_length[n].s_l if n in by_length else None for n in lengths]
    plot = plot_length_curve(lengths, series, out / "length_sweep.png", ylabel="score (0-100)")
    markdown = out / "length_sweep.md"
    markdown.write_text(sweep_markdown(points, counter), encoding="utf-8")
    return markdown, plot
