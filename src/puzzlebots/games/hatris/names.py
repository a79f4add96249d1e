"""The article's 8 metric names (the searcher's weights), kept apart from numpy and the kernels so that
``puzzlebots list`` and ``--help`` do not load them."""

METRIC_NAMES = (
    "hats",
    "pile_heights",
    "run_lengths",
    "top_run_lengths",
    "mismatches",
    "permutation_distance",
    "height_differences",
    "cash",
)
