"""The Gym adapter (``puzzlebots/LightsOut-v0``): action n presses light n; the observation is the board."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from puzzlebots.core.arrays import draw_cells, numbered_mask

from .config import LightsOutConfig
from .engine import LightsOutState

#: RGB per cell value of ``draw``: 0 off, 1 on
PALETTE = np.array([[57, 65, 79], [255, 216, 74]], dtype=np.uint8)


class LightsOutAdapter:
    """Actions 0..size*size-1 (light ``row * size + column``); observation ``{"lights": size x size int8}``."""

    def __init__(self, config: LightsOutConfig) -> None:
        self.size = config.size
        self.n_actions = config.size * config.size

    def action_index(self, action: int) -> int:
        return action

    def index_action(self, index: int, state: LightsOutState) -> int:
        return index

    def legal_mask(self, state: LightsOutState) -> np.ndarray:
        return numbered_mask(state, self.n_actions, self.action_index)

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict({"lights": spaces.Box(0, 1, shape=(self.size, self.size), dtype=np.int8)})

    def observe(self, state: LightsOutState) -> dict[str, Any]:
        return {"lights": np.array(state.lights, dtype=np.int8).reshape(self.size, self.size)}

    def draw(self, state: LightsOutState) -> np.ndarray:
        return draw_cells(self.observe(state)["lights"], PALETTE)
