"""Every LongEval metric, registered by importing its family module; selection per domain (Table 4)."""

from __future__ import annotations

from longeval.data.records import Domain
from longeval.evaluators import content_following, document_judges, experiments, gold_judges, length
from longeval.evaluators.base import METRICS, Metric

# The paper's column order.
LONGEVAL_METRICS: tuple[str, ...] = ("len", "cont-fol", "red", "con", "intro", "rw", "ea", "me")

_FAMILIES = (length, content_following, document_judges, gold_judges, experiments)  # imported to register


def get_metric(name: str) -> Metric:
    return METRICS.get(name)


def select_metrics(names: list[str] | None) -> list[Metric]:
    """The metrics to run, in the paper's order; unknown names raise with a suggestion."""
    chosen = list(LONGEVAL_METRICS) if not names else [n.strip().lower() for n in names if n.strip()]
    metrics = [METRICS.get(name) for name in chosen]
    order = {name: i for i, name in enumerate(LONGEVAL_METRICS)}
    return sorted(dict.fromkeys(metrics), key=lambda m: order.get(m.name, len(order)))


def metrics_for_domain(domain: Domain) -> list[str]:
    return [name for name in LONGEVAL_METRICS if domain in METRICS.get(name).domains]
