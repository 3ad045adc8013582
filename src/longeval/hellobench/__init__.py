"""HelloBench (arXiv 2409.16191): tasks, generation, HelloEval checklist judging and scoring, error analysis."""
