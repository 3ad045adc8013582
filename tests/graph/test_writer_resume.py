"""Resume: an interrupted document continues at the next unwritten section and repeats no call."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from longeval.agents.config import WriterConfig
from longeval.data.records import GeneratedDocument, Record
from longeval.llm.cache import ResponseCache
from longeval.llm.client import Model
from longeval.llm.limits import EndpointLimiter, Limits
from longeval.llm.retry import RetryPolicy
from longeval.llm.scripted import ScriptedModel
from longeval.runs import RunDir, read_jsonl
from longeval.writing import open_checkpointer, write_record
from tests.graph.writer_helpers import WRITE_PURPOSES, asked_heading, make_record, scripted_writer


class Crash(RuntimeError):
    """Stands in for a kill: the process stops in the middle of a section."""


def content(doc: GeneratedDocument) -> list[tuple[str, str, int, int]]:
    """A document without its timings, which differ from run to run."""
    return [(s.heading, s.text, s.required_words, s.words) for s in doc.sections]


def requested(model: ScriptedModel) -> list[tuple[str, str]]:
    """(purpose, section) of every call, from the prompt itself."""
    out = []
    for call in model.calls:
        if call.purpose in WRITE_PURPOSES:
            out.append((call.purpose, asked_heading(call.messages)))
        else:
            out.append((call.purpose, call.prompt.split('next section is "')[1].split('"')[0]))
    return out


async def test_a_crash_mid_document_resumes_at_the_next_unwritten_section(arxiv_record: Record, tmp_path: Path) -> None:
    config = WriterConfig()
    reference = await write_record(
        arxiv_record, writer=(m := scripted_writer()), results_judge=m, config=config, run=RunDir(tmp_path / "ref")
    )

    def crash(messages: list) -> str:
        raise Crash("killed while writing 3 Method")

    failing = scripted_writer()
    failing.script("write.section", crash, when=lambda prompt: 'write the section "3 Method"' in prompt)
    run = RunDir(tmp_path / "run")
    with pytest.raises(Crash):
        await write_record(arxiv_record, writer=failing, results_judge=failing, config=config, run=run)
    assert len(run.generations()) == 0
    done_before = [e["heading"] for e in read_jsonl(run.trace_path) if e["node"] not in ("plan", "results_judge")]
    assert done_before == ["Abstract", "1 Introduction", "2 Related Work"]

    resumed = scripted_writer()
    document = await write_record(arxiv_record, writer=resumed, results_judge=resumed, config=config, run=run)

    # Nothing finished is asked again, not even the judge's verdict on the section that crashed.
    assert requested(resumed) == [
        ("write.section", "3 Method"),
        ("judge.results_needed", "4 Experiments"),
        ("write.results_section", "4 Experiments"),
        ("judge.results_needed", "5 Conclusion"),
        ("write.section", "5 Conclusion"),
    ]
    assert content(document) == content(reference)
    assert [GeneratedDocument.model_validate(r).doc_id for r in run.generations()] == [document.doc_id]
    written = [
        e["index"]
        for e in read_jsonl(run.trace_path)
        if e["node"] in ("first_section", "section", "related_work", "results_section")
    ]
    assert written == list(range(6))  # every section traced once across both runs


async def test_the_response_cache_alone_repeats_no_call(arxiv_record: Record, tmp_path: Path) -> None:
    """Even with the checkpoints and the stored document gone, the run's cache answers every call."""
    backend = scripted_writer()
    run = RunDir(tmp_path / "run")

    def cached_model() -> Model:
        limiter = EndpointLimiter(backend.endpoint, Limits())
        return Model(backend, limiter=limiter, retry=RetryPolicy(), cache=ResponseCache(run.cache_path))

    model = cached_model()
    first = await write_record(arxiv_record, writer=model, results_judge=model, config=WriterConfig(), run=run)
    calls = len(backend.calls)
    model.cache.close()  # type: ignore[union-attr]
    for path in (run.generations_path, run.checkpoints_path, run.trace_path):
        path.unlink(missing_ok=True)

    model = cached_model()
    again = await write_record(arxiv_record, writer=model, results_judge=model, config=WriterConfig(), run=run)
    assert len(backend.calls) == calls
    assert content(again) == content(first)
    assert all(e["cached"] for e in read_jsonl(run.trace_path) if e["calls"])


async def test_many_documents_share_one_checkpointer_concurrently(tmp_path: Path) -> None:
    records = [make_record("blog", ["Intro", "Body", "End"]).model_copy(update={"id": f"blog-{i}"}) for i in range(4)]
    model = scripted_writer()
    model.delay_s = 0.01  # interleave the documents' steps
    run = RunDir(tmp_path / "run")
    async with open_checkpointer(run) as saver:
        docs = await asyncio.gather(
            *(
                write_record(r, writer=model, results_judge=model, config=WriterConfig(), run=run, checkpointer=saver)
                for r in records
            )
        )
    assert [d.record_id for d in docs] == [r.id for r in records]
    assert len(run.generations()) == 4 and len(model.calls) == 12
    assert all(len(d.sections) == 3 for d in docs)
