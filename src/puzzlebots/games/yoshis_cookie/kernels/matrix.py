"""numba kernels of the matrix rules: which lines are complete, clearing and contracting, rotations.

The matrix is an 8 x 8 int8 array whose top-left ``R x C`` block is in play (row 0 is the top row).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import AREA, SHELL, YOSHI
from .params import MIN_LINE, SCORE_COOKIE, SCORE_YOSHI


@njit(cache=True)
def line_code(grid, i0, j0, di, dj, n, min_line):
    """-1 if the line is not complete; else 0 (all Yoshi), the normal type 1-5, or SHELL for {Shell, Yoshi}."""
    if n < min_line:
        return -1
    t = 0
    shell = False
    for k in range(n):
        v = grid[i0 + k * di, j0 + k * dj]
        if v == 0:
            return -1
        if v == YOSHI:
            continue
        if v == SHELL:
            shell = True
            continue
        if t == 0:
            t = v
        elif v != t:
            return -1
    if shell:
        if n == 2 and t == 0:
            return SHELL
        return -1
    return t


@njit(cache=True)
def find_complete(grid, R, C, min_line, row_code, col_code):
    """Fill ``row_code``/``col_code`` with each line's ``line_code``; return how many lines are complete."""
    n = 0
    for i in range(R):
        row_code[i] = line_code(grid, i, 0, 0, 1, C, min_line)
        if row_code[i] >= 0:
            n += 1
    for j in range(C):
        col_code[j] = line_code(grid, 0, j, 1, 0, R, min_line)
        if col_code[j] >= 0:
            n += 1
    return n


@njit(cache=True)
def count_types(grid, R, C):
    """How many cells of each code (0-7) the R x C matrix holds."""
    counts = np.zeros(8, dtype=np.int64)
    for i in range(R):
        for j in range(C):
            counts[grid[i, j]] += 1
    return counts


@njit(cache=True)
def count_removed(grid, R, C, row_code, col_code):
    """(cells, Yoshi cookies) in the union of the complete lines."""
    cells = 0
    yoshis = 0
    for i in range(R):
        for j in range(C):
            if row_code[i] >= 0 or col_code[j] >= 0:
                cells += 1
                if grid[i, j] == YOSHI:
                    yoshis += 1
    return cells, yoshis


@njit(cache=True)
def contract(grid, R, C, row_code, col_code):
    """Remove the complete rows and columns in place, closing the gaps; return the new (R, C)."""
    ni = 0
    for i in range(R):
        if row_code[i] >= 0:
            continue
        nj = 0
        for j in range(C):
            if col_code[j] >= 0:
                continue
            grid[ni, nj] = grid[i, j]
            nj += 1
        ni += 1
    nc = 0
    for j in range(C):
        if col_code[j] < 0:
            nc += 1
    for i in range(AREA):
        for j in range(AREA):
            if i >= ni or j >= nc:
                grid[i, j] = 0
    return ni, nc


@njit(cache=True)
def resolve_chain(grid, R, C, rules):
    """Clear and contract until no line is complete (``rules``: ``params.rule_numbers``).

    Returns (R, C, points, lines, chain steps).
    """
    min_line, score_cookie, score_yoshi = rules[MIN_LINE], rules[SCORE_COOKIE], rules[SCORE_YOSHI]
    row_code = np.empty(AREA, dtype=np.int64)
    col_code = np.empty(AREA, dtype=np.int64)
    points = 0
    lines = 0
    chain = 0
    while R > 0 and C > 0:
        n = find_complete(grid, R, C, min_line, row_code, col_code)
        if n == 0:
            break
        chain += 1
        cells, yoshis = count_removed(grid, R, C, row_code, col_code)
        points += score_cookie * cells * n * chain + score_yoshi * yoshis
        lines += n
        R, C = contract(grid, R, C, row_code, col_code)
        if R == 0 or C == 0:
            R = 0
            C = 0
    return R, C, points, lines, chain


@njit(cache=True)
def wrap_dist(a, b, n):
    d = (b - a) % n
    return min(d, n - d)


@njit(cache=True)
def signed_shift(a, b, n):
    """The shortest signed step count from a to b on a cycle of n; a tie goes the negative way (up/left)."""
    d = (b - a) % n
    if d == 0:
        return 0
    if d < n - d:
        return d
    return -(n - d)


@njit(cache=True)
def _rotate_line(line, n, k):
    """Rotate the first n cells of a row or column view by k cells (positive: right or down) with wraparound."""
    tmp = np.empty(AREA, dtype=line.dtype)
    for m in range(n):
        tmp[(m + k) % n] = line[m]
    for m in range(n):
        line[m] = tmp[m]


@njit(cache=True)
def rotate_row(grid, i, C, k):
    """Rotate row i by k cells (positive: right) with wraparound."""
    _rotate_line(grid[i], C, k)


@njit(cache=True)
def rotate_col(grid, j, R, k):
    """Rotate column j by k cells (positive: down) with wraparound."""
    _rotate_line(grid[:, j], R, k)
