"""numba search of the ``planner`` bot: two lines ahead, valued by cookies removed per step.

Candidates are the article's simulated line builds (``builder.build_line``) for every row and column of
every type, with no balance filter. The best few first lines are
expanded with every second line; a pair's value is (cookies removed + a bonus if the matrix empties) per
(steps + a fixed cost per line), minus a penalty when the matrix is left one step from game over. While a
Shell is in play, removing it earns the bonus too, and spending a Yoshi cookie elsewhere costs the penalty.

Arguments are grouped as in ``builder`` (``at``, ``rules``), and the three weights are one float64 array.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import AREA, SHELL, YOSHI
from .builder import BUILT, MAX_MOVES, build_line, buildable_lines
from .matrix import count_types
from .params import MIN_LINE

#: first lines expanded with a second line
EXPAND = 8

#: indices into the weights array: the bonus for emptying the matrix (or removing the Shell), the fixed
#: step cost of a line, the penalty for ending one size from game over (or spending a Yoshi cookie)
EMPTY_BONUS, FIXED, DANGER = range(3)

#: columns of the first-line table: the line, its steps and moves, and the ``at`` where its build ends
KIND, INDEX, TYPE, STEPS, NMOVES, END_R, END_C, END_CR, END_CC = range(9)

#: room for the first lines (every row and column of every type)
_N_MAX = 2 * AREA * 7


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
def _best_second(grid, at, rules, weights, first, moves, work):
    """The best value over stopping now and every second line from this matrix (``first``: the first
    line's (cells removed, steps))."""
    R, C = at[0], at[1]
    cells1, steps1 = first
    empty_bonus, fixed = weights[EMPTY_BONUS], weights[FIXED]
    best = cells1 / (steps1 + fixed)
    n, lines = buildable_lines(grid, R, C, rules[MIN_LINE], False)
    for k in range(n):
        line = (lines[k, 0], lines[k, 1], lines[k, 2])
        _, steps, _, status, end = build_line(grid, at, line, rules, moves, work)
        if status != BUILT:
            continue
        R2 = end[0]
        cells = cells1 + R * C - R2 * end[1]
        if R2 == 0:
            cells += empty_bonus
        v = cells / (steps1 + steps + 2 * fixed)
        if v > best:
            best = v
    return best


@njit(cache=True)
def _first_lines(grid, at, rules, weights, table, quick, grids, all_moves):
    """Fill one row of ``table`` per buildable first line (its matrix in ``grids``, moves in ``all_moves``,
    one-line value in ``quick``); return how many."""
    R, C = at[0], at[1]
    empty_bonus, fixed = weights[EMPTY_BONUS], weights[FIXED]
    n_lines, lines = buildable_lines(grid, R, C, rules[MIN_LINE], False)
    n = 0
    for k in range(n_lines):
        line = (lines[k, 0], lines[k, 1], lines[k, 2])
        _, steps, nm, status, end = build_line(grid, at, line, rules, all_moves[n], grids[n])
        if status != BUILT:
            continue
        table[n, KIND], table[n, INDEX], table[n, TYPE] = line
        table[n, STEPS] = steps
        table[n, NMOVES] = nm
        table[n, END_R], table[n, END_C], table[n, END_CR], table[n, END_CC] = end
        R2, C2 = end[0], end[1]
        cells = R * C - R2 * C2 + (empty_bonus if R2 == 0 else 0)
        quick[n] = cells / (steps + fixed)
        n += 1
    return n


@njit(cache=True)
def planner_best(grid, at, rules, weights, out):
    """The planner's first line: returns (number of moves, kind, index, type); kind -1 if none is buildable."""
    R, C = at[0], at[1]
    empty_bonus, fixed, danger = weights[EMPTY_BONUS], weights[FIXED], weights[DANGER]
    counts = count_types(grid, R, C)
    table = np.empty((_N_MAX, 9), dtype=np.int64)
    quick = np.empty(_N_MAX, dtype=np.float64)
    grids = np.empty((_N_MAX, AREA, AREA), dtype=grid.dtype)
    all_moves = np.empty((_N_MAX, MAX_MOVES), dtype=np.int8)
    n = _first_lines(grid, at, rules, weights, table, quick, grids, all_moves)
    if n == 0:
        return 0, -1, -1, -1
    moves = np.empty(MAX_MOVES, dtype=np.int8)
    work = np.zeros((AREA, AREA), dtype=grid.dtype)
    order = np.argsort(-quick[:n], kind="mergesort")
    best_v = -1e18
    best = -1
    for rank in range(n):
        c = order[rank]
        R2, C2 = table[c, END_R], table[c, END_C]
        steps = table[c, STEPS]
        cells1 = R * C - R2 * C2
        if R2 == 0:
            v = (cells1 + empty_bonus) / (steps + fixed)
        elif rank < EXPAND:
            end = (R2, C2, table[c, END_CR], table[c, END_CC])
            v = _best_second(grids[c], end, rules, weights, (cells1, steps), moves, work)
        else:
            v = quick[c]
        if max(R2, C2) >= AREA - 1:
            v -= danger
        if counts[SHELL]:
            shell_left, yoshis_left = _count_shell_yoshi(grids[c], R2, C2)
            if shell_left == 0:
                v += empty_bonus / (steps + fixed)
            else:
                v -= danger * (counts[YOSHI] - yoshis_left)
        if best < 0 or v > best_v or (v == best_v and steps < table[best, STEPS]):
            best_v = v
            best = c
    for k in range(table[best, NMOVES]):
        out[k] = all_moves[best, k]
    return table[best, NMOVES], table[best, KIND], table[best, INDEX], table[best, TYPE]
