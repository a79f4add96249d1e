"""The article's 8 metrics and their normalisation (reference 3.2, Q15, Q17, Q18, Q25), in pure Python.

This is the readable definition and the test oracle for the numba evaluation in :mod:`.kernels`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cache

import numpy as np

from .engine import pile_height
from .names import METRIC_NAMES as METRIC_NAMES  # the readable definition names them too

CASH_NORM = 1200.0  # the most cash two steps can pay: 4 stacks of crowns


def norm_bounds(top_px: int) -> tuple[float, float, float, float, float]:
    """Q17 divisors of metrics 1-5 under ``top_px``: the bounds of each raw sum."""
    kmax = 1 + (top_px - 8) // 2
    return (
        6.0 * kmax * kmax,
        6.0 * top_px * top_px,
        6.0 * 16 * math.ceil(kmax / 4),
        6.0 * 16,
        6.0 * (kmax - 1),
    )


def lehmer_index(ranks: Sequence[int]) -> int:
    """Index 0-719 of a permutation of 0-5 in the factorial number system."""
    idx = 0
    for i in range(5):
        d = sum(1 for j in range(i + 1, 6) if ranks[j] < ranks[i])
        idx = idx * (6 - i) + d
    return idx


@cache
def perm_distance_table() -> np.ndarray:
    """The 720-entry lookup table: minimal swaps (6 - cycles) to sort each rank permutation."""
    table = np.zeros(720, np.int64)
    for perm in itertools.permutations(range(6)):
        seen = [False] * 6
        cycles = 0
        for i in range(6):
            if not seen[i]:
                cycles += 1
                j = i
                while not seen[j]:
                    seen[j] = True
                    j = perm[j]
        table[lehmer_index(perm)] = 6 - cycles
    return table


def perm_distance(heights: Sequence[int], mirror: bool) -> int:
    """Q18: minimal pile swaps to order heights non-increasing left to right (ties by column)."""
    hs = list(reversed(heights)) if mirror else list(heights)
    order = sorted(range(6), key=lambda i: (-hs[i], i))
    ranks = [0] * 6
    for r, i in enumerate(order):
        ranks[i] = r
    return int(perm_distance_table()[lehmer_index(ranks)])


def runs(pile: Sequence[int]) -> list[int]:
    """Lengths of the maximal runs of identical hats, bottom to top."""
    return [len(list(g)) for _, g in itertools.groupby(pile)]


def metrics(
    piles: Sequence[Sequence[int]],
    cash_gained: int,
    nest: Sequence[Sequence[int]],
    top_px: int,
    min_run: int = 2,
    metric7_formula: str = "signed",
    mirror: bool = False,
) -> list[float]:
    """The 8 normalised metrics of a field (each in [0, 1] on a live field; larger is better)."""
    n1, n2, n3, n4, n5 = norm_bounds(top_px)
    heights = [pile_height(p, nest) for p in piles]
    run_lists = [runs(p) for p in piles]
    m1 = 1 - sum(len(p) ** 2 for p in piles) / n1
    m2 = 1 - sum(h * h for h in heights) / n2
    m3 = sum(r * r for rl in run_lists for r in rl if r >= min_run) / n3
    m4 = sum(rl[-1] ** 2 for rl in run_lists if rl and rl[-1] >= min_run) / n4
    m5 = 1 - sum(len(rl) - 1 for rl in run_lists if rl) / n5
    m6 = 1 - perm_distance(heights, mirror) / 5
    if metric7_formula == "signed":
        hs = list(reversed(heights)) if mirror else heights
        m7v = (sum(hs[i] - hs[i + 1] for i in range(5)) + top_px) / (2 * top_px)
    else:
        m7v = 1 - sum(abs(heights[i] - heights[i + 1]) for i in range(5)) / (5 * top_px)
    m8 = min(cash_gained / CASH_NORM, 1.0)
    return [m1, m2, m3, m4, m5, m6, m7v, m8]


def score(values: Sequence[float], weights: Sequence[float]) -> float:
    return sum(w * m for w, m in zip(weights, values, strict=True))
