"""The benchmark's configuration: one pydantic model for the command, the config files and the service.

defaults < config file (TOML) < command-line flags or request body. The writing options live in a
`[writing]` table (a `WriterConfig`); the planner is chosen at the top level, because the direct
paradigm always uses the `none` planner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from longeval.agents.config import WriterConfig
from longeval.data.records import DOMAINS, Domain, Paradigm
from longeval.settings import ConfigError, load_config_file, merge_config

DIRECT_PLANNER = "none"


class BenchRunError(ValueError):
    """Bench input that cannot run: no records selected, a bad model spec, or a run folder this bench
    must not continue (another dataset or configuration)."""


class BenchConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dataset: str = Field(default="sample", description="sample, a records file, or hf:SiweiWu/LongEval")
    domains: list[Domain] = Field(default_factory=lambda: list(DOMAINS), min_length=1)
    paradigms: list[Paradigm] = Field(default_factory=lambda: ["plan"], min_length=1)
    planner: str = Field(default="given", description="the planner of the plan paradigm (given, outline, ...)")
    writers: list[str] = Field(default_factory=lambda: ["local"], min_length=1, description="model specs")
    judge: str = "local"
    second_judge: str | None = None
    base_url: str | None = Field(default=None, description="OpenAI-compatible server for openai:NAME models")
    metrics: list[str] | None = Field(default=None, description="metric names (default: all that apply)")
    repeats: int = Field(default=1, ge=1, le=20)
    limit: int | None = Field(default=None, ge=1, description="at most this many records per domain")
    length_scale: float = Field(default=1.0, gt=0, le=10, description="scales every record's required lengths")
    max_concurrency: int = Field(default=4, ge=1, description="requests in flight per endpoint; documents in flight")
    rpm: int | None = Field(default=None, ge=1, description="requests per minute per endpoint")
    tpm: int | None = Field(default=None, ge=1, description="tokens per minute per endpoint")
    budget_tokens: int | None = Field(default=None, ge=1, description="stop before the run's tokens would pass this")
    on_bad_record: Literal["skip", "fail"] = "fail"
    seed: int = 0
    writing: WriterConfig = Field(default_factory=WriterConfig)

    @field_validator("domains", "paradigms", "writers")
    @classmethod
    def _unique(cls, values: list[Any]) -> list[Any]:
        return list(dict.fromkeys(values))

    @field_validator("planner")
    @classmethod
    def _plan_paradigm_planner(cls, name: str) -> str:
        from longeval.agents.planners import PLANNERS
        from longeval.registry import UnknownNameError

        try:
            planner = PLANNERS.get(name)
        except UnknownNameError as exc:
            raise ValueError(str(exc)) from None
        if planner.paradigm != "plan":
            raise ValueError(f"planner {name!r} writes directly; ask for it with paradigms = ['direct']")
        return name

    @model_validator(mode="after")
    def _one_place_per_option(self) -> BenchConfig:
        if "planner" in self.writing.model_fields_set:
            raise ValueError("set the planner at the top level (planner = ...), not in [writing]")
        if "length_scale" in self.writing.model_fields_set:
            raise ValueError("set length_scale at the top level: the bench scales the records' required lengths")
        if "seed" in self.writing.model_fields_set:
            raise ValueError("set seed at the top level: it seeds the writers and the judges")
        return self

    def writer_config(self, paradigm: Paradigm) -> WriterConfig:
        planner = self.planner if paradigm == "plan" else DIRECT_PLANNER
        return self.writing.model_copy(update={"planner": planner, "seed": self.seed})

    def judges(self) -> list[str]:
        return [self.judge] + ([self.second_judge] if self.second_judge else [])

    def fingerprint(self) -> dict[str, Any]:
        """What decides the documents and scores a run folder holds: a rerun must not change it."""
        return {
            "length_scale": self.length_scale,
            "seed": self.seed,
            "writing": self.writing.model_dump(mode="json"),
            "repeats": self.repeats,
        }


def _problems(exc: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(map(str, e['loc'])) or '(config)'}: {e['msg'].removeprefix('Value error, ')}" for e in exc.errors()
    )


def load_bench_config(config_file: Path | None = None, flags: dict[str, Any] | None = None) -> BenchConfig:
    """Defaults < the TOML file (its `[bench]` table, or the whole file) < flags (None: not given)."""
    data = load_config_file(config_file)
    file_layer = data.get("bench", data)
    try:
        return BenchConfig.model_validate(merge_config(file_layer, flags or {}))
    except ValidationError as exc:
        where = f"--config {config_file} / flags" if config_file else "flags"
        raise ConfigError(f"bench configuration ({where}): {_problems(exc)}") from exc
