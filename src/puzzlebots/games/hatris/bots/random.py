"""Bot ``random``: uniformly random legal actions (see :mod:`.searcher` for the article's bot)."""

from __future__ import annotations

import random

from puzzlebots.core.protocols import State

from ..engine import Action, HatrisState


class RandomBot:
    """Bot ``random``: a uniformly random legal action (placements and helper uses alike); for tests and
    for measuring the engine without search."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State) -> Action:
        assert isinstance(state, HatrisState)
        return self.rng.choice(state.legal_actions())
