"""Lights Out configuration: each key once, with its default, help, domain, flag and web bound."""

from __future__ import annotations

from dataclasses import dataclass

from puzzlebots.core.config import Schema, setting


@dataclass(frozen=True)  # required: without it the settings below are not fields (an error at import)
class LightsOutConfig(Schema):
    """The board's size, how scrambled it starts, and how many presses a game may take."""

    size: int = setting(5, "board side in lights", range=(3, 9), flag="--size", web=True, web_max=7)
    scramble: int = setting(
        15,
        "random presses that make the starting board (so it is always solvable)",
        range=(1, 200),
        flag="--scramble",
        web=True,
    )
    max_presses: int = setting(
        100, "a game ends unsolved after this many presses", range=(1, 10_000), flag="--max-presses"
    )
