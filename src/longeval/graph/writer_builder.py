"""Building the writer graph from a configuration.

START -> plan -> first_section -> (next?) -> related_work | results_judge | section | assemble -> END
results_judge -> results_section | section; every writing node loops back through (next?).
The shape is the same for every planner (the direct paradigm writes in `first_section` and goes
straight to `assemble`), so edges, traces and tests do not change when the planner does.
"""

from __future__ import annotations

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from longeval.agents.config import WriterConfig
from longeval.agents.planners import PLANNERS
from longeval.graph import writer_nodes as nodes
from longeval.graph.writer_routing import route_after_results_judge, route_next_section
from longeval.graph.writer_state import WriterContext, WriterState

WRITER_NODES = ("plan", "first_section", "section", "related_work", "results_judge", "results_section", "assemble")
_WRITING_NODES = ("first_section", "section", "related_work", "results_section")
_NEXT_TARGETS = ["related_work", "results_judge", "section", "assemble"]


def build_writer_graph(
    config: WriterConfig, checkpointer: BaseCheckpointSaver | None = None
) -> CompiledStateGraph[WriterState, WriterContext, WriterState, WriterState]:
    """Compile the writer for `config`; run it with a thread id (the doc id) and a `WriterContext`."""
    PLANNERS.get(config.planner)  # fail here, naming the known planners, not mid-run
    graph = StateGraph(WriterState, context_schema=WriterContext)
    graph.add_node("plan", nodes.plan)
    graph.add_node("first_section", nodes.first_section)
    graph.add_node("section", nodes.section)
    graph.add_node("related_work", nodes.related_work)
    graph.add_node("results_judge", nodes.results_judge)
    graph.add_node("results_section", nodes.results_section)
    graph.add_node("assemble", nodes.assemble)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", "first_section")
    for node in _WRITING_NODES:
        graph.add_conditional_edges(node, route_next_section, _NEXT_TARGETS)
    graph.add_conditional_edges("results_judge", route_after_results_judge, ["results_section", "section"])
    graph.add_edge("assemble", END)
    return graph.compile(checkpointer=checkpointer, name=f"writer[{config.planner}]")


def recursion_limit(sections: int) -> int:
    """Steps a document may take: at most two per section (judge + writer) plus plan and assemble.
    The outline planner may choose its own count, so leave room for the largest outline it may return."""
    return 2 * max(sections, 40) + 10
