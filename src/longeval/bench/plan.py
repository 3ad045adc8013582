"""The plan of work (`--dry-run`): documents, model calls by purpose, estimated tokens, and nothing run.

The estimate runs the bench's own two stages on simulated models in a scratch folder (seeded with the
run folder's finished documents and scores, so a resumed run shows what is left), hence the counts
follow the code that does the work. Assumptions, stated with the plan: every structured reply parses
(a reply that does not costs one corrective call more), every yes/no step answers yes (this moves calls
between purposes, e.g. EA and ME, not their total), and each section is written at its required length
(with length control, a section outside the band costs up to `length_rounds` calls more).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from longeval.bench.config import BenchConfig
from longeval.bench.execute import BenchModels, evaluate_stage, write_jobs, write_stage
from longeval.bench.records import load_bench_records
from longeval.bench.simulate import SimulatedCall, SimulatedModel
from longeval.data.records import Record
from longeval.llm.client import Backend
from longeval.runs import RunDir

ASSUMPTIONS = (
    "every structured reply parses (a malformed one costs one corrective call more)",
    "every yes/no step answers yes: this moves calls between purposes (results vs plain sections, EA vs ME), "
    "not their total",
    "every section is written at its required length (with length control, a section outside the band costs "
    "up to length_rounds calls more)",
    "tokens: prompts at 4 characters a token, completions at 1.3 tokens a word",
)
_CARRIED_FILES = ("records.jsonl", "generations.jsonl", "scores.jsonl")


@dataclass
class PurposeEstimate:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, call: SimulatedCall) -> None:
        self.calls += 1
        self.prompt_tokens += call.prompt_tokens
        self.completion_tokens += call.completion_tokens


@dataclass
class WorkPlan:
    records: int
    documents: int
    documents_done: int
    judgements_done: int
    by_purpose: dict[str, PurposeEstimate] = field(default_factory=dict)  # the work left to do
    by_model: dict[str, PurposeEstimate] = field(default_factory=dict)
    assumptions: tuple[str, ...] = ASSUMPTIONS

    @property
    def totals(self) -> PurposeEstimate:
        total = PurposeEstimate()
        for estimate in self.by_purpose.values():
            total.calls += estimate.calls
            total.prompt_tokens += estimate.prompt_tokens
            total.completion_tokens += estimate.completion_tokens
        return total

    def to_dict(self) -> dict[str, Any]:
        def plain(e: PurposeEstimate) -> dict[str, int]:
            return {"calls": e.calls, "prompt_tokens": e.prompt_tokens, "completion_tokens": e.completion_tokens}

        return {
            "records": self.records,
            "documents": self.documents,
            "documents_done": self.documents_done,
            "judgements_done": self.judgements_done,
            "by_purpose": {k: plain(v) for k, v in sorted(self.by_purpose.items())},
            "by_model": {k: plain(v) for k, v in sorted(self.by_model.items())},
            "totals": plain(self.totals),
            "assumptions": list(self.assumptions),
        }


async def _names(config: BenchConfig, backends: Mapping[str, Backend] | None) -> dict[str, tuple[str, str]]:
    """spec -> (model name, endpoint) as the real run will name them; builds clients, connects nothing."""
    from longeval.bench.runner import model_from_spec
    from longeval.llm.hub import ModelHub

    specs = [*config.writers, *config.judges()]
    names: dict[str, tuple[str, str]] = {}
    hub = ModelHub()
    for spec in specs:
        if backends and spec in backends:
            names[spec] = (backends[spec].name, backends[spec].endpoint)
        else:
            model = model_from_spec(hub, spec, config.base_url)
            names[spec] = (model.name, model.endpoint)
    await hub.aclose()
    return names


async def plan_bench(
    config: BenchConfig,
    *,
    run: RunDir | None = None,
    backends: Mapping[str, Backend] | None = None,
    records: list[Record] | None = None,
) -> WorkPlan:
    """What `run_bench(config, run=run)` would do, by purpose and model; `run` is only read."""
    records = records if records is not None else load_bench_records(config)
    names = await _names(config, backends)
    simulated = {spec: SimulatedModel(*names[spec]) for spec in names}
    models = BenchModels(
        writers=[simulated[s] for s in config.writers],
        judge=simulated[config.judge],
        second_judge=simulated[config.second_judge] if config.second_judge else None,
    )
    with tempfile.TemporaryDirectory(prefix="longeval-dry-run-") as scratch:
        scratch_run = RunDir(Path(scratch))
        if run is not None:
            for name in _CARRIED_FILES:
                if (run.path / name).exists():
                    shutil.copyfile(run.path / name, scratch_run.path / name)
        done_ids = {j.doc_id(config) for j in write_jobs(config, records, models)} & {
            row["doc_id"] for row in scratch_run.generations()
        }
        judgements_done = len(scratch_run.scores())
        await write_stage(config, records, models, scratch_run, emit=lambda e: None, budget_exhausted=lambda: False)
        await evaluate_stage(config, models, scratch_run, emit=lambda e: None)
    work = WorkPlan(
        records=len(records),
        documents=len(write_jobs(config, records, models)),
        documents_done=len(done_ids),
        judgements_done=judgements_done,
    )
    seen: set[int] = set()
    for model in simulated.values():
        if id(model) in seen:
            continue
        seen.add(id(model))
        for call in model.calls:
            work.by_purpose.setdefault(call.purpose, PurposeEstimate()).add(call)
            work.by_model.setdefault(call.model, PurposeEstimate()).add(call)
    return work
