"""Hatris configuration: every open question of reference section 4 as a key with its recommended default.

``docs/rules/hatris.md`` explains each key; :class:`HatrisConfig` declares them (``core.config``) and
:class:`Rules` is the typed view of a checked config that the engine reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import click

from puzzlebots.core.config import Schema, is_int, setting

from .rules import HELPER_GROUPS, LEVELS, nest_table

_FRAMES = (0, 600)


def _non_negative(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v < float("inf")


@dataclass(frozen=True)
class HatrisConfig(Schema):
    """One field per key; web pages set only the first four (run shape, not rules), the CLI those and
    ``hoard_stage`` (10 turns the expectimax bot's hoarding off)."""

    #: the short names replays and checkpoints written before the keys were named in words still use
    renamed: ClassVar[Mapping[str, str]] = {"fc0": "first_frame_counter", "m7": "metric7_formula"}

    pair_source: str = setting(
        "nes",
        "pair source: the NES PRNG with its re-pick rule, or uniform random pairs",
        choices=("nes", "uniform"),
        flag="--pairs",
        web=True,
    )
    endless: bool = setting(
        True,
        "keep playing past level 59 with shop-5 rules (survival statistics)",
        flag="--endless/--no-endless",
        web=True,
    )
    start_level: int = setting(
        0,
        "level to start on (0-59)",
        range=(0, LEVELS - 1),
        flag="--start-level",
        cli_type=click.IntRange(0, LEVELS - 1),
        web=True,
    )
    max_spawns: int = setting(
        20000,
        "stop a game after this many spawns",
        range=(1, 10**7),
        flag="--max-spawns",
        cli_type=click.IntRange(1),
        web=True,
        web_max=100_000,
    )
    nesting_reading: str = setting(
        "base_offset",
        "Q1: how the ROM nesting table is read (offset of the upper hat's base, or transposed)",
        choices=("base_offset", "transposed"),
    )
    prng_rotate: str = setting(
        "circular8",
        "Q2: the PRNG's rotations of h1/h2: circular 8-bit shifts or through the 6502 carry",
        choices=("circular8", "carry_through"),
    )
    prng_retries_per_frame: int = setting(
        60, "pickHats draws per frame before the NMI bumps the frame counter", range=(1, 10000)
    )
    first_frame_counter: Any = setting(
        "random",
        "Q3: frame counter at the first pick: 'random' (seeded 0-255) or a frame count",
        valid=lambda v: v == "random" or (is_int(v) and 0 <= v <= 0xFFFF),
        what="'random' or a frame count in 0..65535",
    )
    top_px: int = setting(128, "Q4: game over when a landed hat's top exceeds this height (px)", range=(24, 168))
    speed_base: int = setting(64, "Q5: fall speed(L) = min(255, speed_base + speed_step * L)", range=(1, 255))
    speed_step: int = setting(3, "Q5: fall speed added per level", range=(0, 255))
    down: str = setting(
        "hard_drop",
        "Q6: Down is a hard drop, or not pressed (the hat falls at the level speed)",
        choices=("hard_drop", "gravity"),
    )
    frames_per_press: int = setting(1, "Q7: frames a button is held per press", range=(0, 60))
    frames_per_release: int = setting(1, "Q7: frames between presses", range=(0, 60))
    hatris_bonus: int = setting(0, "Q8: cash for a double stack", range=(0, 10**6))
    helper_groups: str = setting("article", "Q9: which hat types fill which helper's bar", choices=tuple(HELPER_GROUPS))
    block_rule: str = setting(
        "base_vs_top", "Q10: a hat at base y may cross pile k iff pile k <= y", choices=("base_vs_top",)
    )
    reach: str = setting("timeless", "Q11: the placements offered for a pair", choices=("timeless",))
    quota: int = setting(15, "Q12: stacks per stage", range=(1, 1000))
    quota_first_level: str = setting(
        "fixed", "Q12: the first level's quota is the quota, or quota + stage", choices=("fixed", "plus_stage")
    )
    shop_start: str = setting(
        "6xShop_equal", "Q13: the field when starting in a later shop", choices=("6xShop_equal", "empty")
    )
    refill: str = setting(
        "uniform_no5",
        "Q14: refill hat types, re-drawn when one would complete a 5-run (or not)",
        choices=("uniform_no5", "uniform"),
    )
    metric7_formula: str = setting(
        "signed",
        "Q15: metric 7 as a signed sum or of absolute differences",
        choices=("signed", "abs"),
        bots=("searcher", "expectimax"),
    )
    norm: str = setting("bounds", "Q17: metric normalisation", choices=("bounds",))
    sort_dir: str = setting(
        "desc_lr",
        "Q18: the sorted order metric 6 measures against",
        choices=("desc_lr", "asc_lr"),
        bots=("searcher", "expectimax"),
    )
    alexey: str = setting(
        "multi_pile",
        "Q19: Alexey removes bottom hats from any piles, or from one",
        choices=("multi_pile", "single_pile"),
    )
    pool_overflow: str = setting("discard", "Q20: a helper earned with a full pool", choices=("discard",))
    frames_vanish: int = setting(30, "Q22: animation frames per vanished stack", range=_FRAMES)
    frames_helper: int = setting(60, "Q22: animation frames per helper use", range=_FRAMES)
    frames_helper_per_hat: int = setting(20, "Q22: extra frames per hat a helper moves", range=_FRAMES)
    frames_spawn: int = setting(0, "Q22: frames at each spawn", range=_FRAMES)
    cash_in: bool = setting(False, "Q23: cash the helper pool at each level end")
    min_run: int = setting(
        2, "Q25: the shortest run metrics 3-4 count", choices=(2, 3), bots=("searcher", "expectimax")
    )
    hoard_stage: int = setting(
        8,
        "expectimax: from this stage digit on, keep helpers for the coming shop refill (10: never)",
        range=(0, 10),
        flag="--hoard-stage",
        cli_type=click.IntRange(0, 10),
        bots=("expectimax",),
    )
    hoard_value: float = setting(
        1.0,
        "expectimax: the evaluation's value of each helper kept while hoarding",
        valid=_non_negative,
        what="a number >= 0",
        bots=("expectimax",),
    )
    hoard_below_px: int = setting(
        64, "expectimax: hoard only while every pile is lower than this (px)", range=(0, 168), bots=("expectimax",)
    )


@dataclass(frozen=True, init=False)
class Rules(HatrisConfig):
    """A checked configuration (``GAME.check_config``) as the engine and the searcher read it: the keys as
    attributes, and the tables derived from them (shared, never mutated). Built from a mapping, it does not check
    again; keys left out (tests, benchmarks) take their defaults."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__(**config)

    @cached_property
    def nest(self) -> tuple[tuple[int, ...], ...]:
        """The nesting table of ``nesting_reading`` (``rules.nest_table``)."""
        return nest_table(self.nesting_reading)

    @cached_property
    def groups(self) -> tuple[int, ...]:
        """The hat types of each helper's bar under ``helper_groups``."""
        return HELPER_GROUPS[self.helper_groups]

    @cached_property
    def press_frames(self) -> int:
        """Frames one button press takes, held and released."""
        return self.frames_per_press + self.frames_per_release
