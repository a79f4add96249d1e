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
def _value_all(grid, at, rules, weights, table, values, all_moves):
    """Fill ``table``, ``values`` (value, rank by the one-line value) and ``all_moves`` for every buildable
    first line; return how many."""
    R, C = at[0], at[1]
    empty_bonus, danger = weights[EMPTY_BONUS], weights[DANGER]
    fixed = weights[FIXED]
    counts = count_types(grid, R, C)
    quick = np.empty(_N_MAX, dtype=np.float64)
    grids = np.empty((_N_MAX, AREA, AREA), dtype=grid.dtype)
    n = _first_lines(grid, at, rules, weights, table, quick, grids, all_moves)
    moves = np.empty(MAX_MOVES, dtype=np.int8)
    work = np.zeros((AREA, AREA), dtype=grid.dtype)
    order = np.argsort(-quick[:n], kind="mergesort")
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
        values[c, 0] = v
        values[c, 1] = rank
    return n


@njit(cache=True)
def _better(table, values, a, b):
    """Whether first line ``a`` ranks before ``b``: higher value, then fewer steps, then the better one-line
    value."""
    if values[a, 0] != values[b, 0]:
        return values[a, 0] > values[b, 0]
    if table[a, STEPS] != table[b, STEPS]:
        return table[a, STEPS] < table[b, STEPS]
    return values[a, 1] < values[b, 1]


@njit(cache=True)
def planner_best(grid, at, rules, weights, out):
    """The planner's first line: returns (number of moves, kind, index, type); kind -1 if none is buildable."""
    table = np.empty((_N_MAX, 9), dtype=np.int64)
    values = np.empty((_N_MAX, 2), dtype=np.float64)
    all_moves = np.empty((_N_MAX, MAX_MOVES), dtype=np.int8)
    n = _value_all(grid, at, rules, weights, table, values, all_moves)
    if n == 0:
        return 0, -1, -1, -1
    best = 0
    for c in range(1, n):
        if _better(table, values, c, best):
            best = c
    for k in range(table[best, NMOVES]):
        out[k] = all_moves[best, k]
    return table[best, NMOVES], table[best, KIND], table[best, INDEX], table[best, TYPE]


@njit(cache=True)
def planner_ranked(grid, at, rules, weights, outs, lines):
    """The planner's ``len(outs)`` best first lines, best first: moves in ``outs[k]``, (number of moves,
    kind, index, type) in ``lines[k]``; returns how many (0 when nothing is buildable)."""
    table = np.empty((_N_MAX, 9), dtype=np.int64)
    values = np.empty((_N_MAX, 2), dtype=np.float64)
    all_moves = np.empty((_N_MAX, MAX_MOVES), dtype=np.int8)
    n = _value_all(grid, at, rules, weights, table, values, all_moves)
    taken = np.zeros(n, dtype=np.bool_)
    m = min(n, outs.shape[0])
    for k in range(m):
        best = -1
        for c in range(n):
            if not taken[c] and (best < 0 or _better(table, values, c, best)):
                best = c
        taken[best] = True
        nm = table[best, NMOVES]
        outs[k, :nm] = all_moves[best, :nm]
        lines[k, 0], lines[k, 1] = nm, table[best, KIND]
        lines[k, 2], lines[k, 3] = table[best, INDEX], table[best, TYPE]
    return m
