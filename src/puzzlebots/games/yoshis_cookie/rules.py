"""Yoshi's Cookie (NES, 1P) constants and the documented assumptions' defaults (docs/rules/yoshis_cookie.md).

Pure data: cell codes, move letters, the per-stage tables and every configuration key with its default.
"""

from __future__ import annotations

from typing import Any

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


def default_config() -> dict[str, Any]:
    """Every configuration key and its default; each is one named assumption of docs/rules/yoshis_cookie.md."""
    return {
        # run shape
        "mode": "normal",  # normal: rounds 1-10; expert: rounds 11+; full: 1 through 99
        "start_round": 0,  # 0: the mode's first round (1, or 11 in expert mode)
        "max_stages": 0,  # 0: play the mode to its end
        "max_continues": 100,  # a stage continued this many times ends the run (stuck)
        "speed": "medium",  # menu speed setting (F15)
        # Q1, Q2: board sizes and cookie types
        "size": 0,  # 0: the start_size table; 2..7: this size for every stage
        "start_size": [3, 3, 3, 4, 4, 4, 5, 5, 5, 6],
        "types_per_round": [3, 4, 5, 5, 5, 5, 5, 5, 5, 5],
        "expert_types": 5,
        # Q3, Q4: boards
        "board_file": "",
        "gen": "balanced",
        # Q5, Q6, Q7, Q23: incoming lines
        "incoming": "L_unit",
        "speed_px_per_frame": {"low": 0.25, "medium": 0.5, "high": 1.0},
        "b_speed": 4.0,
        "start_delay": 120,
        "incoming_dist": "uniform",
        # Q8, Q9: Yoshi cookies
        "yoshi_delivery": "next_incoming",
        "meter_target": 5,
        # Q10: scoring
        "score_cookie": 10,
        "score_yoshi": 100,
        # Q11, Q12: clearing
        "min_line": 2,
        "clear_incoming_aligned": True,
        # Q13-Q16: frames and the cursor
        "frames_cursor": 2,
        "frames_button": 1,
        "frames_rotate": 8,
        "frames_clear": 30,
        "frames_contact": 8,
        "cursor_follows": True,
        # Q18, Q19: the bot's nearest rule and use of Yoshi cookies as fill
        "yoshi_fill": "last_resort",
        # Q21: the Shell (rounds 11+)
        "shell_pos": "random",
    }


def stage_size(config: dict[str, Any], stage: int) -> int:
    """Q1: the square starting size of stage 1..10 (the same in every round)."""
    if config["size"]:
        return int(config["size"])
    return int(config["start_size"][stage - 1])


def stage_types(config: dict[str, Any], round_: int) -> int:
    """Q2/Q24: how many normal types are in play in a round."""
    if round_ > LAST_NORMAL_ROUND:
        return int(config["expert_types"])
    return int(config["types_per_round"][round_ - 1])
