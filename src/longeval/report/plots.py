"""PNG plots of runs. matplotlib is imported inside each function, on the Agg canvas (no display, no
pyplot global state), so importing the report package stays cheap."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from longeval.evaluators.measures import count_words, information_content
from longeval.report.load import RunData

FIGURE_SIZE = (6.4, 4.4)


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    series: str


def _figure() -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=FIGURE_SIZE, dpi=120)
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot(1, 1, 1)


def _scatter(axes: Any, points: Sequence[Point]) -> None:
    markers = "o^sDvP*X"
    for i, series in enumerate(sorted({p.series for p in points})):
        chosen = [p for p in points if p.series == series]
        axes.scatter(
            [p.x for p in chosen], [p.y for p in chosen], label=series, marker=markers[i % len(markers)], alpha=0.75
        )


def _save(figure: Any, axes: Any, path: Path) -> Path:
    if axes.get_legend_handles_labels()[0]:
        axes.legend(fontsize="small")
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png")
    return path


def information_points(runs: Sequence[RunData]) -> list[Point]:
    """(words, information content) of every generated document, and of each gold document once."""
    several = len(runs) > 1
    points: list[Point] = []
    gold_seen: set[str] = set()
    for run in runs:
        prefix = f"{run.label}: " if several else ""
        for doc in run.documents:
            text = "\n\n".join(s.text for s in doc.sections)
            series = f"{prefix}{doc.writer} ({doc.paradigm})"
            points.append(Point(count_words(text), information_content(text), series))
        for record in run.records.values():
            if record.id in gold_seen or not record.gold_words:
                continue
            gold_seen.add(record.id)
            text = "\n\n".join(s.text for s in record.sections)
            points.append(Point(count_words(text), information_content(text), "gold"))
    return points


def plot_information_content(runs: Sequence[RunData], path: Path) -> Path | None:
    """The paper's Figure 1: information content against length, generated vs gold."""
    points = information_points(runs)
    if not points:
        return None
    figure, axes = _figure()
    _scatter(axes, points)
    axes.set_xlabel("length (words)")
    axes.set_ylabel("information content (words x entropy, bits)")
    axes.set_title("Information content vs length: generated and gold documents")
    return _save(figure, axes, path)


def section_length_points(runs: Sequence[RunData]) -> list[Point]:
    several = len(runs) > 1
    return [
        Point(
            section.required_words, section.words, f"{run.label + ': ' if several else ''}{doc.writer} ({doc.paradigm})"
        )
        for run in runs
        for doc in run.documents
        for section in doc.sections
        if section.required_words > 0
    ]


def plot_section_lengths(runs: Sequence[RunData], path: Path) -> Path | None:
    """Required against written words per section; the diagonal is "exactly as asked"."""
    points = section_length_points(runs)
    if not points:
        return None
    figure, axes = _figure()
    _scatter(axes, points)
    top = max(max(p.x for p in points), max(p.y for p in points), 1)
    axes.plot([0, top], [0, top], linestyle="--", color="grey", linewidth=1, label="written = required")
    axes.set_xlabel("required words (section)")
    axes.set_ylabel("written words (section)")
    axes.set_title("Required vs written words per section")
    return _save(figure, axes, path)


def plot_length_curve(
    lengths: Sequence[int], series: dict[str, Sequence[float | None]], path: Path, *, ylabel: str
) -> Path:
    """The paper's Figure 2: a score against the required length (log scale), one line per series."""
    figure, axes = _figure()
    for name, values in series.items():
        xs = [x for x, v in zip(lengths, values, strict=True) if v is not None]
        ys = [v for v in values if v is not None]
        axes.plot(xs, ys, marker="o", label=name)
    from matplotlib.ticker import NullFormatter, ScalarFormatter

    axes.set_xscale("log")
    axes.set_xticks(list(lengths))  # the lengths asked for, written out, not powers of ten
    axes.xaxis.set_major_formatter(ScalarFormatter())
    axes.xaxis.set_minor_formatter(NullFormatter())
    axes.tick_params(axis="x", labelrotation=45)
    axes.set_ylim(0, 105)
    axes.set_xlabel("required length (words)")
    axes.set_ylabel(ylabel)
    axes.set_title("Length following against required length")
    return _save(figure, axes, path)
