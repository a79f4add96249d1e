"""``builder``: a chain builder after ama's design: a wide beam over many sampled futures, in parallel.

For each of ``builder_futures`` futures (the visible pairs, then uniformly random pairs up to
``builder_depth``), one beam of ``builder_width`` fields is searched (``kernels.builder``, numba, futures in
parallel over the cores); fields are ranked by ``kernels.chain_eval`` (chain potential by quiet drops of 1-3
puyos, shape, connections, the death column). A first placement is worth the largest chain fired below it,
summed over the futures: the expected largest chain. So it builds while building is expected to fire more,
and fires when the chain in hand beats that (the search never looks past the game's last pair). In versus,
a first placement that fires ``beam_fire_links`` links wins outright, and pending garbage is assumed to fall
after the move. The futures are drawn from the bot's seeded generator, so the same seed plays the same moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..config import PuyoConfig, typed_config
from ..engine import REACH_RULES, action_of
from ..kernels import bitboard as BB
from ..kernels.builder import P_GARBAGE, P_REMAINING, search_many, search_params
from ..kernels.chain_eval import HAND_WEIGHTS, signed
from ..rules import N_PLACEMENTS, TARGET_POINTS
from .base import PuyoBot

#: how many of its best placements the bot shows as its thinking
THINKING_MOVES = 5
#: a rotation in words: where the child puyo sits around the axis
ROTATIONS = ("up", "right", "down", "left")


def placement_name(placement: int) -> str:
    """A placement as people read it: the axis column (1-6) and where the child sits."""
    x, r = action_of(placement)
    return f"column {x}, child {ROTATIONS[r]}"


def default_weights() -> list[float]:
    """The weights ``builder`` plays with unless given others (``train --init default`` starts from them)."""
    return list(HAND_WEIGHTS)


def builder_params(settings: PuyoConfig, width: int) -> np.ndarray:
    """The builder search's kernel parameters for beams of ``width`` fields: the colours, reach, prune and
    discount of ``settings`` (a ``typed_config``), shared with ``duelist``, which searches the same way."""
    return search_params(
        width, settings.n_colours, REACH_RULES[settings.reach], settings.builder_prune, settings.builder_discount
    )


def sampled_queues(rng: np.random.Generator, known: np.ndarray, futures: int, depth: int, n_colours: int) -> np.ndarray:
    """``futures`` pair queues of at least ``depth`` pairs: the ``known`` pairs, then random ones from ``rng``."""
    depth = max(depth, len(known))
    queues = np.empty((futures, depth, 2), dtype=np.int64)
    queues[:, : len(known)] = known
    queues[:, len(known) :] = rng.integers(1, n_colours + 1, size=(futures, depth - len(known), 2))
    return queues


class BuilderBot(PuyoBot):
    name = "builder"

    def __init__(self, config: Mapping[str, Any], weights: Sequence[float] | None = None, seed: int = 0) -> None:
        settings = typed_config(config)
        self.depth = settings.builder_depth
        self.futures = settings.builder_futures
        self.n_colours = settings.n_colours
        self.fire_links = settings.beam_fire_links
        self.params = builder_params(settings, settings.builder_width)
        self.weights = signed(default_weights() if weights is None else weights)
        self.rng = np.random.default_rng(seed)
        #: the last decision's best placements, (placement, mean largest chain score, futures survived), best first
        self.last_candidates: list[tuple[int, float, int]] = []

    def act(self, state: Any) -> tuple[int, int]:
        """The placement for ``state``: a solo state or a versus player (field, pairs, remaining, pending)."""
        return action_of(self._choose(state))

    def _queues(self, known: np.ndarray) -> np.ndarray:
        """``futures`` pair queues: the known pairs, then random ones up to the search depth."""
        return sampled_queues(self.rng, known, self.futures, self.depth, self.n_colours)

    def _choose(self, state: Any) -> int:
        """The legal placement with the largest summed chain over the futures (ties: survival, then value)."""
        legal = state.field.placements(state.current())
        if not legal:
            return 0
        params = self.params.copy()
        params[P_REMAINING] = state.remaining()
        params[P_GARBAGE] = state.pending
        root = BB.new_field()
        BB.encode(state.field.cells, root)
        queues = self._queues(np.array(state.next_pairs(), dtype=np.int64))
        chains = np.zeros((self.futures, N_PLACEMENTS))
        values = np.zeros((self.futures, N_PLACEMENTS))
        search_many(root, queues, params, self.weights, chains, values)
        total = np.maximum(chains, 0).sum(axis=0)
        alive = (values > -1.0e17).sum(axis=0)
        mean_value = np.where(values > -1.0e17, values, 0.0).sum(axis=0) / np.maximum(alive, 1)
        ranked = sorted(
            legal, key=lambda p: (round(float(total[p]), 6), int(alive[p]), float(mean_value[p])), reverse=True
        )
        self.last_candidates = [(p, float(total[p]) / self.futures, int(alive[p])) for p in ranked[:THINKING_MOVES]]
        if self.fire_links > 0:
            fire = self._fires_now(state, legal)
            if fire is not None:
                return fire
        return ranked[0]

    def thinking(self) -> dict[str, Any]:
        """The last decision's best placements, each with the score of the largest chain it leads to, the mean
        over the futures (the page's thinking panel, docs/architecture.md)."""
        return {
            "title": "builder's best placements",
            "score_label": f"the largest chain's score it leads to (points, discounted by depth), the mean over "
            f"{self.futures} sampled futures",
            "candidates": [
                {"move": placement_name(p), "score": round(chain), "survives": alive}
                for p, chain, alive in self.last_candidates
            ],
        }

    def _fires_now(self, state: Any, legal: list[int]) -> int | None:
        """Versus: the placement firing the most links now if that reaches ``fire_links``, or if garbage is
        pending and it offsets all of it; else None."""
        best, best_links, best_score = None, 0, 0
        for p in legal:
            field = state.field.copy()
            result = field.play(state.current(), p)
            if (result.links, result.score) > (best_links, best_score):
                best, best_links, best_score = p, result.links, result.score
        if best_links >= self.fire_links or (state.pending > 0 and best_score >= TARGET_POINTS * state.pending):
            return best
        return None
