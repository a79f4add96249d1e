"""Bot ``expectimax``: the searcher's chain one pair deeper. The searcher sees the falling pair and the next one;
this bot also weighs every possible third pair by its chance (the level's allowed types, drawn uniformly, with
the NES re-pick of a double when the pairs come from the NES generator), over the searcher's best first steps.

In a shop's last stages it also hoards helpers for the refill that starts the next shop (the hats of a refill
are random, and a game that meets one with an empty pool often dies in the next few levels)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from puzzlebots.core.protocols import State

from ..config import Rules
from ..engine import Action, HatrisState
from ..kernels.expect import expect
from ..rules import LEVELS, STAGES_PER_SHOP, allowed_types, shop_of
from .searcher import Searcher, shipped_weights

WEIGHTS_FILE = "expectimax_weights.json"
#: first steps (the searcher's best chains) whose third pair is weighed
KEEP = 4


def default_weights() -> list[float]:
    """The shipped weights (``data/expectimax_weights.json``)."""
    return shipped_weights(WEIGHTS_FILE)


@cache
def pair_probs(types: tuple[int, ...], repick: bool) -> np.ndarray:
    """Chance of each unordered pair {a, b} (a <= b, at [a, b]) when both hats are drawn uniformly from ``types``
    and, with ``repick``, a double is drawn again once (the NES rule): a double then has chance 1/n^3."""
    n = len(types)
    probs = np.zeros((7, 7))
    for a in types:
        for b in types:
            p = 1.0 / n**2
            if repick:
                p = p / n if a == b else p + 1.0 / n**3
            probs[min(a, b), max(a, b)] += p
    return probs


class Expectimax(Searcher):
    """The searcher's packing and weights (the same 8 metrics), a three-pair expectation search."""

    name = "expectimax"

    def __init__(self, rules: Rules, weights: Sequence[float], keep: int = KEEP) -> None:
        super().__init__(rules, weights)
        self.repick = rules.pair_source == "nes"
        self.keep = keep
        self.config = rules

    def act(self, state: State) -> Action:
        assert isinstance(state, HatrisState) and state.current is not None
        self._pack(state)
        probs = pair_probs(allowed_types(state.level), self.repick)
        reserve = self.reserve(state)
        kind, x, y, best = expect(
            self.board, self.hand, self.rules, self.weights, self.tables, probs, self.keep, reserve
        )
        self.last_score = float(best)
        return self._action(kind, x, y)

    def reserve(self, state: HatrisState) -> float:
        """The value of each helper kept in the pool: ``hoard_value`` from stage ``hoard_stage`` of a shop that a
        refill follows, while every pile is lower than ``hoard_below_px`` (a tall field spends its helpers)."""
        r = self.config
        stage = state.level % STAGES_PER_SHOP
        next_shop = state.level - stage + STAGES_PER_SHOP
        refill = shop_of(next_shop) > 0 and (r.endless or next_shop < LEVELS)
        if not refill or stage < r.hoard_stage or max(state.heights()) >= r.hoard_below_px:
            return 0.0
        return float(r.hoard_value)
