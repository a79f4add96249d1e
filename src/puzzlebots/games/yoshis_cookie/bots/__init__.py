"""The bots: ``greedy`` (the article's line builder) and ``planner`` (ours), on shared line parts."""
