"""numba hot paths of Yoshi's Cookie: the matrix rules (``matrix``), the article's line builder (``builder``)
and the planner's search (``planner``)."""
