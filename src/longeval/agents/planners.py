"""Planners: the work behind the graph's `plan` node, chosen by name.

A planner turns a record into the sections to write (heading, content plan, required words). A new
planner is one function registered here plus a line of config (`planner = "name"`); the node, the
edges and the traces do not change.

- `given`:   the record's content plan and gold lengths (the paper's plan-based protocol; default).
- `outline`: the model writes the plan and a word budget per section from the title and a brief,
             as LongWriter's AgentWrite does; it keeps the record's headings when the record has them.
- `none`:    no planning step: the direct paradigm, one call for the whole document, given the
             record's plan as the paper's direct prompt is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from longeval.agents.calls import call_structured
from longeval.agents.texts import document_kind
from longeval.agents.types import CallLog, PlannedSection
from longeval.data.records import Record
from longeval.llm.types import ChatModel
from longeval.registry import Registry

if TYPE_CHECKING:
    from longeval.agents.config import WriterConfig


class PlannerError(ValueError):
    """A planner could not produce a plan for a record; names the record and the reason."""


@dataclass
class PlanOutcome:
    sections: list[PlannedSection]
    calls: list[CallLog] = field(default_factory=list)


PlannerFn = Callable[[Record, ChatModel, "WriterConfig"], Awaitable[PlanOutcome]]


@dataclass(frozen=True)
class Planner:
    name: str
    paradigm: Literal["plan", "direct"]
    plan: PlannerFn


PLANNERS: Registry[Planner] = Registry("planner")


def planner(name: str, *, paradigm: Literal["plan", "direct"] = "plan") -> Callable[[PlannerFn], PlannerFn]:
    def add(fn: PlannerFn) -> PlannerFn:
        PLANNERS.register(name)(Planner(name=name, paradigm=paradigm, plan=fn))
        return fn

    return add


def _record_plan(record: Record, config: WriterConfig, *, planner_name: str) -> PlanOutcome:
    missing = [s.heading for s in record.sections if not s.plan.strip()]
    if missing:
        raise PlannerError(
            f"record {record.id!r}: planner {planner_name!r} needs a content plan for every section; "
            f"none for {missing[:3]}; use --planner outline to have the model plan"
        )
    return PlanOutcome(
        sections=[
            PlannedSection(heading=s.heading, plan=s.plan.strip(), words=config.required_words(s.words))
            for s in record.sections
        ]
    )


@planner("given")
async def given_plan(record: Record, model: ChatModel, config: WriterConfig) -> PlanOutcome:
    return _record_plan(record, config, planner_name="given")


@planner("none", paradigm="direct")
async def no_plan(record: Record, model: ChatModel, config: WriterConfig) -> PlanOutcome:
    if all(not s.plan.strip() for s in record.sections):  # a title-only job: headings and lengths alone
        return PlanOutcome(
            sections=[
                PlannedSection(heading=s.heading, plan="", words=config.required_words(s.words))
                for s in record.sections
            ]
        )
    return _record_plan(record, config, planner_name="none")


class OutlineSection(BaseModel):
    heading: str = Field(min_length=1, max_length=200)
    plan: str = Field(min_length=1)
    words: int = Field(ge=1)


class Outline(BaseModel):
    sections: list[OutlineSection] = Field(min_length=1, max_length=40)


@planner("outline")
async def outline_plan(record: Record, model: ChatModel, config: WriterConfig) -> PlanOutcome:
    # A record whose sections carry text or plans has real headings: keep them, so a generated
    # section still lines up with its gold section. Otherwise (a title-only job) the model names them.
    keep_headings = any(s.plan.strip() or s.text.strip() for s in record.sections)
    total = sum(config.required_words(s.words) for s in record.sections)
    common = {
        "kind": document_kind(record.domain),
        "title": record.title,
        "brief": record.brief.strip() or "(none given)",
        "words": total,
    }
    if keep_headings:
        headings = [s.heading for s in record.sections]
        values = {**common, "headings": "\n".join(f"- {h}" for h in headings)}
        prompt_name = "plan_outline_fixed"
    else:
        headings = []
        values = {**common, "sections": config.outline_sections or len(record.sections)}
        prompt_name = "plan_outline"
    result, calls = await call_structured(
        model,
        prompt_name,
        schema=Outline,
        purpose="plan.outline",
        max_tokens=min(config.max_section_tokens, 160 * max(len(record.sections), config.outline_sections) + 200),
        temperature=config.temperature,
        seed=config.seed,
        **values,
    )
    if result.value is None:
        raise PlannerError(f"record {record.id!r}: the outline planner got no usable outline ({result.error})")
    planned = [
        PlannedSection(heading=o.heading.strip(), plan=o.plan.strip(), words=o.words) for o in result.value.sections
    ]
    if keep_headings:
        planned = _align_to_headings(planned, headings)
    return PlanOutcome(sections=_scale_budgets(planned, total), calls=calls)


def _align_to_headings(outline: list[PlannedSection], headings: list[str]) -> list[PlannedSection]:
    """One entry per given heading, in the given order. A heading the model skipped keeps an empty plan
    (it is written from its heading alone) and an equal share of the budget."""
    by_heading = {o["heading"].lower(): o for o in outline}
    share = max(1, sum(o["words"] for o in outline) // max(1, len(headings)))
    aligned = []
    for i, heading in enumerate(headings):
        found = by_heading.get(heading.strip().lower()) or (outline[i] if i < len(outline) else None)
        plan, words = (found["plan"], found["words"]) if found is not None else ("", share)
        aligned.append(PlannedSection(heading=heading, plan=plan, words=words))
    return aligned


def _scale_budgets(outline: list[PlannedSection], total: int) -> list[PlannedSection]:
    """Budgets rescaled to add up to the requested total: small models' arithmetic is unreliable, and the
    total length is the task's requirement, not the planner's choice."""
    budget = sum(o["words"] for o in outline)
    return [
        PlannedSection(heading=o["heading"], plan=o["plan"], words=max(1, round(o["words"] * total / budget)))
        for o in outline
    ]
