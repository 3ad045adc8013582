"""Live progress of a bench: one rich bar per stage (writing in sections, judging in judgements), with ETA."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

WRITING_NODES = frozenset({"first_section", "section", "related_work", "results_section"})


class BenchProgress:
    """Turns `run_bench` events into progress bars; use as a context manager and pass `on_event`."""

    def __init__(self, console: Console) -> None:
        self.progress = Progress(
            TextColumn("{task.description:<10}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[note]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=console,
        )
        self._writing: TaskID | None = None
        self._judging: TaskID | None = None
        self._advanced: dict[str, int] = {}  # doc id -> sections counted so far
        self.counts = {"written": 0, "reused": 0, "failed": 0, "stopped": 0, "scored": 0, "unscored": 0}

    def __enter__(self) -> BenchProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.progress.__exit__(*exc_info)  # type: ignore[arg-type]

    def _note(self) -> str:
        c = self.counts
        # The bar counts sections; the note counts whole documents.
        return f"sections; documents: {c['written']} new, {c['reused']} done before" + (
            f", {c['failed']} failed" if c["failed"] else ""
        )

    def on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "stage" and event["stage"] == "write":
            self._writing = self.progress.add_task("writing", total=event["sections"], note="")
        elif kind == "stage" and event["stage"] == "evaluate":
            if not self.progress.console.is_terminal:
                self.progress.console.print(f"judging: {event['jobs']} judgements ({event['skipped']} done before)")
            self._judging = self.progress.add_task(
                "judging", total=event["jobs"], note=f"{event['skipped']} done before"
            )
        elif kind == "write.step" and self._writing is not None and event.get("node") in WRITING_NODES:
            if event.get("index") is not None:  # the direct paradigm's single call counts at the end
                self._advanced[event["doc_id"]] = self._advanced.get(event["doc_id"], 0) + 1
                self.progress.advance(self._writing)
        elif kind == "document" and self._writing is not None:
            self.counts[event["status"]] += 1
            if not self.progress.console.is_terminal:  # logs get one line per document instead of a bar
                self.progress.console.print(f"document {event['doc_id']}: {event['status']}", highlight=False)
            rest = event["sections"] - self._advanced.pop(event["doc_id"], 0)
            self.progress.update(self._writing, advance=max(0, rest), note=self._note())
        elif kind == "score" and self._judging is not None:
            if event["status"] in self.counts:
                self.counts[event["status"]] += 1
            c = self.counts
            note = f"{c['scored']} scored, {c['unscored']} unscored"
            self.progress.update(self._judging, advance=1, note=note)
