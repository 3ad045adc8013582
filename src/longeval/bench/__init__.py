"""The benchmark: every (writer x paradigm x record) written and judged into one run folder.

summary = await run_bench(BenchConfig(dataset="sample", limit=1), run=RunDir("runs/b"))
work = await plan_bench(config, run=run)      # the dry run: calls and tokens by purpose
"""

from longeval.bench.budget import BudgetExhausted
from longeval.bench.config import BenchConfig, BenchRunError, load_bench_config
from longeval.bench.plan import WorkPlan, plan_bench
from longeval.bench.runner import BenchSummary, run_bench

__all__ = [
    "BenchConfig",
    "BenchRunError",
    "BenchSummary",
    "BudgetExhausted",
    "WorkPlan",
    "load_bench_config",
    "plan_bench",
    "run_bench",
]
