"""The writer's agents: the work behind each graph node (planners, section writers, results judge, direct writer)."""
