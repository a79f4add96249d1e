"""Yoshi's Cookie (NES, 1P) constants and the documented assumptions' defaults (docs/rules/yoshis_cookie.md).

Pure data: cell codes, move letters and the per-stage tables (the configuration keys are in ``config.py``).
"""

from __future__ import annotations

# Cell codes (reference 2.1: $10..$18 normal types, $1A Yoshi, $08 Shell); 0 is an empty cell.
HEART, FLOWER, DIAMOND, CHECK, CIRCLE = 1, 2, 3, 4, 5
YOSHI = 6
SHELL = 7
NORMAL_TYPES = (HEART, FLOWER, DIAMOND, CHECK, CIRCLE)

#: one letter per cell code, used by text dumps, board files and tests
CELL_LETTERS = ".HFDKOYS"
EXPERT_NAMES = {
    HEART: "mushroom",
    FLOWER: "boo",
    DIAMOND: "goomba",
    CHECK: "piranha",
    CIRCLE: "bloober",
}
NORMAL_NAMES = {HEART: "heart", FLOWER: "flower", DIAMOND: "diamond", CHECK: "check", CIRCLE: "circle"}

# Plan letters: cursor moves (upper case) and 1-cell rotations of the cursor's column (u/d) or row (l/r);
# a letter's index is its move code in the kernels.
MOVE_LETTERS = "UDLRudlr"
HOLD_B = "B"

#: the playfield is 8 x 8 cells; reaching 8 rows or 8 columns is game over (F6)
AREA = 8
#: sub-pixel units per pixel (speeds of 0.25 px/frame become whole units) and per 16-px cell
UNITS_PER_PX = 4
UNITS_PER_CELL = 16 * UNITS_PER_PX

MODES = ("normal", "expert", "full")
SPEEDS = ("low", "medium", "high")
#: rounds 1-10 are normal play; rounds 11-99 are expert (F16, F17)
LAST_NORMAL_ROUND = 10
LAST_ROUND = 99
STAGES_PER_ROUND = 10
