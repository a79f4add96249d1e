"""Bot ``expectimax``: the searcher's chain one pair deeper. The searcher sees the falling pair and the next one;
this bot also weighs every possible third pair by its chance (the level's allowed types, drawn uniformly, with
the NES re-pick of a double when the pairs come from the NES generator), over the searcher's best first steps."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from puzzlebots.core.protocols import State

from ..config import Rules
from ..engine import Action, HatrisState
from ..kernels.expect import expect
from ..rules import allowed_types
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
        self.repick = rules["pair_source"] == "nes"
        self.keep = keep

    def act(self, state: State) -> Action:
        assert isinstance(state, HatrisState) and state.current is not None
        self._pack(state)
        probs = pair_probs(allowed_types(state.level), self.repick)
        kind, x, y, best = expect(self.board, self.hand, self.rules, self.weights, self.tables, probs, self.keep)
        self.last_score = float(best)
        return self._action(kind, x, y)
