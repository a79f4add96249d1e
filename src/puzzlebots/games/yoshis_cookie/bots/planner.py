"""``planner``: ours, the article's builder for the moves but lines chosen two ahead (``kernels.planner``), and
when the falling lines leave little time, its best few plans played out on the clock (``rollout``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

import numpy as np

from ..engine import YoshiState
from ..kernels.builder import MAX_MOVES
from ..kernels.planner import planner_best, planner_ranked
from ..rules import AREA, UNITS_PER_CELL
from . import PLANNER_WEIGHTS
from .lines import Line, LineBot, moves_to_plan, shell_pairing_plan, state_at
from .rollout import sample_copy, sample_score

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


@dataclass(frozen=True)
class LookAhead:
    """How far the planner looks against the falling lines (``rollout``): the kernel's ``candidates`` best
    plans, ``samples`` sampled futures each, up to ``horizon`` frames or ``decisions`` decisions, used when
    the larger side of the matrix can absorb less than ``margin`` frames of falling before it reaches 7 (at
    high speed a cell falls in 16 frames: the default means 4 rows or columns and more; at medium, 6 and 7).
    ``candidates`` 1 turns it off. Tuned on seeds 0-29 at high speed."""

    candidates: int = 10
    samples: int = 3
    horizon: int = 360
    decisions: int = 16
    margin: int = 64


def _sample_seed(state: YoshiState, m: int) -> int:
    """A sample's generator seed: fixed by the run's seed and clock, so runs replay exactly."""
    return (state.seed * 1_000_003 + state.frame) * 16 + m


class PlannerBot(LineBot):
    """Ours: the article's builder for moves, but lines chosen two ahead by cookies removed per step,
    no hard balance rule, a penalty for ending one size from 8, Shell removal valued and Yoshi cookies spared,
    back-and-forth cursor moves dropped from the plan, and a look-ahead in real time when the clock is tight."""

    name = "planner"

    def __init__(self, config: Mapping[str, Any], weights: Sequence[float], look: LookAhead | None = None) -> None:
        super().__init__(config, yoshi_last=True)  # its builder always fetches Yoshi cookies last
        self.look = look if look is not None else LookAhead()
        total = sum(abs(float(w)) for w in weights) or 1.0
        scale = WEIGHT_SCALE / total
        #: the weights rescaled, in ``PLANNER_WEIGHTS`` order (``kernels.planner.EMPTY_BONUS``, ...)
        self.weights = np.array([abs(float(w)) * scale for w in weights], dtype=np.float64)

    def _choose(self, state: YoshiState) -> str:
        if self.look.candidates > 1 and self.tight(state):
            return self._look_ahead(state)
        return self._quick(state)

    def _quick(self, state: YoshiState) -> str:
        """The kernel's best plan (also the policy the look-ahead plays after a candidate)."""
        choice = planner_best(state.raw_grid, state_at(state), self.rules, self.weights, self.out)
        return cancel_cursor_moves(self._plan(*choice))

    def _policy(self, state: YoshiState) -> str:
        shell = shell_pairing_plan(state)
        return shell if shell is not None else self._quick(state)

    def tight(self, state: YoshiState) -> bool:
        """Whether the falling lines leave too little time to trust the kernel's choice alone: the larger side
        is fewer than ``margin`` frames of falling from 7, one contact from game over."""
        cell_frames = UNITS_PER_CELL // state.fall_units
        return (AREA - 1 - max(state.R, state.C)) * cell_frames < self.look.margin

    def _look_ahead(self, state: YoshiState) -> str:
        """The kernel's best few plans, each played out on sampled copies of the run; the best mean wins,
        ties to the kernel's order."""
        look = self.look
        outs = np.zeros((look.candidates, MAX_MOVES), dtype=np.int8)
        lines = np.zeros((look.candidates, 4), dtype=np.int64)
        n = planner_ranked(state.raw_grid, state_at(state), self.rules, self.weights, outs, lines)
        if n <= 1:
            return self._quick(state)
        best, best_score = 0, -np.inf
        for k in range(n):
            plan = cancel_cursor_moves(moves_to_plan(outs[k], int(lines[k, 0])))
            total = 0.0
            for m in range(look.samples):
                copy = sample_copy(state, _sample_seed(state, m))
                total += sample_score(copy, plan, self._policy, look.horizon, look.decisions)
            if total > best_score:
                best, best_score = k, total
        _, kind, idx, t = (int(v) for v in lines[best])
        self._target = Line(kind, idx, t)
        return cancel_cursor_moves(moves_to_plan(outs[best], int(lines[best, 0])))


def default_planner_weights() -> list[float]:
    """The shipped planner weights (package data ``data/planner_weights.json``)."""
    text = resources.files("puzzlebots.games.yoshis_cookie").joinpath("data", "planner_weights.json").read_text()
    data = json.loads(text)
    return [float(data[name]) for name in PLANNER_WEIGHTS]
