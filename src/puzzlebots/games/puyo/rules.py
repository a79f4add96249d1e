"""Puyo Puyo Tsu constants and scoring tables (reference puyo.md sections 1 and 2): pure data.

Coordinates: columns x = 0..5 (the reference's 1..6), rows y = 0..12 (the reference's 1..13). Row index 12 is
the hidden 13th row (holds puyos, never pops); a puyo that would rest in the 14th row vanishes.
"""

from __future__ import annotations

import numpy as np

WIDTH = 6
VISIBLE_ROWS = 12  # rows 1..12 can pop
ROWS = 13  # rows 1..13 can hold a puyo
VANISH_ROW = 13  # 0-based index of row 14: anything resting there vanishes

EMPTY = 0
MAX_COLOURS = 5
GARBAGE = 6
COLOUR_LETTERS = ".RGBYP"  # index = colour; GARBAGE prints as "o"

SPAWN_X = 2  # column 3
DEATH_X, DEATH_Y = 2, 11  # cell (3, 12)

#: chain power CP indexed by link number (index 0 unused); links past 19 keep adding 32
CHAIN_POWER = (0, 0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512)
#: colour bonus by the number of distinct colours popped in a link (index = colours)
COLOUR_BONUS = (0, 0, 3, 6, 12, 24, 48)
#: group bonus by group size (index = size, 11+ -> 10)
GROUP_BONUS = (0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 10)

ALL_CLEAR_BONUS = 2100  # 30 nuisance x 70 target points
TARGET_POINTS = 70
MAX_GARBAGE_DROP = 30

#: the 22 placements as (x of the axis, rotation); rotation 0 = child above, 1 = right, 2 = below, 3 = left.
#: Indices 0..10 are the canonical placements of a same-colour pair (r0 == r2, (r1, x) == (r3, x + 1)).
PLACEMENTS: tuple[tuple[int, int], ...] = (
    tuple((x, 0) for x in range(6))
    + tuple((x, 1) for x in range(5))
    + tuple((x, 2) for x in range(6))
    + tuple((x, 3) for x in range(1, 6))
)
N_PLACEMENTS = len(PLACEMENTS)
N_CANONICAL = 11
PLACEMENT_INDEX = {p: i for i, p in enumerate(PLACEMENTS)}
CHILD_DX = (0, 1, 0, -1)

#: numpy copies of the tables for the numba kernels
PLACEMENT_X = np.array([p[0] for p in PLACEMENTS], dtype=np.int64)
PLACEMENT_R = np.array([p[1] for p in PLACEMENTS], dtype=np.int64)
CHAIN_POWER_ARR = np.array(CHAIN_POWER + tuple(512 + 32 * i for i in range(1, 20)), dtype=np.int64)
COLOUR_BONUS_ARR = np.array(COLOUR_BONUS, dtype=np.int64)
GROUP_BONUS_ARR = np.array(GROUP_BONUS, dtype=np.int64)


def canonical_index(index: int, same_colour: bool) -> int:
    """The canonical placement index of ``index`` for a same-colour pair (identity otherwise)."""
    if not same_colour:
        return index
    x, r = PLACEMENTS[index]
    if r == 2:
        return PLACEMENT_INDEX[(x, 0)]
    if r == 3:
        return PLACEMENT_INDEX[(x - 1, 1)]
    return index


def link_score(link: int, popped: int, colours: int, group_sizes: list[int]) -> int:
    """Tsu score of one link: 10 x PC x clamp(CP + CB + GB, 1, 999) (reference F12)."""
    cp = CHAIN_POWER[link] if link <= 19 else 512 + 32 * (link - 19)
    cb = COLOUR_BONUS[colours]
    gb = sum(GROUP_BONUS[min(s, 11)] for s in group_sizes)
    return 10 * popped * min(max(cp + cb + gb, 1), 999)
