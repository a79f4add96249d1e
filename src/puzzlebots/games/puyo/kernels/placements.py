"""Numba kernels of placements: which of the 22 placements a pair can reach, dropping it, and playing it out.

Placements are numbered as in ``rules.PLACEMENTS``. Reachability (``reach_bounds``, ``placement_mask``) needs
only column heights and serves both kernels; the drops and playouts here work on the grid arrays of
:mod:`.field` and, like it, are the oracle of their bitboard twins in :mod:`.bitboard`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import N_PLACEMENTS, PLACEMENT_R, PLACEMENT_X, ROWS, SPAWN_X, VISIBLE_ROWS, WIDTH
from .field import column_heights, group_size, resolve

_PX = PLACEMENT_X
_PR = PLACEMENT_R
_DX = np.array([0, 1, 0, -1], dtype=np.int64)


@njit(cache=True)
def reach_bounds(heights: np.ndarray, crossable: int) -> tuple[int, int]:
    """Leftmost and rightmost columns the pair can occupy from the spawn column (strict reach rule).

    A column can be entered when its height is at most ``crossable``; returns (1, 0) (empty) when the
    spawn column itself is too tall.
    """
    if heights[SPAWN_X] > crossable:
        return 1, 0
    lo = SPAWN_X
    while lo > 0 and heights[lo - 1] <= crossable:
        lo -= 1
    hi = SPAWN_X
    while hi < WIDTH - 1 and heights[hi + 1] <= crossable:
        hi += 1
    return lo, hi


@njit(cache=True)
def placement_mask(heights: np.ndarray, same_colour: bool, crossable: int, mask: np.ndarray) -> int:
    """Set ``mask[p]`` for each reachable placement (only the 11 canonical ones for a same-colour pair)."""
    lo, hi = reach_bounds(heights, crossable)
    n = 0
    limit = 11 if same_colour else N_PLACEMENTS
    for p in range(N_PLACEMENTS):
        ok = False
        if p < limit:
            x = _PX[p]
            r = _PR[p]
            cx = x + _DX[r]
            # the axis may never come to rest in row 14
            axis_row = heights[x] + 1 if r == 2 else heights[x]
            ok = lo <= x <= hi and lo <= cx <= hi and axis_row < ROWS
        mask[p] = ok
        if ok:
            n += 1
    return n


@njit(cache=True)
def _land(field: np.ndarray, heights: np.ndarray, x: int, colour: int) -> int:
    """Drop one puyo into column x; return its row, or -1 when it would rest in row 14 and vanishes."""
    y = heights[x]
    if y >= ROWS:
        return -1
    field[x, y] = colour
    heights[x] = y + 1
    return y


@njit(cache=True)
def drop_pair(field: np.ndarray, heights: np.ndarray, p: int, axis: int, child: int, out: np.ndarray) -> bool:
    """Drop the pair (axis, child) at placement ``p``; write (ax, ay, cx, cy) into ``out``.

    Returns False (field untouched) when the axis would come to rest in row 14, which the rules forbid.
    A child that would rest in row 14 vanishes (its row is reported as -1).
    """
    x = _PX[p]
    r = _PR[p]
    cx = x + _DX[r]
    if r == 0:
        if heights[x] >= ROWS:
            return False
        ay = _land(field, heights, x, axis)
        cy = _land(field, heights, x, child)
    elif r == 2:
        if heights[x] + 1 >= ROWS:
            return False
        cy = _land(field, heights, x, child)
        ay = _land(field, heights, x, axis)
    else:
        if heights[x] >= ROWS:
            return False
        ay = _land(field, heights, x, axis)
        cy = _land(field, heights, cx, child)
    out[0] = x
    out[1] = ay
    out[2] = cx
    out[3] = cy
    return True


@njit(cache=True)
def play_pair(
    field: np.ndarray, heights: np.ndarray, p: int, axis: int, child: int, pos: np.ndarray, stats: np.ndarray
) -> int:
    """Drop a pair and resolve; return the chain score, or -1 if the placement is not physically possible.

    Fast path: when neither placed puyo ends in a group of 4+, nothing can pop and the full scan is skipped.
    """
    if not drop_pair(field, heights, p, axis, child, pos):
        return -1
    if group_size(field, pos[0], pos[1]) < 4 and group_size(field, pos[2], pos[3]) < 4:
        stats[0] = 0
        stats[1] = 0
        stats[2] = 0
        return 0
    return resolve(field, heights, stats)


@njit(cache=True)
def bench_placements(fields: np.ndarray, pairs: np.ndarray, crossable: int) -> tuple[int, int]:
    """Resolve every reachable placement of ``pairs[i]`` on a copy of ``fields[i]``.

    Returns (placements resolved, total links), the second so the work cannot be optimised away.
    """
    heights = np.empty(WIDTH, dtype=np.int64)
    h2 = np.empty(WIDTH, dtype=np.int64)
    mask = np.zeros(N_PLACEMENTS, dtype=np.bool_)
    pos = np.empty(4, dtype=np.int64)
    stats = np.empty(3, dtype=np.int64)
    work = np.empty((WIDTH, ROWS), dtype=np.uint8)
    count = 0
    links = 0
    for i in range(fields.shape[0]):
        column_heights(fields[i], heights)
        a = pairs[i, 0]
        c = pairs[i, 1]
        placement_mask(heights, a == c, VISIBLE_ROWS - 1, mask)
        for p in range(N_PLACEMENTS):
            if not mask[p]:
                continue
            work[:, :] = fields[i]
            h2[:] = heights
            if play_pair(work, h2, p, a, c, pos, stats) >= 0:
                count += 1
                links += stats[0]
    return count, links


@njit(cache=True)
def bench_resolve(cells: np.ndarray, heights: np.ndarray, n: int) -> int:
    """Resolve a copy of the grid field ``cells`` ``n`` times (the copy timed too), as ``bitboard.bench_resolve``
    does the bitboard: the summed score."""
    work = np.empty_like(cells)
    h = np.empty_like(heights)
    stats = np.zeros(3, dtype=np.int64)
    total = 0
    for _ in range(n):
        work[:] = cells
        h[:] = heights
        total += resolve(work, h, stats)
    return total
