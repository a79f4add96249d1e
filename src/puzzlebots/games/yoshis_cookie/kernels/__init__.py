"""numba hot paths of Yoshi's Cookie: the matrix rules (``matrix``), the article's line builder (``builder``),
the planner's search (``planner``), and the config numbers they take as one array (``params``)."""
