"""``krieg``: the modified KRIEG prediction AI of the KRIEG3 article (reference section 3.2).

Every reachable placement is simulated on a copy until nothing moves; each prediction scores
``wE * E + wG * G - wH * H`` (E = blocks eliminated, G = size of the same-colour groups the two placed puyos
form, H = highest column afterwards). The AI picks at random among the best predictions that are not game
over (the "improved" KRIEG of the article); when every prediction is game over it picks any at random.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..engine import Field, Pair, action_of
from ..names import KRIEG_WEIGHT_NAMES
from .base import PuyoBot
from .prediction import Prediction, predictions

WEIGHT_NAMES = KRIEG_WEIGHT_NAMES
DEFAULT_WEIGHTS = (1.0, 1.0, 1.0)  # reference Q19: unpublished, unit weights


def krieg_score(p: Prediction, weights: Sequence[float]) -> float:
    w_h, w_e, w_g = weights
    eliminated = p.result.popped + p.result.garbage_cleared
    return w_e * eliminated + w_g * p.group - w_h * int(p.field.heights.max())


def krieg_choice(preds: Sequence[Prediction], weights: Sequence[float], rng: random.Random) -> Prediction:
    """The modified KRIEG decision over ``preds`` (non-empty)."""
    alive = [p for p in preds if not p.dead]
    if not alive:
        return rng.choice(list(preds))
    scores = [krieg_score(p, weights) for p in alive]
    best = max(scores)
    return rng.choice([p for p, s in zip(alive, scores, strict=True) if s == best])


class KriegBot(PuyoBot):
    """The modified KRIEG AI."""

    name = "krieg"

    def __init__(self, weights: Sequence[float] | None = None, seed: int = 0) -> None:
        self.weights = tuple(DEFAULT_WEIGHTS if weights is None else weights)
        self.rng = random.Random(seed)

    def act(self, state: Any) -> tuple[int, int]:
        return action_of(self._choose(state.field, state.current()))

    def _choose(self, field: Field, pair: Pair) -> int:
        """The placement index KRIEG picks for ``pair`` on ``field``."""
        return krieg_choice(predictions(field, pair), self.weights, self.rng).index
