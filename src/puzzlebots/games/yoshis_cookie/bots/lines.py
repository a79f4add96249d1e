"""The bots: ``greedy`` (the article's line builder, exactly) and ``planner`` (two lines ahead).

Both answer a plan string for the engine (see ``engine``): the cursor moves and rotations that build the
chosen line, or ``B`` (hold B) when nothing can be cleared. The engine stops a plan when the matrix changes
size, so ``act`` runs again on every clear and every contact, which is the article's replanning rule.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import numpy as np

from puzzlebots.core.protocols import State

from ..engine import YoshiState
from ..kernels import builder
from ..kernels import matrix as K
from ..kernels.params import rule_numbers
from ..kernels.planner import planner_best
from ..rules import HOLD_B, MOVE_LETTERS, SHELL, YOSHI

PLANNER_WEIGHTS = ("empty_bonus", "fixed_steps", "danger")
#: planner weights are relative (the trainer normalises them to sum 100): they are rescaled to this sum,
#: which is the sum of the shipped ones, so the shipped file reads in the units of the value formula
WEIGHT_SCALE = 32.5


def state_at(state: YoshiState) -> tuple[int, int, int, int]:
    """The kernels' ``at``: (R, C, cursor row, cursor column)."""
    return state.R, state.C, state.cr, state.cc


def moves_to_plan(codes: np.ndarray, n: int) -> str:
    return "".join(MOVE_LETTERS[c] for c in codes[:n])


def cancel_cursor_moves(plan: str) -> str:
    """Drop back-and-forth cursor moves (``RL``, ``UD``...): the matrix and the final cursor are the same."""
    out: list[str] = []
    for ch in plan:
        if out and {out[-1], ch} in ({"L", "R"}, {"U", "D"}):
            out.pop()
        else:
            out.append(ch)
    return "".join(out)


def shell_pairing_plan(state: YoshiState) -> str | None:
    """Article: with a single row (column) holding the Shell left, rotate it under a falling Yoshi cookie.

    Returns the rotation followed by ``B``, or None when the rule does not apply.
    """
    R, C = state.R, state.C
    if R != 1 and C != 1:
        return None
    grid = state.grid
    if SHELL not in grid:
        return None
    inc = state.incoming
    if R == 1 and inc.row_arm is not None and YOSHI in inc.row_arm:
        s = int(np.flatnonzero(grid[0] == SHELL)[0])
        shifts = [int(K.signed_shift(s, j, C)) for j, v in enumerate(inc.row_arm) if v == YOSHI]
        k = min(shifts, key=abs)
        return ("r" if k > 0 else "l") * abs(k) + HOLD_B
    if C == 1 and inc.col_arm is not None and YOSHI in inc.col_arm:
        s = int(np.flatnonzero(grid[:, 0] == SHELL)[0])
        shifts = [int(K.signed_shift(s, i, R)) for i, v in enumerate(inc.col_arm) if v == YOSHI]
        k = min(shifts, key=abs)
        return ("d" if k > 0 else "u") * abs(k) + HOLD_B
    return None


class GreedyBot:
    """The article's bot: simulate every buildable row and column of every type with the greedy builder,
    keep the most points then the fewest steps (balance rule on), hold B when nothing can be cleared."""

    name = "greedy"

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.rules = rule_numbers(config)
        self.out = np.zeros(builder.MAX_MOVES, dtype=np.int8)
        #: the line chosen at the last decision, (kind "row"/"col", index, type), for overlays
        self.target: tuple[str, int, int] | None = None

    def act(self, state: State) -> str:
        assert isinstance(state, YoshiState)
        shell = shell_pairing_plan(state)
        if shell is not None:
            self.target = None
            return shell
        return self._choose(state)

    def _choose(self, state: YoshiState) -> str:
        """The plan for the best line (or hold B), once the Shell rule has not applied."""
        nm, kind, idx, t = builder.greedy_best(state.raw_grid, state_at(state), self.rules, self.out)
        return self._plan(nm, kind, idx, t)

    def _plan(self, nm: int, kind: int, idx: int, t: int) -> str:
        if kind < 0:
            self.target = None
            return HOLD_B
        self.target = ("row" if kind == 0 else "col", int(idx), int(t))
        return moves_to_plan(self.out, nm)


class PlannerBot(GreedyBot):
    """Ours: the article's builder for moves, but lines chosen two ahead by cookies removed per step,
    no hard balance rule, a penalty for ending one size from 8, Shell removal valued and Yoshi cookies spared,
    and back-and-forth cursor moves dropped from the plan."""

    name = "planner"

    def __init__(self, config: Mapping[str, Any], weights: Sequence[float]) -> None:
        super().__init__(config)
        self.rules = rule_numbers(config, yoshi_last=True)
        total = sum(abs(float(w)) for w in weights) or 1.0
        scale = WEIGHT_SCALE / total
        #: (empty_bonus, fixed_steps, danger) rescaled, indexed by ``kernels.planner.EMPTY_BONUS``...
        self.weights = np.array([abs(float(w)) * scale for w in weights], dtype=np.float64)

    def _choose(self, state: YoshiState) -> str:
        nm, kind, idx, t = planner_best(state.raw_grid, state_at(state), self.rules, self.weights, self.out)
        return cancel_cursor_moves(self._plan(nm, kind, idx, t))


def default_planner_weights() -> list[float]:
    """The shipped planner weights (package data ``data/planner_weights.json``)."""
    text = resources.files("puzzlebots.games.yoshis_cookie").joinpath("data", "planner_weights.json").read_text()
    data = json.loads(text)
    return [float(data[name]) for name in PLANNER_WEIGHTS]
