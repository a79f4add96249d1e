"""What both bots share: the line they build, the article's builder as "plan this line", the Shell rule,
and the decision frame of :class:`LineBot`.

A bot answers a plan string for the engine (see ``engine``): the cursor moves and rotations that build the
chosen line, or ``B`` (hold B) when nothing can be cleared. The engine stops a plan when the matrix changes
size, so ``act`` runs again on every clear and every contact, which is the article's replanning rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from puzzlebots.core.protocols import State

from ..engine import YoshiState
from ..kernels.builder import BUILT, MAX_MOVES, build_line
from ..kernels.matrix import signed_shift
from ..kernels.params import rule_numbers
from ..rules import AREA, HOLD_B, MOVE_LETTERS, SHELL, YOSHI

#: ``Line.axis`` values (the kernels' line kinds)
ROW, COL = 0, 1
AXES = ("row", "col")


class Line(NamedTuple):
    """A row or column of the matrix to fill with one cookie type."""

    axis: int  # ROW or COL
    number: int  # which row or column, from 0 (top, left)
    type: int  # a normal type (rules.NORMAL_TYPES)


def state_at(state: YoshiState) -> tuple[int, int, int, int]:
    """The kernels' ``at``: (R, C, cursor row, cursor column)."""
    return state.R, state.C, state.cr, state.cc


def moves_to_plan(codes: np.ndarray, n: int) -> str:
    """The plan string of the first ``n`` kernel move codes."""
    return "".join(MOVE_LETTERS[c] for c in codes[:n])


class LineBuilder:
    """The article's greedy line builder (the one the ``greedy`` bot simulates on every line), for one config."""

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.rules = rule_numbers(config)
        self._moves = np.zeros(MAX_MOVES, dtype=np.int8)
        self._work = np.zeros((AREA, AREA), dtype=np.int8)

    def plan(self, state: YoshiState, line: Line) -> str | None:
        """The plan that builds ``line`` now, or None when it is outside the matrix or cannot be completed."""
        if line.number >= (state.R if line.axis == ROW else state.C):
            return None
        _, _, nm, status, _ = build_line(
            state.raw_grid, state_at(state), (line.axis, line.number, line.type), self.rules, self._moves, self._work
        )
        if status != BUILT or nm == 0:
            return None
        return moves_to_plan(self._moves, nm)


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
        shifts = [int(signed_shift(s, j, C)) for j, v in enumerate(inc.row_arm) if v == YOSHI]
        k = min(shifts, key=abs)
        return ("r" if k > 0 else "l") * abs(k) + HOLD_B
    if C == 1 and inc.col_arm is not None and YOSHI in inc.col_arm:
        s = int(np.flatnonzero(grid[:, 0] == SHELL)[0])
        shifts = [int(signed_shift(s, i, R)) for i, v in enumerate(inc.col_arm) if v == YOSHI]
        k = min(shifts, key=abs)
        return ("d" if k > 0 else "u") * abs(k) + HOLD_B
    return None


class LineBot:
    """A bot that builds lines: the Shell rule first, else the subclass's ``_choose`` (a kernel's choice)."""

    name = ""

    def __init__(self, config: Mapping[str, Any], *, yoshi_last: bool | None = None) -> None:
        """``yoshi_last`` overrides the config's ``yoshi_fill`` for the builder (``kernels.params``)."""
        self.rules = rule_numbers(config, yoshi_last=yoshi_last)
        self.out = np.zeros(MAX_MOVES, dtype=np.int8)
        self._target: Line | None = None

    def act(self, state: State) -> str:
        """The plan for this decision: the Shell rule's when it applies, else the chosen line's (or hold B)."""
        assert isinstance(state, YoshiState)
        shell = shell_pairing_plan(state)
        if shell is not None:
            self._target = None
            return shell
        return self._choose(state)

    def building(self) -> Line | None:
        """The line chosen at the last decision, for views; None when the bot held B or paired the Shell."""
        return self._target

    def _choose(self, state: YoshiState) -> str:
        raise NotImplementedError

    def _plan(self, nm: int, kind: int, idx: int, t: int) -> str:
        """The plan of a kernel's choice (moves in ``self.out``; kind -1: nothing buildable, hold B)."""
        if kind < 0:
            self._target = None
            return HOLD_B
        self._target = Line(int(kind), int(idx), int(t))
        return moves_to_plan(self.out, nm)
