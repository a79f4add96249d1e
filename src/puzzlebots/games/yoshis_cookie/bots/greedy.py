"""``greedy``: the bot of meatfighter's *Yoshi's Cookie Bot* article, exactly."""

from __future__ import annotations

from ..engine import YoshiState
from ..kernels.builder import greedy_best
from .lines import LineBot, state_at


class GreedyBot(LineBot):
    """The article's bot: simulate every buildable row and column of every type with the greedy builder,
    keep the most points then the fewest steps (balance rule on), hold B when nothing can be cleared."""

    name = "greedy"

    def _choose(self, state: YoshiState) -> str:
        return self._plan(*greedy_best(state.raw_grid, state_at(state), self.rules, self.out))
