"""The bots: ``greedy`` (the article's line builder) and ``planner`` (ours), on shared line parts."""

#: the planner's weight names (``planner.py``), here so that listing the bots does not load their kernels
PLANNER_WEIGHTS = ("empty_bonus", "fixed_steps", "danger")
