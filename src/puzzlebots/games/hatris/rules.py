"""Hatris rule tables as pure data (reference/hatris.md sections 2.1-2.5), indexed by hat type id 1-6.

Index 0 of every per-type table is unused (type 0 = no hat), so a type id indexes directly.
"""

from __future__ import annotations

TOP, WIZARD, CROWN, CAP, DERBY, COWBOY = 1, 2, 3, 4, 5, 6
HAT_TYPES = (TOP, WIZARD, CROWN, CAP, DERBY, COWBOY)
HAT_NAMES = ("", "top", "wizard", "crown", "cap", "derby", "cowboy")
#: one letter per type, for text dumps and the viewer
HAT_LETTERS = ".TWKCDB"
HAT_COLOURS = ("", "white", "magenta", "yellow", "cyan", "red", "green")

COLUMNS = 6
#: hat heights in pixels (ROM $B9D2)
HEIGHT = (0, 20, 24, 16, 12, 8, 11)
#: cash paid when a 5-stack of the type vanishes (ROM $96B1)
CASH = (0, 150, 200, 300, 120, 50, 80)

#: ROM $B9D8, rows = the hat below, columns = the hat placed on top (reference 2.2, reading Q1 "base_offset")
NEST_ROM = (
    (0, 0, 0, 0, 0, 0, 0),
    (0, 2, 18, 18, 18, 18, 18),
    (0, 8, 4, 16, 20, 19, 19),
    (0, 9, 10, 10, 10, 10, 10),
    (0, 8, 8, 7, 6, 9, 8),
    (0, 2, 3, 3, 4, 2, 4),
    (0, 5, 6, 5, 5, 6, 5),
)

STACK = 5  # identical contiguous hats that vanish
LEVELS = 60  # shops 0-5 x stages 0-9
STAGES_PER_SHOP = 10
POOL_MAX = 8
BAR_FULL = 5  # stacks per helper progress bar
SPAWN_Y = 169  # $A9: both hats of a new pair start at this base height
SPAWN_COLUMNS = (2, 3)

ALEXEY, VLADIMIR = 0, 1
HELPER_NAMES = ("alexey", "vladimir")
#: which helper bar each hat type's stacks advance (Q9)
HELPER_GROUPS = {
    "article": (-1, VLADIMIR, ALEXEY, ALEXEY, VLADIMIR, ALEXEY, VLADIMIR),
    "tetriswiki": (-1, ALEXEY, ALEXEY, ALEXEY, VLADIMIR, VLADIMIR, VLADIMIR),
}


def nest_table(reading: str) -> tuple[tuple[int, ...], ...]:
    """T[lower][upper] under the configured reading of the ROM table (Q1)."""
    if reading == "base_offset":
        return NEST_ROM
    return tuple(tuple(NEST_ROM[u][lo] for u in range(7)) for lo in range(7))  # "transposed"


def allowed_types(level: int) -> tuple[int, ...]:
    """Hat types pickHats can return at a level (reference 2.4): restrictions only in shop 0."""
    shop, stage = divmod(level, STAGES_PER_SHOP)
    if shop != 0 or stage >= 6:
        return HAT_TYPES
    if stage >= 3:
        return (TOP, WIZARD, CAP, DERBY, COWBOY)
    if stage >= 1:
        return (TOP, CAP, DERBY, COWBOY)
    return (TOP, CAP, COWBOY)


def shop_of(level: int) -> int:
    """The shop digit, capped at 5 for endless levels past 59 (they keep shop-5 rules)."""
    return min(level // STAGES_PER_SHOP, 5)


def helper_cash(level: int) -> int:
    """Cash for one helper icon cashed in at the end of ``level`` (F17, Level = 10 x Shop + Stage)."""
    return 500 * (level + 1) + 500 * (shop_of(level) + 1)


def fall_speed(level: int, base: int, step: int) -> int:
    """Fall speed added to the 8-bit accumulator each frame (Q5)."""
    return min(255, base + step * level)
