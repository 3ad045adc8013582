"""A PNG of output-length distributions: one panel per model, one box per length constraint."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from longeval.hellobench.errors import OutputMeasures, required_length


def plot_length_distributions(
    measured: Sequence[OutputMeasures], path: Path, *, counter: str = "nltk", required_words: int | None = None
) -> Path:
    """Box plots of lengths under `counter`; a dashed mark shows each group's required length."""
    import matplotlib

    matplotlib.use("Agg")  # files only: never open a window
    import matplotlib.pyplot as plt

    if not measured:
        raise ValueError("no outputs to plot")
    by_model: dict[str, dict[str | None, list[int]]] = {}
    for m in measured:
        by_model.setdefault(m.model, {}).setdefault(m.length_constraint, []).append(m.lengths[counter])
    models = sorted(by_model)
    fig, axes = plt.subplots(1, len(models), figsize=(3.2 * len(models) + 1, 4.5), sharey=True, squeeze=False)
    for ax, model in zip(axes[0], models, strict=True):
        constraints = sorted(by_model[model], key=lambda c: 0 if c is None else int(c.removesuffix("k")))
        ax.boxplot([by_model[model][c] for c in constraints], showfliers=True)
        ax.set_xticks(range(1, len(constraints) + 1), [c or "none" for c in constraints])
        for position, constraint in enumerate(constraints, start=1):
            required = required_length(constraint, required_words)
            if required:
                ax.hlines(required, position - 0.4, position + 0.4, colors="tab:red", linestyles="dashed")
        ax.set_title(model)
        ax.set_xlabel("length constraint")
        ax.set_yscale("log")
        ax.grid(axis="y", alpha=0.3)
    axes[0][0].set_ylabel(f"words ({counter})")
    fig.suptitle("Output length per model and constraint (dashed: required)")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
