"""Reports of runs: the paper's Table 4 and Table 6 layouts, usage, and plots (Figures 1 and 2)."""

from longeval.report.build import Report, build_report, write_report
from longeval.report.load import RunData, RunReadError, load_run, load_runs

__all__ = ["Report", "RunData", "RunReadError", "build_report", "load_run", "load_runs", "write_report"]
