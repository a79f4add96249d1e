"""Shared fixtures of the Yoshi's Cookie tests: static states (the readable references are in ``oracle``)."""

from __future__ import annotations

from typing import Any

from puzzlebots.games.yoshis_cookie.engine import YoshiState
from puzzlebots.games.yoshis_cookie.game import GAME
from puzzlebots.games.yoshis_cookie.rules import SHELL, YOSHI

__all__ = ["SHELL", "STILL", "YOSHI", "state_with"]

#: nothing falls while a test plays its plans
STILL = {"start_delay": 100_000}


def state_with(
    rows: list[str], cursor: tuple[int, int] = (0, 0), delay: int | None = None, **config: Any
) -> YoshiState:
    cfg = GAME.check_config({**STILL, **config})
    state = YoshiState(cfg, seed=0)
    state.set_matrix(rows, cursor, delay)
    return state
