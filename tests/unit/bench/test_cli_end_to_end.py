"""`longeval bench` then `longeval report` through the command line, on a scripted backend.

The commands build their models from specs, so the test registers a `scripted` backend kind once
(the registry has no removal; the kind is only ever used by tests).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from longeval.cli import app
from longeval.llm.hub import BACKENDS, BackendOptions
from longeval.llm.types import Completion, Message
from tests.unit.bench.scripted import scripted_judge, scripted_writer


class ScriptedBackend:
    """Writer and judge scripts in one backend, closable like a real one."""

    def __init__(self, name: str) -> None:
        self.name = f"scripted:{name}"
        self.endpoint = f"scripted://{name}"
        self._writer, self._judge = scripted_writer(self.name), scripted_judge(self.name)

    async def complete(self, messages: list[Message], *, purpose: str, **params: Any) -> Completion:
        model = self._writer if purpose.startswith("write.") or purpose == "judge.results_needed" else self._judge
        return await model.complete(messages, purpose=purpose, **params)

    async def aclose(self) -> None:
        """Nothing to close."""


if "scripted" not in BACKENDS:

    @BACKENDS.register("scripted")
    def _scripted(name: str, options: BackendOptions) -> ScriptedBackend:
        return ScriptedBackend(name)


def test_bench_then_report_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "b"
    args = ["bench", "--writer", "scripted:w", "--judge", "scripted:j", "--limit", "1", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--paradigms", "plan,direct", "--domains", "blog,wikipedia"])
    assert result.exit_code == 0, result.output
    assert "4 documents written, 0 done before" in result.output and f"longeval report --run {out}" in result.output

    result = CliRunner().invoke(app, ["report", "--run", str(out)])
    assert result.exit_code == 0, result.output
    assert "## Table 4" in result.output and "## Table 6" in result.output
    assert "| blog | scripted:w | plan (given) |" in result.output
    assert (out / "report.md").read_text() in result.output
    assert (out / "fig1_information_content.png").exists() and (out / "section_lengths.png").exists()

    result = CliRunner().invoke(app, [*args, "--paradigms", "plan,direct", "--domains", "blog,wikipedia"])
    assert result.exit_code == 0 and "0 documents written, 4 done before" in result.output
    assert json.loads((out / "run.json").read_text())["bench"]["sessions"] == 2


def test_bench_budget_stop_is_reported(tmp_path: Path) -> None:
    out = tmp_path / "b"
    args = ["bench", "--writer", "scripted:w", "--judge", "scripted:j", "--limit", "1", "--domains", "blog"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--budget-tokens", "1500"])
    assert result.exit_code == 0, result.output
    assert "stopped at the token budget" in result.output


def test_report_of_a_missing_run_is_an_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["report", "--run", str(tmp_path / "nope")])
    assert result.exit_code == 1 and "is not a run folder" in result.output
