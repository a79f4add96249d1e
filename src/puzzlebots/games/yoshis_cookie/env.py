"""Yoshi's Cookie as arrays, at line level: each action names a line to build, as the article's bot decides.

Actions: for each row then each column ``idx`` (0-7) and each cookie type ``t`` (1-5), "build that line of
that type" (80 numbers, in the order ``(kind, idx, t)``), then ``hold B`` (let the incoming unit land), then
``shells`` (line up the incoming Yoshis with the matrix's shell). A line is legal when the game's own greedy
line builder (``bots.lines.LineBuilder``, the one the ``greedy`` bot simulates) can complete it now; the
action plays the plan that builder returns. The engine stops a plan when the matrix changes size.

Observation: the matrix in an 8 x 8 frame, its size, the cursor, the falling L-shaped unit's two arms and
the frames left before it touches the matrix.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from puzzlebots.core.arrays import draw_cells
from puzzlebots.core.protocols import Action, State

from .bots.lines import COL, ROW, Line, LineBuilder, shell_pairing_plan
from .engine import YoshiState
from .rules import AREA, HOLD_B, SHELL

TYPES = 5
LINES = tuple(Line(axis, idx, t) for axis in (ROW, COL) for idx in range(AREA) for t in range(1, TYPES + 1))
HOLD = len(LINES)
SHELLS = HOLD + 1
MAX_FRAMES = 10_000
OUTSIDE = SHELL + 1  # picture only: cells outside the matrix
CURSOR = SHELL + 2
PALETTE = np.array(
    [
        [40, 40, 50],  # empty
        [230, 70, 110],  # heart
        [240, 200, 50],  # flower
        [80, 170, 240],  # diamond
        [90, 190, 90],  # check
        [240, 140, 50],  # circle
        [120, 220, 120],  # yoshi
        [170, 120, 80],  # shell
        [235, 235, 230],  # outside the matrix
        [255, 255, 255],  # cursor marks
    ],
    dtype=np.uint8,
)


class YoshisCookieAdapter:
    """The ``puzzlebots/YoshisCookie-v0`` adapter (``core.protocols.EnvAdapter``)."""

    n_actions = len(LINES) + 2

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.builder = LineBuilder(config)
        self._plans: dict[int, str] = {}

    def legal_mask(self, state: State) -> np.ndarray:
        """Also remembers each legal action's plan, which ``index_action`` then plays."""
        mask = np.zeros(self.n_actions, dtype=np.int8)
        self._plans = {}
        if state.is_terminal():
            return mask
        assert isinstance(state, YoshiState)
        for index, line in enumerate(LINES):
            plan = self.builder.plan(state, line)
            if plan is not None:
                self._plans[index] = plan
        self._plans[HOLD] = HOLD_B
        shells = shell_pairing_plan(state)
        if shells is not None:
            self._plans[SHELLS] = shells
        mask[list(self._plans)] = 1
        return mask

    def action_index(self, action: Action) -> int:
        raise NotImplementedError("Yoshi's Cookie actions are numbered lines, not the engine's plans")

    def index_action(self, index: int, state: State) -> Action:
        return self._plans[index]

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "matrix": spaces.Box(0, SHELL, shape=(AREA, AREA), dtype=np.uint8),
                "size": spaces.Box(0, AREA, shape=(2,), dtype=np.uint8),
                "cursor": spaces.Box(0, AREA - 1, shape=(2,), dtype=np.uint8),
                "incoming_row": spaces.Box(0, SHELL, shape=(AREA,), dtype=np.uint8),
                "incoming_col": spaces.Box(0, SHELL, shape=(AREA,), dtype=np.uint8),
                "frames_to_contact": spaces.Box(0, MAX_FRAMES, shape=(1,), dtype=np.int32),
            }
        )

    def observe(self, state: State) -> dict[str, np.ndarray]:
        s: Any = state
        matrix = np.zeros((AREA, AREA), dtype=np.uint8)
        grid = np.asarray(s.grid)
        matrix[: grid.shape[0], : grid.shape[1]] = grid
        inc = s.incoming
        row = np.zeros(AREA, dtype=np.uint8)
        col = np.zeros(AREA, dtype=np.uint8)
        if inc.row_arm is not None:
            row[: len(inc.row_arm[:AREA])] = inc.row_arm[:AREA]
        if inc.col_arm is not None:
            col[: len(inc.col_arm[:AREA])] = inc.col_arm[:AREA]
        cursor = np.clip(np.array(s.cursor, dtype=np.int64), 0, AREA - 1).astype(np.uint8)
        frames = min(max(int(s.frames_to_contact()), 0), MAX_FRAMES)
        return {
            "matrix": matrix,
            "size": np.array([grid.shape[0], grid.shape[1]], dtype=np.uint8),
            "cursor": cursor,
            "incoming_row": row,
            "incoming_col": col,
            "frames_to_contact": np.array([frames], dtype=np.int32),
        }

    def draw(self, state: State) -> np.ndarray:
        """The matrix with the incoming row arm above it and column arm right of it; white cells below and
        right of the matrix point at the cursor's column and row."""
        obs = self.observe(state)
        rows, cols = (int(v) for v in obs["size"])
        picture = np.full((AREA + 2, AREA + 2), OUTSIDE, dtype=np.intp)
        picture[1 : 1 + rows, 0:cols] = obs["matrix"][:rows, :cols]
        picture[0, 0:AREA] = obs["incoming_row"]
        picture[1 : 1 + AREA, AREA + 1] = obs["incoming_col"]
        r, c = (int(v) for v in obs["cursor"])
        picture[AREA + 1, c] = CURSOR
        picture[1 + r, AREA] = CURSOR
        return draw_cells(picture, PALETTE)
