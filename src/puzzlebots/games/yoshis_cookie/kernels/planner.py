"""numba search of the ``planner`` bot: two lines ahead, valued by cookies removed per step.

Candidates are the article's simulated line builds (``builder.build_line``) for every row and column of
every type, with no balance filter. The best few first lines are
expanded with every second line; a pair's value is (cookies removed + a bonus if the matrix empties) per
(steps + a fixed cost per line), minus a penalty when the matrix is left one step from game over. While a
Shell is in play, removing it earns the bonus too, and spending a Yoshi cookie elsewhere costs the penalty.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import AREA, SHELL, YOSHI
from .builder import BUILT, MAX_MOVES, build_line

#: first lines expanded with a second line
EXPAND = 8


@njit(cache=True)
def _feasible(counts, t, length, min_line):
    if length < min_line:
        return False
    return counts[t] > 0 and counts[t] + counts[YOSHI] >= length


@njit(cache=True)
def _count_shell_yoshi(grid, R, C):
    shells = 0
    yoshis = 0
    for i in range(R):
        for j in range(C):
            if grid[i, j] == SHELL:
                shells += 1
            elif grid[i, j] == YOSHI:
                yoshis += 1
    return shells, yoshis


@njit(cache=True)
def _best_second(grid, R, C, cr, cc, follows, min_line, sc, sy, empty_bonus, fixed, cells1, steps1, moves, work):
    """The best value over stopping now and every second line from this matrix."""
    best = cells1 / (steps1 + fixed)
    counts = np.zeros(8, dtype=np.int64)
    for i in range(R):
        for j in range(C):
            counts[grid[i, j]] += 1
    for kind in range(2):
        length = C if kind == 0 else R
        nlines = R if kind == 0 else C
        for idx in range(nlines):
            for t in range(1, 6):
                if not _feasible(counts, t, length, min_line):
                    continue
                _, steps, _, status, R2, C2, _, _ = build_line(grid, R, C, cr, cc, kind == 1, idx, t, follows,
                                                               True, min_line, sc, sy, moves, work)
                if status != BUILT:
                    continue
                cells = cells1 + R * C - R2 * C2
                if R2 == 0:
                    cells += empty_bonus
                v = cells / (steps1 + steps + 2 * fixed)
                if v > best:
                    best = v
    return best


@njit(cache=True)
def planner_best(grid, R, C, cr, cc, follows, min_line, sc, sy, empty_bonus, fixed, danger, out):
    """The planner's first line: returns (number of moves, kind, index, type); kind -1 if none is buildable."""
    counts = np.zeros(8, dtype=np.int64)
    for i in range(R):
        for j in range(C):
            counts[grid[i, j]] += 1
    n_max = 2 * AREA * 7
    kinds = np.empty(n_max, dtype=np.int64)
    idxs = np.empty(n_max, dtype=np.int64)
    types = np.empty(n_max, dtype=np.int64)
    steps_a = np.empty(n_max, dtype=np.int64)
    nms = np.empty(n_max, dtype=np.int64)
    ends = np.empty((n_max, 4), dtype=np.int64)
    quick = np.empty(n_max, dtype=np.float64)
    grids = np.empty((n_max, AREA, AREA), dtype=grid.dtype)
    all_moves = np.empty((n_max, MAX_MOVES), dtype=np.int8)
    moves = np.empty(MAX_MOVES, dtype=np.int8)
    work = np.zeros((AREA, AREA), dtype=grid.dtype)
    n = 0
    for kind in range(2):
        length = C if kind == 0 else R
        nlines = R if kind == 0 else C
        for idx in range(nlines):
            for t in range(1, 6):
                if not _feasible(counts, t, length, min_line):
                    continue
                _, steps, nm, status, R2, C2, cr2, cc2 = build_line(grid, R, C, cr, cc, kind == 1, idx, t,
                                                                    follows, True, min_line, sc, sy,
                                                                    all_moves[n], grids[n])
                if status != BUILT:
                    continue
                kinds[n] = kind
                idxs[n] = idx
                types[n] = t
                steps_a[n] = steps
                nms[n] = nm
                ends[n, 0] = R2
                ends[n, 1] = C2
                ends[n, 2] = cr2
                ends[n, 3] = cc2
                cells = R * C - R2 * C2 + (empty_bonus if R2 == 0 else 0)
                quick[n] = cells / (steps + fixed)
                n += 1
    if n == 0:
        return 0, -1, -1, -1
    order = np.argsort(-quick[:n], kind="mergesort")
    best_v = -1e18
    best = -1
    for rank in range(n):
        c = order[rank]
        R2, C2 = ends[c, 0], ends[c, 1]
        cells1 = R * C - R2 * C2
        if R2 == 0:
            v = (cells1 + empty_bonus) / (steps_a[c] + fixed)
        elif rank < EXPAND:
            v = _best_second(grids[c], R2, C2, ends[c, 2], ends[c, 3], follows, min_line, sc, sy, empty_bonus,
                             fixed, cells1, steps_a[c], moves, work)
        else:
            v = quick[c]
        if max(R2, C2) >= AREA - 1:
            v -= danger
        if counts[SHELL]:
            shell_left, yoshis_left = _count_shell_yoshi(grids[c], R2, C2)
            if shell_left == 0:
                v += empty_bonus / (steps_a[c] + fixed)
            else:
                v -= danger * (counts[YOSHI] - yoshis_left)
        if v > best_v or (v == best_v and steps_a[c] < steps_a[best]):
            best_v = v
            best = c
    for k in range(nms[best]):
        out[k] = all_moves[best, k]
    return nms[best], kinds[best], idxs[best], types[best]
