"""Request bodies and replies of the HTTP API, as pydantic models (the OpenAPI document is built from them).

A job request is a union told apart by `kind`. Checks that need the service (the data dir, the
allowed base URLs) read them from the validation context: `JOB_REQUEST.validate_python(body,
context=ValidationContext(...))`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationInfo,
    field_validator,
    model_validator,
)

from longeval.agents.config import WriterConfig
from longeval.bench.config import BenchConfig
from longeval.data.records import Domain, Record
from longeval.registry import UnknownNameError
from longeval.service.paths import check_job_id, resolve_inside

JobKindName = Literal["write", "evaluate", "bench"]
JobStatusName = Literal["queued", "running", "succeeded", "failed", "cancelled"]


@dataclass(frozen=True)
class ValidationContext:
    data_dir: Path
    allowed_base_urls: list[str] = field(default_factory=list)


def _service(info: ValidationInfo) -> ValidationContext | None:
    return info.context if isinstance(info.context, ValidationContext) else None


def _model_spec(value: str) -> str:
    from longeval.llm.hub import parse_model_spec

    try:
        parse_model_spec(value)
    except UnknownNameError as exc:
        raise ValueError(str(exc)) from None
    return value


def _base_url(value: str, info: ValidationInfo) -> str:
    service = _service(info)
    if service is not None and value not in service.allowed_base_urls:
        allowed = ", ".join(service.allowed_base_urls) or "none"
        raise ValueError(
            f"{value!r} is not a base URL this service may call (allowed: {allowed}; see --allow-base-url)"
        )
    return value


def _data_file(value: str, info: ValidationInfo) -> str:
    service = _service(info)
    if service is None:
        from longeval.service.paths import check_relative

        return check_relative(value)
    if not resolve_inside(service.data_dir, value).is_file():
        raise ValueError(f"no file {value!r} in the service's data dir")
    return value


def _data_run(value: str, info: ValidationInfo) -> str:
    service = _service(info)
    if service is None:
        from longeval.service.paths import check_relative

        return check_relative(value)
    if not (resolve_inside(service.data_dir, value) / "generations.jsonl").is_file():
        raise ValueError(f"{value!r} is not a run folder with generations.jsonl in the service's data dir")
    return value


def _sample_name(value: str) -> str:
    from longeval.data.samples import list_samples, load_sample

    if value not in list_samples():
        try:
            load_sample(value)  # raises with a "did you mean" and the known names
        except UnknownNameError as exc:
            raise ValueError(str(exc)) from None
    return value


def _metric_names(value: list[str]) -> list[str]:
    from longeval.evaluators.catalog import select_metrics

    try:
        select_metrics(value)
    except UnknownNameError as exc:
        raise ValueError(str(exc)) from None
    return value


ModelSpec = Annotated[str, AfterValidator(_model_spec), Field(description="local, or openai:NAME")]
BaseUrl = Annotated[
    str, AfterValidator(_base_url), Field(description="an OpenAI-compatible server this service allows")
]
DataFile = Annotated[str, AfterValidator(_data_file), Field(description="a file, relative to the data dir")]
DataRun = Annotated[str, AfterValidator(_data_run), Field(description="a run folder, relative to the data dir")]
JobId = Annotated[str, AfterValidator(check_job_id), Field(description="32 lowercase hex digits")]


def _exactly_one(model: BaseModel, names: tuple[str, ...]) -> None:
    given = [n for n in names if getattr(model, n) is not None]
    if len(given) != 1:
        raise ValueError(f"give exactly one of {', '.join(names)} (given: {', '.join(given) or 'none'})")


class WriteJob(BaseModel):
    """Write documents with the plan-based writer (or the direct paradigm); the options of `longeval write`."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["write"]
    sample: Annotated[str, AfterValidator(_sample_name)] | None = Field(
        None, description="a record shipped with the package"
    )
    record: Record | None = Field(None, description="one record, inline")
    records: list[Record] | None = Field(None, min_length=1, max_length=100, description="records, inline")
    records_file: DataFile | None = Field(None, description="records (JSONL, JSON or parquet) in the data dir")
    ids: list[str] | None = Field(None, min_length=1, description="with records_file: the records to write")
    title: str | None = Field(None, min_length=1, description="write from a title alone (outline planner)")
    brief: str | None = Field(None, description="with title: a short description")
    sections: int = Field(5, ge=1, le=40, description="with title: the number of sections")
    words: int = Field(2000, ge=1, le=100_000, description="with title: the total words to write")
    domain: Domain | None = Field(None, description="records_file: the domain of records that do not state one")
    limit: int | None = Field(None, ge=1, description="write at most this many records")
    model: ModelSpec = "local"
    results_judge: ModelSpec | None = Field(None, description="the results judge (default: model)")
    base_url: BaseUrl | None = None
    config: WriterConfig = Field(default_factory=WriterConfig, description="planner, length control, ...")

    @model_validator(mode="after")
    def _one_source(self) -> WriteJob:
        _exactly_one(self, ("sample", "record", "records", "records_file", "title"))
        if self.ids is not None and self.records_file is None:
            raise ValueError("ids picks records of records_file; give records_file too")
        if self.brief is not None and self.title is None:
            raise ValueError("brief goes with title")
        return self


class EvaluateJob(BaseModel):
    """Judge the documents of a finished job (or of a run folder in the data dir); the options of `longeval evaluate`."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["evaluate"]
    source_job: JobId | None = Field(None, description="a finished write or bench job")
    run_dir: DataRun | None = Field(None, description="or a run folder in the data dir")
    judge: ModelSpec = "local"
    second_judge: ModelSpec | None = None
    base_url: BaseUrl | None = None
    metrics: Annotated[list[str], AfterValidator(_metric_names)] | None = Field(None, min_length=1)
    repeats: int = Field(1, ge=1, le=10)
    seed: int = 0

    @model_validator(mode="after")
    def _one_source(self) -> EvaluateJob:
        _exactly_one(self, ("source_job", "run_dir"))
        return self


class BenchJob(BenchConfig):
    """Write and judge a benchmark; the options of `longeval bench` (its config file's keys).

    In the service the per-endpoint limits are the service's, shared by every job, so
    `max_concurrency`, `rpm` and `tpm` only bound documents in flight within this job.
    """

    kind: Literal["bench"]

    @field_validator("dataset")
    @classmethod
    def _dataset_in_data_dir(cls, value: str, info: ValidationInfo) -> str:
        if value == "sample" or value.startswith("hf:"):
            return value
        return _data_file(value, info)

    @field_validator("base_url")
    @classmethod
    def _allowed_base_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        return _base_url(value, info) if value is not None else None

    def bench_config(self, data_dir: Path) -> BenchConfig:
        """The configuration to run, its dataset resolved inside the data dir."""
        values = self.model_dump(exclude={"kind"}, exclude_unset=True)
        if self.dataset != "sample" and not self.dataset.startswith("hf:"):
            values["dataset"] = str(resolve_inside(data_dir, self.dataset))
        return BenchConfig.model_validate(values)


JobRequest = Annotated[WriteJob | EvaluateJob | BenchJob, Field(discriminator="kind")]
JOB_REQUEST: TypeAdapter[WriteJob | EvaluateJob | BenchJob] = TypeAdapter(JobRequest)


class JobLinks(BaseModel):
    self: str
    events: str
    result: str


class JobView(BaseModel):
    id: str
    kind: JobKindName
    status: JobStatusName
    progress: dict[str, Any]
    usage: dict[str, Any]
    error: str | None
    created: str
    updated: str
    request: dict[str, Any]
    links: JobLinks


class JobList(BaseModel):
    jobs: list[JobView]


class FieldProblem(BaseModel):
    field: str = Field(description="dotted path of the field at fault, e.g. config.planner")
    message: str


class ErrorBody(BaseModel):
    status: int
    error: str = Field(description="what went wrong, naming the field, limit or job")
    problems: list[FieldProblem] = Field(default_factory=list)


class Health(BaseModel):
    status: Literal["ok"]
    queued: int
    running: int
