"""numba kernels of the article's greedy line builder, and the greedy bot's choice of line.

The matrix is an 8 x 8 int8 array whose top-left ``R x C`` block is in play (row 0 is the top row).
Move codes follow ``rules.MOVE_LETTERS``: 0-3 cursor U D L R, 4-7 rotations u d l r.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import AREA, YOSHI
from .matrix import line_code, resolve_chain, rotate_col, rotate_row, signed_shift, wrap_dist

#: build_line status codes
BUILT = 0
NOT_BUILT = 1

#: how many move codes a plan buffer holds (a 7-cell line needs far fewer)
MAX_MOVES = 512

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
def _build_row(g, R, C, cr, cc, r, t, follows, yoshi_last, min_line, score_cookie, score_yoshi, moves):
    """The article's greedy builder for row r of type t on g (modified in place).

    Returns (points, steps, moves, status, R, C, cursor row, cursor column) with the state where the build
    halted, which is at the first clear of any line (the chain resolved, the cursor clamped into the matrix).
    """
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
            return 0, steps, nm, NOT_BUILT, R, C, cr, cc
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
            return 0, steps, nm, NOT_BUILT, R, C, cr, cc
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
                    return _halt(g, R, C, cr, cc, min_line, score_cookie, score_yoshi, steps, nm)
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
                return _halt(g, R, C, cr, cc, min_line, score_cookie, score_yoshi, steps, nm)
    return 0, steps, nm, NOT_BUILT, R, C, cr, cc


@njit(cache=True)
def _halt(g, R, C, cr, cc, min_line, score_cookie, score_yoshi, steps, nm):
    R2, C2, pts, _, _ = resolve_chain(g, R, C, min_line, score_cookie, score_yoshi)
    return pts, steps, nm, BUILT, R2, C2, min(cr, max(R2 - 1, 0)), min(cc, max(C2 - 1, 0))


@njit(cache=True)
def build_line(grid, R, C, cr, cc, is_col, idx, t, follows, yoshi_last, min_line, score_cookie, score_yoshi,
               moves, work):
    """Simulate building row (or column) ``idx`` of type t from cursor (cr, cc) on a copy held in ``work``.

    Columns are built as rows of the transposed matrix, and their moves mapped back.
    Returns ``_build_row``'s tuple; ``work`` holds the matrix where the build halted.
    """
    if not is_col:
        for i in range(AREA):
            for j in range(AREA):
                work[i, j] = grid[i, j]
        return _build_row(work, R, C, cr, cc, idx, t, follows, yoshi_last, min_line, score_cookie, score_yoshi,
                          moves)
    tr = np.empty((AREA, AREA), dtype=grid.dtype)
    for i in range(AREA):
        for j in range(AREA):
            tr[j, i] = grid[i, j]
    pts, steps, nm, status, R2, C2, cr2, cc2 = _build_row(tr, C, R, cc, cr, idx, t, follows, yoshi_last,
                                                          min_line, score_cookie, score_yoshi, moves)
    for k in range(nm):
        moves[k] = _TRANSPOSE_MOVE[moves[k]]
    for i in range(AREA):
        for j in range(AREA):
            work[j, i] = tr[i, j]
    return pts, steps, nm, status, C2, R2, cc2, cr2


@njit(cache=True)
def greedy_best(grid, R, C, cr, cc, balance, follows, yoshi_last, min_line, score_cookie, score_yoshi, out):
    """The article's choice: every buildable row and column of every type, most points then fewest steps.

    ``balance``: rows only when R >= C + 2, columns only when C >= R + 2. Enumeration order (rows before
    columns, lower index, lower type code) breaks the remaining ties. Returns (points, steps, moves, kind,
    index, type) with the moves in ``out``; kind is -1 when nothing can be built.
    """
    counts = np.zeros(8, dtype=np.int64)
    for i in range(R):
        for j in range(C):
            counts[grid[i, j]] += 1
    moves = np.empty(MAX_MOVES, dtype=np.int8)
    work = np.zeros((AREA, AREA), dtype=grid.dtype)
    best_pts = -1
    best_steps = 0
    best_nm = 0
    best_kind = -1
    best_idx = -1
    best_t = -1
    for kind in range(2):
        if balance and kind == 1 and R >= C + 2:
            continue
        if balance and kind == 0 and C >= R + 2:
            continue
        length = C if kind == 0 else R
        nlines = R if kind == 0 else C
        if length < min_line:
            continue
        for idx in range(nlines):
            for t in range(1, 6):
                if counts[t] == 0 or counts[t] + counts[YOSHI] < length:
                    continue
                pts, steps, nm, status, _, _, _, _ = build_line(grid, R, C, cr, cc, kind == 1, idx, t, follows,
                                                                yoshi_last, min_line, score_cookie,
                                                                score_yoshi, moves, work)
                if status != BUILT:
                    continue
                if pts > best_pts or (pts == best_pts and steps < best_steps):
                    best_pts = pts
                    best_steps = steps
                    best_nm = nm
                    best_kind = kind
                    best_idx = idx
                    best_t = t
                    for k in range(nm):
                        out[k] = moves[k]
    return best_pts, best_steps, best_nm, best_kind, best_idx, best_t
