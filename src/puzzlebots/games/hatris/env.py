"""Hatris as arrays: the six piles (hat types bottom first), their heights in pixels, the falling and next
pairs, the helper pool and the level.

Actions are numbered once for every state: 30 placements ``("place", a, b)`` (a != b), then every Alexey
removal ``("alexey", k0..k5)`` (1-5 hats in total), then the 15 Vladimir swaps ``("vladimir", i, j)``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from puzzlebots.core.arrays import numbered_mask
from puzzlebots.core.protocols import Action, State

from .config import Rules
from .rules import COLUMNS, HEIGHT, POOL_MAX, STACK

ACTIONS: tuple[tuple[Any, ...], ...] = (
    tuple(("place", a, b) for a in range(COLUMNS) for b in range(COLUMNS) if a != b)
    + tuple(("alexey", *ks) for ks in itertools.product(range(STACK + 1), repeat=COLUMNS) if 1 <= sum(ks) <= STACK)
    + tuple(("vladimir", i, j) for i, j in itertools.combinations(range(COLUMNS), 2))
)
INDEX = {action: i for i, action in enumerate(ACTIONS)}
MAX_LEVEL = 10**6
#: per hat type: RGB (index 0 = background), after the game's own colour names
PALETTE = np.array(
    [[25, 25, 35], [235, 235, 235], [200, 60, 200], [235, 200, 40], [60, 200, 220], [220, 60, 60], [70, 180, 70]],
    dtype=np.uint8,
)
PX_WIDTH = 24  # picture width of one pile


class HatrisAdapter:
    """The ``puzzlebots/Hatris-v0`` adapter (``core.protocols.EnvAdapter``)."""

    n_actions = len(ACTIONS)

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.top_px = Rules(config).top_px
        self.max_hats = self.top_px // 2 + 2  # the smallest nesting step is 2 px

    def action_index(self, action: Action) -> int:
        return INDEX[tuple(action)]

    def index_action(self, index: int, state: State) -> Action:
        return ACTIONS[index]

    def legal_mask(self, state: State) -> np.ndarray:
        return numbered_mask(state, self.n_actions, self.action_index)

    def observation_space(self) -> spaces.Dict:
        return spaces.Dict(
            {
                "piles": spaces.Box(0, 6, shape=(COLUMNS, self.max_hats), dtype=np.uint8),
                "heights": spaces.Box(0, self.top_px + max(HEIGHT), shape=(COLUMNS,), dtype=np.int32),
                "pairs": spaces.Box(0, 6, shape=(2, 2), dtype=np.uint8),
                "pool": spaces.Box(0, 2, shape=(POOL_MAX,), dtype=np.uint8),
                "level": spaces.Box(0, MAX_LEVEL, shape=(1,), dtype=np.int32),
            }
        )

    def observe(self, state: State) -> dict[str, np.ndarray]:
        s: Any = state
        piles = np.zeros((COLUMNS, self.max_hats), dtype=np.uint8)
        for col, pile in enumerate(s.piles):
            hats = pile[: self.max_hats]
            piles[col, : len(hats)] = hats
        heights = np.clip(np.array(s.heights(), dtype=np.int32), 0, self.top_px + max(HEIGHT))
        pairs = np.zeros((2, 2), dtype=np.uint8)
        if s.current is not None:
            pairs[0] = s.current
        pairs[1] = s.next
        pool = np.zeros(POOL_MAX, dtype=np.uint8)
        pool[: len(s.pool)] = [helper + 1 for helper in s.pool[:POOL_MAX]]  # 1 Alexey, 2 Vladimir
        level = np.array([min(s.level, MAX_LEVEL)], dtype=np.int32)
        return {"piles": piles, "heights": heights, "pairs": pairs, "pool": pool, "level": level}

    def draw(self, state: State) -> np.ndarray:
        """Piles side by side, each hat a band from its base to its top (pixels 1:1), the top line in grey."""
        s: Any = state
        height = self.top_px + max(HEIGHT) + 8
        picture = np.zeros((height, COLUMNS * PX_WIDTH + PX_WIDTH * 2, 3), dtype=np.uint8)
        picture[:, :] = PALETTE[0]
        nest = s.rules.nest
        for col, pile in enumerate(s.piles):
            x0 = col * PX_WIDTH + 2
            base = 0
            for k, hat in enumerate(pile):
                if k:
                    base += nest[pile[k - 1]][hat]  # a hat rests its nesting offset above the one below
                top = min(base + HEIGHT[hat], height)
                picture[height - top : height - base, x0 : x0 + PX_WIDTH - 4] = PALETTE[hat]
                picture[height - base - 1 : height - base, x0 : x0 + PX_WIDTH - 4] = 0
        picture[height - self.top_px - 1, : COLUMNS * PX_WIDTH] = 128
        pairs = [s.current, s.next] if s.current is not None else [s.next]
        for i, pair in enumerate(pairs):
            for j, hat in enumerate(pair):
                y0 = 8 + i * 40 + j * 14
                picture[y0 : y0 + 12, COLUMNS * PX_WIDTH + 8 : COLUMNS * PX_WIDTH + 40] = PALETTE[hat]
        return picture
