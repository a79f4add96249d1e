"""The search kernel's arguments: a few small arrays read by the named indices below, and the fixed tables.

:class:`~puzzlebots.games.hatris.bots.searcher.Searcher` packs them once per bot (rules, weights, tables) and
once per decision (board, hand); every kernel reads them by these names, never by position.

Arrays cross between kernels at a cost (a reference count each way), scalars for free: the kernels unpack what
they read once, outside their loops, and the evaluation reads its numbers from a :class:`Scoring` of scalars.
The numbers below are frozen into the cached kernels (see the package's note on ``cache=True``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..rules import POOL_MAX

#: board (int8, 6 x (CAP + 1)): row p holds pile p's hat types bottom first, and its hat count in column COUNT
CAP = 96  # hats per pile (61 fit under the default 128 px; 81 under the largest top_px)
COUNT = CAP

#: hand (int64): the pairs, the helper bars and the pool of the decision
H_CUR = 0  # the falling pair, hats H_CUR and H_CUR + 1
H_NEXT = 2  # the next pair, hats H_NEXT and H_NEXT + 1
H_BARS = 4  # progress of the two helper bars (H_BARS + helper)
H_NPOOL = 6  # helpers in the pool
H_POOL = 7  # the pool, POOL_MAX entries, the top one (last earned) at H_POOL + npool - 1
H_SIZE = H_POOL + POOL_MAX

#: rules (int64): the config numbers the search reads
R_TOP_PX = 0  # Q4: a pile taller than this tops out
R_MIN_RUN = 1  # Q25: the shortest run metrics 3-4 count
R_M7_ABS = 2  # Q15: metric 7 of absolute differences (1) or signed (0)
R_MIRROR = 3  # Q18: metrics 6-7 measured right to left ("asc_lr", 1)
R_BONUS = 4  # Q8: cash for a double stack
R_SIZE = 5

#: weights (float64): the 8 metric weights (names.METRIC_NAMES order), then metrics 1-5's weight
#: divided by its Q17 bound (the coefficients of the additive pile score)
W_HATS = 0
W_PILE_HEIGHTS = 1
W_RUNS = 2
W_TOP_RUNS = 3
W_MISMATCHES = 4
W_PERM = 5
W_HEIGHT_DIFFS = 6
W_CASH = 7
C_HATS = 8
C_PILE_HEIGHTS = 9
C_RUNS = 10
C_TOP_RUNS = 11
C_MISMATCHES = 12
W_SIZE = 13

#: the kinds of first step the search returns
K_NONE = -1  # every first step tops out
K_PLACE = 0  # x, y: the piles of the pair's first and second hat
K_ALEXEY = 1  # x: index of the removal in Tables.pats
K_VLADIMIR = 2  # x: index of the swap in Tables.swaps


class Tables(NamedTuple):
    """The fixed tables of a bot (int64 arrays; per hat type tables are indexed by type id 1-6)."""

    nest: np.ndarray  # (7, 7): offset of the upper hat's base over the lower hat's, [lower, upper]
    height: np.ndarray  # (7,): hat heights in pixels
    cash: np.ndarray  # (7,): cash when a stack of the type vanishes
    group: np.ndarray  # (7,): the helper bar the type's stacks fill
    pdt: np.ndarray  # (720,): permutation distance by Lehmer index of the height ranks (metric 6)
    pats: np.ndarray  # (n, 6): Alexey removals, bottom hats per pile
    sums: np.ndarray  # (m, 6): the combined removals of two Alexey uses in a row
    split: np.ndarray  # (m,): for each of those, the index in pats of its first use
    swaps: np.ndarray  # (15, 2): Vladimir swaps (i, j), i < j


class Scoring(NamedTuple):
    """The rules numbers and weights the evaluation reads, as scalars (built once per search by
    ``metrics.scoring``): a tuple of scalars passes between kernels without reference counting."""

    top_px: int
    min_run: int
    m7_abs: bool
    mirror: bool
    bonus: int
    c_hats: float
    c_pile_heights: float
    c_runs: float
    c_top_runs: float
    c_mismatches: float
    w_perm: float
    w_height_diffs: float
    w_cash: float
    const: float  # the constants of metrics 1, 2, 5 and 6 (their complements' 1, weighted)


class Decision(NamedTuple):
    """The search's inputs in one tuple, as the kernels of the first steps take them."""

    board: np.ndarray
    counts: np.ndarray  # (6,) int64: the board's COUNT column
    hand: np.ndarray
    sc: Scoring
    tables: Tables
