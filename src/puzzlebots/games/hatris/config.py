"""Hatris configuration: every open question of reference section 4 as a key with its recommended default.

``docs/rules/hatris.md`` explains each key; :class:`Rules` is the validated, typed view the engine reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from puzzlebots.core.errors import ConfigError

from .rules import HELPER_GROUPS, LEVELS, nest_table

DEFAULT_CONFIG: dict[str, Any] = {
    "pair_source": "nes",  # nes | uniform
    "endless": True,  # levels keep going past 59 with shop-5 rules
    "start_level": 0,
    "max_spawns": 20000,
    "nesting_reading": "base_offset",  # Q1: base_offset | transposed
    "prng_rotate": "circular8",  # Q2: circular8 | carry_through
    "prng_retries_per_frame": 60,  # pickHats draws per frame before the NMI bumps the frame counter
    "fc0": "random",  # Q3: "random" (seeded 0-255) or a frame count 0-65535
    "top_px": 128,  # Q4
    "speed_base": 64,  # Q5: speed(L) = min(255, speed_base + speed_step * L)
    "speed_step": 3,
    "down": "hard_drop",  # Q6: hard_drop | gravity
    "frames_per_press": 1,  # Q7
    "frames_per_release": 1,
    "hatris_bonus": 0,  # Q8
    "helper_groups": "article",  # Q9: article | tetriswiki
    "block_rule": "base_vs_top",  # Q10
    "reach": "timeless",  # Q11
    "quota": 15,  # Q12
    "quota_first_level": "fixed",  # Q12: fixed | plus_stage
    "shop_start": "6xShop_equal",  # Q13: 6xShop_equal | empty
    "refill": "uniform_no5",  # Q14: uniform_no5 | uniform
    "m7": "signed",  # Q15: signed | abs
    "norm": "bounds",  # Q17
    "sort_dir": "desc_lr",  # Q18: desc_lr | asc_lr
    "alexey": "multi_pile",  # Q19: multi_pile | single_pile
    "pool_overflow": "discard",  # Q20
    "frames_vanish": 30,  # Q22
    "frames_helper": 60,
    "frames_helper_per_hat": 20,
    "frames_spawn": 0,
    "cash_in": False,  # Q23
    "min_run": 2,  # Q25: 2 | 3
}

CHOICES: dict[str, tuple[Any, ...]] = {
    "pair_source": ("nes", "uniform"),
    "nesting_reading": ("base_offset", "transposed"),
    "prng_rotate": ("circular8", "carry_through"),
    "down": ("hard_drop", "gravity"),
    "helper_groups": tuple(HELPER_GROUPS),
    "block_rule": ("base_vs_top",),
    "reach": ("timeless",),
    "quota_first_level": ("fixed", "plus_stage"),
    "shop_start": ("6xShop_equal", "empty"),
    "refill": ("uniform_no5", "uniform"),
    "m7": ("signed", "abs"),
    "norm": ("bounds",),
    "sort_dir": ("desc_lr", "asc_lr"),
    "alexey": ("multi_pile", "single_pile"),
    "pool_overflow": ("discard",),
    "min_run": (2, 3),
}

#: integer keys and their allowed (inclusive) ranges
INT_RANGES: dict[str, tuple[int, int]] = {
    "start_level": (0, LEVELS - 1),
    "max_spawns": (1, 10**7),
    "top_px": (24, 168),
    "prng_retries_per_frame": (1, 10000),
    "speed_base": (1, 255),
    "speed_step": (0, 255),
    "frames_per_press": (0, 60),
    "frames_per_release": (0, 60),
    "hatris_bonus": (0, 10**6),
    "quota": (1, 1000),
    "frames_vanish": (0, 600),
    "frames_helper": (0, 600),
    "frames_helper_per_hat": (0, 600),
    "frames_spawn": (0, 600),
}


def validate(config: Mapping[str, Any]) -> None:
    """Raise ``ConfigError`` (one line) for any value outside its documented domain."""
    for key, choices in CHOICES.items():
        if config[key] not in choices:
            raise ConfigError(f"hatris: {key} must be one of {', '.join(map(str, choices))}, got {config[key]!r}")
    for key, (lo, hi) in INT_RANGES.items():
        value = config[key]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ConfigError(f"hatris: {key} must be an integer in {lo}..{hi}, got {value!r}")
    for key in ("endless", "cash_in"):
        if not isinstance(config[key], bool):
            raise ConfigError(f"hatris: {key} must be true or false, got {config[key]!r}")
    fc0 = config["fc0"]
    if fc0 != "random" and (isinstance(fc0, bool) or not isinstance(fc0, int) or not 0 <= fc0 <= 0xFFFF):
        raise ConfigError(f"hatris: fc0 must be 'random' or a frame count 0..65535, got {fc0!r}")


class Rules:
    """The validated configuration in the shape the engine and the searcher read (shared, never mutated)."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        merged = dict(DEFAULT_CONFIG)
        merged.update(config)
        validate(merged)
        self.values = merged
        self.nest = nest_table(merged["nesting_reading"])
        self.groups = HELPER_GROUPS[merged["helper_groups"]]
        self.top_px: int = merged["top_px"]
        self.endless: bool = merged["endless"]
        self.start_level: int = merged["start_level"]
        self.max_spawns: int = merged["max_spawns"]
        self.press_frames: int = merged["frames_per_press"] + merged["frames_per_release"]

    def __getitem__(self, key: str) -> Any:
        return self.values[key]
