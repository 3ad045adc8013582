"""Small LongEval records and generated documents for evaluator and evaluation-graph tests."""

from __future__ import annotations

from longeval.data.records import Domain, GeneratedDocument, GeneratedSection, Record, Section, make_doc_id
from longeval.runs import RunDir

ARXIV_SECTIONS = [
    ("Abstract", "We propose a sparse router for mixture models.", "Summarise the router and its gains."),
    ("1 Introduction", "Mixture models route tokens to experts. " * 4, "Motivate routing; state the contributions."),
    ("2 Related Work", "Prior routers use top-k gating [1]. " * 3, "Survey gating methods and their costs."),
    ("3 Method", "The router scores experts with a learned key. " * 5, "Define the score; explain load balancing."),
    ("4 Experiments", "Accuracy rises from 71.2 to 74.8 on GLUE. " * 4, "Report GLUE results and the ablation."),
    ("5 Conclusion", "Sparse routing helps. " * 3, "Restate the gains; name future work."),
]
BLOG_SECTIONS = [
    ("Why I moved to Rust", "I wrote Python for ten years before trying Rust. " * 3, "Say what prompted the move."),
    ("The borrow checker", "Ownership rules felt strict at first. " * 4, "Explain ownership with one example."),
    ("What I miss", "Notebooks and quick scripts are harder now. " * 3, "List what Python did better."),
]
WIKI_SECTIONS = [
    ("Lead", "The Danube is a river in Central Europe. " * 3, "Introduce the river and its length."),
    ("Course", "It rises in the Black Forest and flows east. " * 4, "Trace the course from source to delta."),
    ("History", "The river formed a Roman frontier. " * 3, "Summarise the river's role in history."),
]
SECTIONS_BY_DOMAIN = {"arxiv": ARXIV_SECTIONS, "blog": BLOG_SECTIONS, "wikipedia": WIKI_SECTIONS}


def make_record(domain: Domain = "arxiv", record_id: str | None = None) -> Record:
    return Record(
        id=record_id or f"{domain}-1",
        domain=domain,
        title=f"A {domain} document",
        sections=[Section(heading=h, text=t, plan=p) for h, t, p in SECTIONS_BY_DOMAIN[domain]],
        references=["[1] Shazeer et al. Outrageously large neural networks."] if domain != "blog" else [],
        experiment_results=["GLUE accuracy: baseline 71.2, router 74.8"] if domain == "arxiv" else [],
    )


def make_document(
    record: Record, *, writer: str = "scripted", words_per_section: int | None = None, marker: str = "Written"
) -> GeneratedDocument:
    """A document that keeps the record's headings; each section says `marker` plus filler words."""
    sections = []
    for section in record.sections:
        count = words_per_section if words_per_section is not None else section.words
        text = " ".join([f"{marker}:{section.heading}"] + ["word"] * max(0, count - 1)) if count else ""
        sections.append(GeneratedSection(heading=section.heading, text=text, required_words=section.words, words=count))
    return GeneratedDocument(
        doc_id=make_doc_id(record.id, writer, "plan", "given"),
        record_id=record.id,
        domain=record.domain,
        title=record.title,
        writer=writer,
        paradigm="plan",
        planner="given",
        sections=sections,
    )


def write_run(run: RunDir, records: list[Record], documents: list[GeneratedDocument]) -> RunDir:
    """A run folder as `longeval write` leaves it (written in one go: no fsync per line, for speed)."""
    run.records_path.write_text("".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8")
    run.generations_path.write_text("".join(d.model_dump_json() + "\n" for d in documents), encoding="utf-8")
    return run
