"""Writing one section, as the paper's plan-based prompts do: the plan, the length, and every earlier section.

Four flavours share one routine and differ in their prompt: the first section (with the references
for a Wikipedia article), a later section, the related work (with the references) and a section
written with the experiment results.
"""

from __future__ import annotations

from dataclasses import dataclass

from longeval.agents.calls import call_prompt
from longeval.agents.config import WriterConfig
from longeval.agents.length import control_length
from longeval.agents.texts import (
    NONE_GIVEN,
    clean_section_text,
    document_kind,
    format_previous,
    format_references,
    format_results,
)
from longeval.agents.types import Draft, PlannedSection
from longeval.data.records import Record
from longeval.llm.types import ChatModel


@dataclass(frozen=True)
class SectionJob:
    """What a section writer needs: the record, the section and what was written before it, in order."""

    record: Record
    section: PlannedSection
    previous: list[tuple[str, str]]  # (heading, text) of every earlier section

    def values(self) -> dict[str, object]:
        return {
            "kind": document_kind(self.record.domain),
            "title": self.record.title,
            "heading": self.section["heading"],
            "plan": self.section["plan"] or NONE_GIVEN,
            "words": self.section["words"],
        }


async def _write(
    job: SectionJob, model: ChatModel, config: WriterConfig, prompt: str, purpose: str, **extra: object
) -> Draft:
    call = await call_prompt(
        model,
        prompt,
        purpose=purpose,
        max_tokens=config.section_max_tokens(job.section["words"]),
        temperature=config.temperature,
        seed=config.seed,
        **job.values(),
        **extra,
    )
    draft = Draft(text=clean_section_text(call.completion.text, job.section["heading"]), calls=[call])
    if config.length_control:
        draft = await control_length(draft, job.record, job.section, model, config)
    return draft


async def write_first_section(
    job: SectionJob, model: ChatModel, config: WriterConfig, *, with_references: bool
) -> Draft:
    if with_references:
        refs = format_references(job.record.references)
        return await _write(job, model, config, "write_first_section_refs", "write.first_section", references=refs)
    return await _write(job, model, config, "write_first_section", "write.first_section")


async def write_section(job: SectionJob, model: ChatModel, config: WriterConfig) -> Draft:
    previous = format_previous(job.record.title, job.previous)
    return await _write(job, model, config, "write_section", "write.section", previous=previous)


async def write_related_work(job: SectionJob, model: ChatModel, config: WriterConfig) -> Draft:
    previous = format_previous(job.record.title, job.previous)
    refs = format_references(job.record.references)
    return await _write(
        job, model, config, "write_related_work", "write.related_work", previous=previous, references=refs
    )


async def write_results_section(job: SectionJob, model: ChatModel, config: WriterConfig) -> Draft:
    previous = format_previous(job.record.title, job.previous)
    results = format_results(job.record.experiment_results)
    return await _write(
        job, model, config, "write_results_section", "write.results_section", previous=previous, results=results
    )
