"""Yoshi's Cookie as arrays: the matrix in an 8 x 8 frame, its size, the cursor, the falling L-shaped unit
and the frames left before it touches the matrix.

The engine's decisions are plans made of primitives (``games.yoshis_cookie.engine.PRIMITIVES``: cursor
moves ``U D L R``, rotations ``u d l r``, ``B`` to hold the fall button until the matrix changes size);
the env's actions are those primitives, numbered in that order, each played as a one-letter plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from ..core.protocols import Action, State
from ..games.yoshis_cookie.engine import PRIMITIVES
from ..games.yoshis_cookie.rules import AREA, SHELL
from .base import EnvAdapter, PuzzleEnv, draw_cells

INDEX = {plan: i for i, plan in enumerate(PRIMITIVES)}
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


class YoshisCookieAdapter(EnvAdapter):
    game_name = "yoshis_cookie"
    n_actions = len(PRIMITIVES)

    def action_index(self, action: Action) -> int:
        return INDEX[str(action)]

    def index_action(self, index: int, state: State) -> Action:
        return PRIMITIVES[index]

    def observation_space(self, config: Mapping[str, Any]) -> spaces.Dict:
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
        """The matrix with the incoming row above it and column right of it; the cursor row and column
        are framed by white cells at the edges."""
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


class YoshisCookieEnv(PuzzleEnv):
    """``puzzlebots/YoshisCookie-v0``: each step plays one primitive of a plan; reward = fitness gain."""

    def __init__(
        self, config: Mapping[str, Any] | None = None, render_mode: str | None = None, illegal_penalty: float = -1.0
    ) -> None:
        super().__init__(YoshisCookieAdapter(), config, render_mode, illegal_penalty)
