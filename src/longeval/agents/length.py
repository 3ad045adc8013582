"""Closed-loop length control (off by default, so the paper's protocol is reproduced as published).

Count a section's words; below the tolerance band ask the model to continue it, above the band ask
it to tighten it; at most `length_rounds` extra calls. Each extra call is logged with the draft.
"""

from __future__ import annotations

from longeval.agents.calls import call_prompt
from longeval.agents.config import WriterConfig
from longeval.agents.texts import NONE_GIVEN, clean_section_text, document_kind
from longeval.agents.types import Draft, PlannedSection
from longeval.data.records import Record, count_words
from longeval.llm.types import ChatModel


def length_verdict(words: int, required: int, tolerance: float) -> str:
    """ "short", "long" or "ok" against the band required x (1 -/+ tolerance)."""
    if words < required * (1 - tolerance):
        return "short"
    if words > required * (1 + tolerance):
        return "long"
    return "ok"


async def control_length(
    draft: Draft, record: Record, section: PlannedSection, model: ChatModel, config: WriterConfig
) -> Draft:
    required = section["words"]
    text, calls = draft.text, list(draft.calls)
    common = {
        "kind": document_kind(record.domain),
        "title": record.title,
        "heading": section["heading"],
        "plan": section["plan"] or NONE_GIVEN,
        "words": required,
    }
    for round_no in range(1, config.length_rounds + 1):
        written = count_words(text)
        verdict = length_verdict(written, required, config.tolerance)
        if verdict == "ok":
            break
        seed = config.seed + round_no  # a new seed per round, so a retry is not the cached reply again
        if verdict == "short":
            missing = required - written
            call = await call_prompt(
                model,
                "write_continue",
                purpose="write.continue",
                max_tokens=config.section_max_tokens(missing),
                temperature=config.temperature,
                seed=seed,
                text=text,
                written=written,
                missing=missing,
                **common,
            )
            addition = call.completion.text.strip()
            text = f"{text}\n\n{addition}".strip() if addition else text
        else:
            call = await call_prompt(
                model,
                "write_tighten",
                purpose="write.tighten",
                max_tokens=config.section_max_tokens(required),
                temperature=config.temperature,
                seed=seed,
                text=text,
                written=written,
                **common,
            )
            tightened = clean_section_text(call.completion.text, section["heading"])
            text = tightened or text  # an empty rewrite would lose the section; keep the longer text
        calls.append(call)
    return Draft(text=text, calls=calls, extra={**draft.extra, "length_rounds": len(calls) - len(draft.calls)})
