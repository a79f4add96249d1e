"""Yoshi's Cookie configuration: every documented assumption of docs/rules/yoshis_cookie.md as a key.

:class:`YoshiConfig` declares each key with its default and domain (``core.config``); the CLI and web pages set
only the run shape (speed, mode, rounds, stages, size).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from puzzlebots.core.config import Invalid, Schema, is_int, setting

from .rules import LAST_NORMAL_ROUND, LAST_ROUND, MODES, SPEEDS, STAGES_PER_ROUND, UNITS_PER_PX

_FRAMES = (0, 1000)
_SCORE = (0, 10**6)


def _speed(v: Any) -> bool:
    """A positive whole number of quarter pixels per frame (the engine counts in quarter pixels)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and v > 0 and not (v * UNITS_PER_PX) % 1


def _ten(lo: int, hi: int) -> Callable[[Any], bool]:
    """Ten integers in lo..hi (one per stage or per round)."""
    return lambda v: isinstance(v, list) and len(v) == 10 and all(is_int(x) and lo <= x <= hi for x in v)


@dataclass(frozen=True)
class YoshiConfig(Schema):
    """One field per key (docs/rules/yoshis_cookie.md gives the why of each default)."""

    # run shape
    speed: str = setting("medium", "menu speed setting", choices=SPEEDS, flag="--speed", web=True)
    mode: str = setting(
        "normal", "normal: rounds 1-10; expert: rounds 11+; full: 1 to 99", choices=MODES, flag="--mode", web=True
    )
    max_stages: int = setting(
        0,
        "stop after this many stages (0: whole mode)",
        range=(0, 10**6),
        flag="--max-stages",
        web=True,
        web_max=LAST_ROUND * STAGES_PER_ROUND,
    )
    start_round: int = setting(
        0, "first round (0: the mode's first)", range=(0, LAST_ROUND), flag="--start-round", web=True
    )
    max_continues: int = setting(100, "a stage continued this many times ends the run (stuck)", range=(1, 10**6))
    # Q1, Q2: board sizes and cookie types
    size: int = setting(
        0,
        "starting matrix size for every stage, 2-7 (0: per stage)",
        valid=lambda v: is_int(v) and (v == 0 or 2 <= v <= 7),
        what="2-7 (or 0 for the per-stage table)",
        flag="--size",
        web=True,
    )
    start_size: list[int] = setting(
        [3, 3, 3, 4, 4, 4, 5, 5, 5, 6],
        "starting size of stages 1-10 when size is 0",
        valid=_ten(2, 7),
        what="10 sizes in 2-7 (stages 1-10)",
    )
    types_per_round: list[int] = setting(
        [3, 4, 5, 5, 5, 5, 5, 5, 5, 5],
        "normal cookie types in play in rounds 1-10",
        valid=_ten(2, 5),
        what="10 counts in 2-5 (rounds 1-10)",
    )
    expert_types: int = setting(5, "normal cookie types in play in rounds 11+", range=(2, 5))
    # Q3, Q4: boards
    board_file: str = setting(
        "",
        "JSON file of fixed boards by 'ROUND-STAGE' (empty: none)",
        what="a path (or empty)",
        flag="--board-file",
        file=True,
    )
    gen: str = setting(
        "balanced", "board generation: balanced type counts, or independent cells", choices=("balanced", "uniform")
    )
    # Q5, Q6, Q7, Q23: incoming lines
    incoming: str = setting("L_unit", "geometry of the incoming cookies", choices=("L_unit",))
    speed_px_per_frame: dict[str, float] = setting(
        {"low": 0.25, "medium": 0.5, "high": 1.0},
        "fall speed of incoming cookies per speed setting",
        valid=lambda v: isinstance(v, dict) and v.keys() == set(SPEEDS) and all(map(_speed, v.values())),
        what=f"a map of {', '.join(SPEEDS)} to positive multiples of 0.25 px/frame",
    )
    b_speed: float = setting(4.0, "fall speed with B held", valid=_speed, what="a positive multiple of 0.25 px/frame")
    start_delay: int = setting(120, "frames before the first incoming unit moves", range=(0, 10**5))
    incoming_dist: str = setting("uniform", "contents of incoming cells", choices=("uniform",))
    # Q8, Q9: Yoshi cookies
    yoshi_delivery: str = setting(
        "next_incoming", "an earned Yoshi cookie comes in the next unit, or never", choices=("next_incoming", "none")
    )
    meter_target: int = setting(5, "lines of one type that earn a Yoshi cookie", range=(1, 100))
    # Q10: scoring
    score_cookie: int = setting(10, "points per cookie removed (times lines and chain step)", range=_SCORE)
    score_yoshi: int = setting(100, "points per Yoshi cookie removed", range=_SCORE)
    # Q11, Q12: clearing
    min_line: int = setting(2, "the shortest line that clears", range=(2, 7))
    clear_incoming_aligned: bool = setting(True, "incoming cells aligned with a cleared line go with it")
    # Q13-Q16: frames and the cursor
    frames_cursor: int = setting(2, "frames per cursor move", range=(1, 1000))
    frames_button: int = setting(1, "frames per A press or release", range=_FRAMES)
    frames_rotate: int = setting(8, "frames per one-cell shift", range=_FRAMES)
    frames_clear: int = setting(30, "frames per chain step's clear animation", range=_FRAMES)
    frames_contact: int = setting(8, "frames per contact animation", range=_FRAMES)
    cursor_follows: bool = setting(True, "the cursor follows the rotated cookie")
    # Q18, Q19: the bot's use of Yoshi cookies as fill
    yoshi_fill: str = setting(
        "last_resort",
        "the bot fetches a Yoshi cookie as fill only as a last resort, or whenever nearer",
        choices=("last_resort", "any"),
    )
    # Q21: the Shell (rounds 11+)
    shell_pos: str = setting("random", "the Shell's start cell", choices=("random", "first"))

    @classmethod
    def cross_check(cls, config: Mapping[str, Any]) -> None:
        """start_round must lie in the mode's rounds."""
        start = config["start_round"]
        if config["mode"] == "normal" and start > LAST_NORMAL_ROUND:
            raise Invalid("start_round", f"0 or 1..{LAST_NORMAL_ROUND} in normal mode")
        if config["mode"] == "expert" and 0 < start <= LAST_NORMAL_ROUND:
            raise Invalid("start_round", f"0 or {LAST_NORMAL_ROUND + 1}..{LAST_ROUND} in expert mode")
