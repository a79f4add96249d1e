"""A uniformly random press: the baseline, and a quick way to see the engine move."""

from __future__ import annotations

import random

from puzzlebots.core.protocols import State


class RandomBot:
    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)  # the seed make_bot was handed (core.seeds.bot_seed of the game's)

    def act(self, state: State) -> int:
        return int(self.rng.choice(state.legal_actions()))
