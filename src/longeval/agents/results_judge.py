"""Does the next section of a paper need the experiment results? A structured yes/no from the results judge."""

from __future__ import annotations

from dataclasses import dataclass, field

import structlog
from pydantic import BaseModel

from longeval.agents.calls import call_structured
from longeval.agents.config import WriterConfig
from longeval.agents.texts import NONE_GIVEN
from longeval.agents.types import CallLog, PlannedSection
from longeval.data.records import Record, section_role
from longeval.llm.types import ChatModel

log = structlog.get_logger(__name__)


class ResultsNeeded(BaseModel):
    needs_results: bool


@dataclass
class ResultsVerdict:
    needs_results: bool
    decided_by: str  # "judge", or "heading" when the judge gave no usable answer
    calls: list[CallLog] = field(default_factory=list)
    error: str | None = None


async def judge_results_needed(
    record: Record, section: PlannedSection, model: ChatModel, config: WriterConfig
) -> ResultsVerdict:
    result, calls = await call_structured(
        model,
        "judge_results_needed",
        schema=ResultsNeeded,
        purpose="judge.results_needed",
        max_tokens=config.judge_max_tokens,
        temperature=0.0,
        seed=config.seed,
        title=record.title,
        heading=section["heading"],
        plan=section["plan"] or NONE_GIVEN,
    )
    if result.value is not None:
        return ResultsVerdict(needs_results=result.value.needs_results, decided_by="judge", calls=calls)
    # The document must go on: decide from the heading instead, and say so in the trace and the log.
    by_heading = section_role(section["heading"]) == "experiments"
    log.warning(
        "results_judge.unusable_reply",
        record=record.id,
        heading=section["heading"],
        error=result.error,
        decided_by_heading=by_heading,
    )
    return ResultsVerdict(needs_results=by_heading, decided_by="heading", calls=calls, error=result.error)
