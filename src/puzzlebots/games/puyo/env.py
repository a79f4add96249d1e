"""Puyo Puyo (solo Tsu field) as arrays: the field, top row first, and the current and next pairs.

Actions are the 22 placements numbered as in ``games.puyo.rules.PLACEMENTS``; a same-colour pair offers
only its canonical placements, so the mask never shows two numbers for one outcome.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from puzzlebots.core.arrays import draw_cells, numbered_mask
from puzzlebots.core.protocols import Action, State

from .config import typed_config
from .rules import GARBAGE, N_PLACEMENTS, PLACEMENTS, ROWS, WIDTH

INDEX = {(x + 1, r): i for i, (x, r) in enumerate(PLACEMENTS)}
BACKGROUND = 7
PALETTE = np.array(
    [
        [30, 30, 40],  # empty
        [220, 50, 50],  # red
        [60, 180, 75],  # green
        [50, 100, 230],  # blue
        [240, 200, 40],  # yellow
        [160, 70, 200],  # purple
        [150, 150, 150],  # garbage
        [240, 240, 235],  # background
    ],
    dtype=np.uint8,
)


class PuyoAdapter:
    """The ``puzzlebots/Puyo-v0`` adapter (``core.protocols.EnvAdapter``)."""

    n_actions = N_PLACEMENTS

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.visible = typed_config(config).visible

    def action_index(self, action: Action) -> int:
        x, r = action
        return INDEX[(int(x), int(r))]

    def index_action(self, index: int, state: State) -> Action:
        x, r = PLACEMENTS[index]
        return (x + 1, r)

    def legal_mask(self, state: State) -> np.ndarray:
        return numbered_mask(state, self.n_actions, self.action_index)

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "field": spaces.Box(0, GARBAGE, shape=(ROWS, WIDTH), dtype=np.uint8),
                "pairs": spaces.Box(0, 5, shape=(self.visible + 1, 2), dtype=np.uint8),
            }
        )

    def observe(self, state: State) -> dict[str, np.ndarray]:
        field = np.ascontiguousarray(state.field.cells.T[::-1], dtype=np.uint8)  # type: ignore[attr-defined]
        pairs = np.zeros((self.visible + 1, 2), dtype=np.uint8)
        for i, pair in enumerate(state.next_pairs()[: self.visible + 1]):  # type: ignore[attr-defined]
            pairs[i] = pair
        return {"field": field, "pairs": pairs}

    def draw(self, state: State) -> np.ndarray:
        obs = self.observe(state)
        grid = np.full((ROWS, WIDTH + 2), BACKGROUND, dtype=np.intp)
        grid[:, :WIDTH] = obs["field"]
        for i, (axis, child) in enumerate(obs["pairs"]):
            if 3 * i + 1 < ROWS:
                grid[3 * i, WIDTH + 1] = child
                grid[3 * i + 1, WIDTH + 1] = axis
        return draw_cells(grid, PALETTE)
