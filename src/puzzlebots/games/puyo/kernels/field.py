"""Numba hot paths: drop a pair, resolve chains with Tsu scoring, list reachable placements.

A field is a ``uint8`` array of shape (6, 13): ``field[x, y]``, x = column 0..5, y = row 0..12 (row 12 is
the hidden 13th row), 0 = empty, 1..5 = colours, 6 = garbage. ``heights[x]`` is the number of puyos in
column x (nothing floats once a move has resolved). Every function here mutates its arguments in place and
allocates only tiny scratch arrays; the engine and the bots call them on copies.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import (
    CHAIN_POWER_ARR,
    COLOUR_BONUS_ARR,
    GARBAGE,
    GROUP_BONUS_ARR,
    N_PLACEMENTS,
    PLACEMENT_R,
    PLACEMENT_X,
    ROWS,
    SPAWN_X,
    VISIBLE_ROWS,
    WIDTH,
)

_CP = CHAIN_POWER_ARR
_CB = COLOUR_BONUS_ARR
_GB = GROUP_BONUS_ARR
_PX = PLACEMENT_X
_PR = PLACEMENT_R
_DX = np.array([0, 1, 0, -1], dtype=np.int64)
_NCELLS = WIDTH * ROWS


@njit(cache=True)
def column_heights(field: np.ndarray, heights: np.ndarray) -> None:
    """Fill ``heights`` with the number of puyos in each column (counted up to the first gap)."""
    for x in range(WIDTH):
        h = 0
        while h < ROWS and field[x, h] != 0:
            h += 1
        heights[x] = h


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
def _flood(field: np.ndarray, x0: int, y0: int, seen: np.ndarray, cells: np.ndarray) -> int:
    """Collect the same-colour group of (x0, y0) within rows 1..12 into ``cells``; return its size."""
    colour = field[x0, y0]
    cells[0] = x0 * ROWS + y0
    seen[x0 * ROWS + y0] = 1
    n = 1
    i = 0
    while i < n:
        idx = cells[i]
        i += 1
        x = idx // ROWS
        y = idx - x * ROWS
        for d in range(4):
            nx = x
            ny = y
            if d == 0:
                nx = x - 1
            elif d == 1:
                nx = x + 1
            elif d == 2:
                ny = y - 1
            else:
                ny = y + 1
            if nx < 0 or nx >= WIDTH or ny < 0 or ny >= VISIBLE_ROWS:
                continue
            j = nx * ROWS + ny
            if seen[j] == 0 and field[nx, ny] == colour:
                seen[j] = 1
                cells[n] = j
                n += 1
    return n


@njit(cache=True)
def group_size(field: np.ndarray, x: int, y: int) -> int:
    """Size of the same-colour group containing (x, y); 0 for empty, garbage or the hidden row."""
    if y < 0 or y >= VISIBLE_ROWS:
        return 0
    c = field[x, y]
    if c == 0 or c == GARBAGE:
        return 0
    seen = np.zeros(_NCELLS, dtype=np.uint8)
    cells = np.empty(_NCELLS, dtype=np.int64)
    return _flood(field, x, y, seen, cells)


@njit(cache=True)
def resolve(field: np.ndarray, heights: np.ndarray, stats: np.ndarray) -> int:
    """Pop, fall and repeat until the field is stable; return the chain score (without all-clear bonus).

    ``stats`` receives [links, coloured puyos popped, garbage cleared].
    """
    seen = np.zeros(_NCELLS, dtype=np.uint8)
    popm = np.zeros(_NCELLS, dtype=np.uint8)
    cells = np.empty(_NCELLS, dtype=np.int64)
    links = 0
    score = 0
    popped_total = 0
    garbage_total = 0
    while True:
        seen[:] = 0
        popm[:] = 0
        npop = 0
        colour_mask = 0
        gb = 0
        for x in range(WIDTH):
            top = min(heights[x], VISIBLE_ROWS)
            for y in range(top):
                c = field[x, y]
                idx = x * ROWS + y
                if c == GARBAGE or seen[idx] != 0:
                    continue
                size = _flood(field, x, y, seen, cells)
                if size >= 4:
                    for k in range(size):
                        popm[cells[k]] = 1
                    npop += size
                    colour_mask |= 1 << c
                    gb += _GB[min(size, 11)]
        if npop == 0:
            break
        links += 1
        ncol = 0
        m = colour_mask
        while m:
            ncol += m & 1
            m >>= 1
        # garbage next to a popping puyo (rows 1..12) is cleared with it
        for x in range(WIDTH):
            top = min(heights[x], VISIBLE_ROWS)
            for y in range(top):
                if field[x, y] != GARBAGE:
                    continue
                hit = (
                    (x > 0 and popm[(x - 1) * ROWS + y] == 1)
                    or (x < WIDTH - 1 and popm[(x + 1) * ROWS + y] == 1)
                    or (y > 0 and popm[x * ROWS + y - 1] == 1)
                    or (y < VISIBLE_ROWS - 1 and popm[x * ROWS + y + 1] == 1)
                )
                if hit:
                    popm[x * ROWS + y] = 2
                    garbage_total += 1
        bonus = _CP[links] + _CB[ncol] + gb
        if bonus < 1:
            bonus = 1
        elif bonus > 999:
            bonus = 999
        score += 10 * npop * bonus
        popped_total += npop
        for x in range(WIDTH):
            w = 0
            h = heights[x]
            for y in range(h):
                if popm[x * ROWS + y] == 0:
                    field[x, w] = field[x, y]
                    w += 1
            for y in range(w, h):
                field[x, y] = 0
            heights[x] = w
    stats[0] = links
    stats[1] = popped_total
    stats[2] = garbage_total
    return score


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
def is_empty(heights: np.ndarray) -> bool:
    for x in range(WIDTH):
        if heights[x] != 0:
            return False
    return True


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
