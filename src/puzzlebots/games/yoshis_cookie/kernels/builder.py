"""numba kernels of the article's greedy line builder, and the greedy bot's choice of line.

The matrix is an 8 x 8 int8 array whose top-left ``R x C`` block is in play (row 0 is the top row).
Arguments come grouped: ``at`` is the tuple (R, C, cursor row, cursor column), ``line`` the tuple
(kind 0 row / 1 column, index, cookie type), ``rules`` the array of ``params.rule_numbers``.
Move codes follow ``rules.MOVE_LETTERS``: 0-3 cursor U D L R, 4-7 rotations u d l r.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import AREA, YOSHI
from .matrix import count_types, line_code, resolve_chain, rotate_col, rotate_row, signed_shift, wrap_dist
from .params import FOLLOWS, MIN_LINE, YOSHI_LAST

#: build_line status codes
BUILT = 0
NOT_BUILT = 1

#: how many move codes a plan buffer holds (a 7-cell line needs far fewer)
MAX_MOVES = 512

#: room for every (kind, index, type) of an 8 x 8 area with 5 normal types
MAX_LINES = 2 * AREA * 5

# Move codes when a column target is solved on the transposed matrix (U<->L, D<->R, u<->l, d<->r).
_TRANSPOSE_MOVE = np.array([2, 3, 0, 1, 6, 7, 4, 5], dtype=np.int8)


@njit(cache=True)
def _any_complete(grid, R, C, min_line):
    for i in range(R):
        if line_code(grid, i, 0, 0, 1, C, min_line) >= 0:
            return True
    for j in range(C):
        if line_code(grid, 0, j, 1, 0, R, min_line) >= 0:
            return True
    return False


@njit(cache=True)
def _emit(moves, nm, code, count):
    for _ in range(count):
        moves[nm] = code
        nm += 1
    return nm


@njit(cache=True)
def _cost(R, C, r, p, cr, i, j, follows):
    """Steps to bring the cookie at (i, j) into the space (r, p) from cursor row cr."""
    if j == p:
        return 2 + 2 * wrap_dist(i, r, R)
    cost = 2 * wrap_dist(cr, i, R) + 2 + 2 * wrap_dist(j, p, C) + 2 + 2 * wrap_dist(i, r, R)
    if follows:
        cost += 2 * wrap_dist(p, j, C)
    return cost


@njit(cache=True)
def _nearest_cookie(g, R, C, r, p, cr, want, follows):
    """The cookie ``want`` outside row r that is cheapest (in steps) to bring into (r, p); scan order on ties."""
    best_i = -1
    best_j = -1
    best_cost = 1 << 30
    for i in range(R):
        if i == r:
            continue
        for j in range(C):
            if g[i, j] != want:
                continue
            cost = _cost(R, C, r, p, cr, i, j, follows)
            if cost < best_cost:
                best_cost = cost
                best_i = i
                best_j = j
    return best_i, best_j


@njit(cache=True)
def _build_row(g, at, r, t, rules, moves):
    """The article's greedy builder for row r of type t on g (modified in place).

    Returns (points, steps, moves, status, (R, C, cursor row, cursor column)) with the state where the build
    halted, which is at the first clear of any line (the chain resolved, the cursor clamped into the matrix).
    This is the hottest loop: it and its two helpers keep plain numbers (with the space and the cookie as
    tuples, planning measured 6% slower).
    """
    R, C, cr, cc = at
    follows, yoshi_last, min_line = rules[FOLLOWS], rules[YOSHI_LAST], rules[MIN_LINE]
    steps = 0
    nm = 0
    for _ in range(C + 1):
        # 1. the nearest space (wrap-aware cursor distance along the row; lower column on ties)
        p = -1
        best_d = 1 << 30
        for j in range(C):
            v = g[r, j]
            if v == t or v == YOSHI:
                continue
            d = wrap_dist(cc, j, C)
            if d < best_d:
                best_d = d
                p = j
        if p < 0:
            return 0, steps, nm, NOT_BUILT, (R, C, cr, cc)
        # 2. move the cursor to the space's column
        s = signed_shift(cc, p, C)
        nm = _emit(moves, nm, 3 if s > 0 else 2, abs(s))
        steps += 2 * abs(s)
        cc = p
        # 3. the nearest matching cookie outside the row (Yoshi cookies as a last resort, Q19)
        if yoshi_last:
            i, j = _nearest_cookie(g, R, C, r, p, cr, t, follows)
            if i < 0:
                i, j = _nearest_cookie(g, R, C, r, p, cr, YOSHI, follows)
        else:
            i, j = _nearest_cookie(g, R, C, r, p, cr, t, follows)
            iy, jy = _nearest_cookie(g, R, C, r, p, cr, YOSHI, follows)
            if iy >= 0 and (i < 0 or _cost(R, C, r, p, cr, iy, jy, follows) < _cost(R, C, r, p, cr, i, j, follows)):
                i, j = iy, jy
        if i < 0:
            return 0, steps, nm, NOT_BUILT, (R, C, cr, cc)
        if j != p:
            # 4a. go to the cookie's row, shift that row until the cookie is in the space's column
            s = signed_shift(cr, i, R)
            nm = _emit(moves, nm, 1 if s > 0 else 0, abs(s))
            steps += 2 * abs(s)
            cr = i
            if follows:
                # the cursor drags the cookie it stands on, so it first steps onto the cookie
                s = signed_shift(p, j, C)
                nm = _emit(moves, nm, 3 if s > 0 else 2, abs(s))
                steps += 2 * abs(s)
                cc = j
            k = signed_shift(j, p, C)
            steps += 2
            step = 1 if k > 0 else -1
            for _k in range(abs(k)):
                rotate_row(g, i, C, step)
                moves[nm] = 7 if step > 0 else 6
                nm += 1
                steps += 2
                if follows:
                    cc = (cc + step) % C
                if _any_complete(g, R, C, min_line):
                    return _halt(g, (R, C, cr, cc), rules, steps, nm)
        # 4b. rotate the space's column until the cookie enters the row
        k = signed_shift(i, r, R)
        steps += 2
        step = 1 if k > 0 else -1
        for _k in range(abs(k)):
            rotate_col(g, p, R, step)
            moves[nm] = 5 if step > 0 else 4
            nm += 1
            steps += 2
            if follows:
                cr = (cr + step) % R
            if _any_complete(g, R, C, min_line):
                return _halt(g, (R, C, cr, cc), rules, steps, nm)
    return 0, steps, nm, NOT_BUILT, (R, C, cr, cc)


@njit(cache=True)
def _halt(g, at, rules, steps, nm):
    """A build that completed a line: resolve the chain, clamp the cursor into what is left."""
    R, C, cr, cc = at
    R2, C2, pts, _, _ = resolve_chain(g, R, C, rules)
    return pts, steps, nm, BUILT, (R2, C2, min(cr, max(R2 - 1, 0)), min(cc, max(C2 - 1, 0)))


@njit(cache=True)
def build_line(grid, at, line, rules, moves, work):
    """Simulate building ``line`` from ``at`` on a copy held in ``work``; the move codes go to ``moves``.

    Columns are built as rows of the transposed matrix, and their moves mapped back.
    Returns (points, steps, number of moves, status, the ``at`` where the build halted); ``work`` holds
    the matrix there.
    """
    R, C, cr, cc = at
    kind, idx, t = line
    if kind == 0:
        for i in range(AREA):
            for j in range(AREA):
                work[i, j] = grid[i, j]
        return _build_row(work, at, idx, t, rules, moves)
    tr = np.empty((AREA, AREA), dtype=grid.dtype)
    for i in range(AREA):
        for j in range(AREA):
            tr[j, i] = grid[i, j]
    pts, steps, nm, status, end = _build_row(tr, (C, R, cc, cr), idx, t, rules, moves)
    for k in range(nm):
        moves[k] = _TRANSPOSE_MOVE[moves[k]]
    for i in range(AREA):
        for j in range(AREA):
            work[j, i] = tr[i, j]
    return pts, steps, nm, status, (end[1], end[0], end[3], end[2])


@njit(cache=True)
def buildable_lines(grid, R, C, min_line, balance):
    """The lines whose type's cookies plus Yoshi cookies can fill them: (count, rows of (kind, index, type)).

    In enumeration order (rows before columns, lower index, lower type code). ``balance``, the article's rule:
    rows only when R >= C + 2, columns only when C >= R + 2.
    """
    counts = count_types(grid, R, C)
    lines = np.empty((MAX_LINES, 3), dtype=np.int64)
    n = 0
    for kind in range(2):
        if balance and kind == 1 and R >= C + 2:
            continue
        if balance and kind == 0 and C >= R + 2:
            continue
        length = C if kind == 0 else R
        if length < min_line:
            continue
        for idx in range(R if kind == 0 else C):
            for t in range(1, 6):
                if counts[t] == 0 or counts[t] + counts[YOSHI] < length:
                    continue
                lines[n, 0] = kind
                lines[n, 1] = idx
                lines[n, 2] = t
                n += 1
    return n, lines


@njit(cache=True)
def greedy_best(grid, at, rules, out):
    """The article's choice: every buildable line under the balance rule, most points then fewest steps.

    Enumeration order breaks the remaining ties. Returns (number of moves, kind, index, type) with the moves
    in ``out``; kind is -1 when nothing can be built.
    """
    n, lines = buildable_lines(grid, at[0], at[1], rules[MIN_LINE], True)
    moves = np.empty(MAX_MOVES, dtype=np.int8)
    work = np.zeros((AREA, AREA), dtype=grid.dtype)
    best_pts = -1
    best_steps = 0
    best = -1
    best_nm = 0
    for k in range(n):
        line = (lines[k, 0], lines[k, 1], lines[k, 2])
        pts, steps, nm, status, _ = build_line(grid, at, line, rules, moves, work)
        if status != BUILT:
            continue
        if pts > best_pts or (pts == best_pts and steps < best_steps):
            best_pts = pts
            best_steps = steps
            best_nm = nm
            best = k
            for m in range(nm):
                out[m] = moves[m]
    if best < 0:
        return 0, -1, -1, -1
    return best_nm, lines[best, 0], lines[best, 1], lines[best, 2]
