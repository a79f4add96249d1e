"""Numba kernels of the grid field: column heights, same-colour groups, chain resolution with Tsu scoring.

A field is a ``uint8`` array of shape (6, 13): ``field[x, y]``, x = column 0..5, y = row 0..12 (row 12 is
the hidden 13th row), 0 = empty, 1..5 = colours, 6 = garbage. ``heights[x]`` is the number of puyos in
column x (nothing floats once a move has resolved). Every function here mutates its arguments in place and
allocates only tiny scratch arrays. The game itself now runs on ``kernels.bitboard``; this cell-by-cell
kernel is the oracle the bitboards are tested against (``tests/puyo/test_puyo_bitboard.py``) and the
reference of the benchmark, and ``games.puyo.oracle`` is the readable reference it is tested against.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import CHAIN_POWER_ARR, COLOUR_BONUS_ARR, GARBAGE, GROUP_BONUS_ARR, ROWS, VISIBLE_ROWS, WIDTH

_CP = CHAIN_POWER_ARR
_CB = COLOUR_BONUS_ARR
_GB = GROUP_BONUS_ARR
_NCELLS = WIDTH * ROWS


@njit(cache=True, inline="always")
def link_score(popped: int, links: int, colours: int, group_bonus: int) -> int:
    """One link's Tsu score, ``10 x PC x clamp(CP + CB + GB, 1, 999)``: shared by the grid and bitboard kernels."""
    bonus = _CP[links] + _CB[colours] + group_bonus
    if bonus < 1:
        bonus = 1
    elif bonus > 999:
        bonus = 999
    return 10 * popped * bonus


@njit(cache=True)
def column_heights(field: np.ndarray, heights: np.ndarray) -> None:
    """Fill ``heights`` with the number of puyos in each column (counted up to the first gap)."""
    for x in range(WIDTH):
        h = 0
        while h < ROWS and field[x, h] != 0:
            h += 1
        heights[x] = h


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
        score += link_score(npop, links, ncol, gb)
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
