"""``planner``: ours, the article's builder for the moves but lines chosen two ahead (``kernels.planner``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import numpy as np

from ..engine import YoshiState
from ..kernels.planner import planner_best
from .lines import LineBot, state_at

PLANNER_WEIGHTS = ("empty_bonus", "fixed_steps", "danger")
#: planner weights are relative (the trainer normalises them to sum 100): they are rescaled to this sum,
#: which is the sum of the shipped ones, so the shipped file reads in the units of the value formula
WEIGHT_SCALE = 32.5


def cancel_cursor_moves(plan: str) -> str:
    """Drop back-and-forth cursor moves (``RL``, ``UD``...): the matrix and the final cursor are the same."""
    out: list[str] = []
    for ch in plan:
        if out and {out[-1], ch} in ({"L", "R"}, {"U", "D"}):
            out.pop()
        else:
            out.append(ch)
    return "".join(out)


class PlannerBot(LineBot):
    """Ours: the article's builder for moves, but lines chosen two ahead by cookies removed per step,
    no hard balance rule, a penalty for ending one size from 8, Shell removal valued and Yoshi cookies spared,
    and back-and-forth cursor moves dropped from the plan."""

    name = "planner"

    def __init__(self, config: Mapping[str, Any], weights: Sequence[float]) -> None:
        super().__init__(config, yoshi_last=True)  # its builder always fetches Yoshi cookies last
        total = sum(abs(float(w)) for w in weights) or 1.0
        scale = WEIGHT_SCALE / total
        #: the weights rescaled, in ``PLANNER_WEIGHTS`` order (``kernels.planner.EMPTY_BONUS``, ...)
        self.weights = np.array([abs(float(w)) * scale for w in weights], dtype=np.float64)

    def _choose(self, state: YoshiState) -> str:
        choice = planner_best(state.raw_grid, state_at(state), self.rules, self.weights, self.out)
        return cancel_cursor_moves(self._plan(*choice))


def default_planner_weights() -> list[float]:
    """The shipped planner weights (package data ``data/planner_weights.json``)."""
    text = resources.files("puzzlebots.games.yoshis_cookie").joinpath("data", "planner_weights.json").read_text()
    data = json.loads(text)
    return [float(data[name]) for name in PLANNER_WEIGHTS]
