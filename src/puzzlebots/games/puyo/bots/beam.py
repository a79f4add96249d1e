"""``beam``: our strong bot. Beam search over the visible pairs plus sampled future pairs.

For each of ``beam_samples`` futures (the visible pairs, then uniformly random pairs up to ``beam_depth``),
one beam of ``beam_width`` fields is searched (numba, ``kernels.beam``); each node is valued by the best
chain that 1-3 more puyos would trigger (chain potential), touching same-coloured puyos and the field's
shape, or by the chain already fired on its path. A placement's value is averaged over the futures. In solo
the search knows how many pairs are left, so it fires its chain before the game ends; in versus it fires
as soon as a chain of ``fire_links`` links is in reach, or when garbage would bury it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..config import typed_config
from ..engine import REACH_RULES, action_of
from ..kernels import bitboard as BB
from ..kernels.beam import DEFAULT_WEIGHTS, NEG, P_GARBAGE, P_REMAINING, beam_search, search_params
from ..rules import N_PLACEMENTS
from .base import PuyoBot


class BeamBot(PuyoBot):
    name = "beam"

    def __init__(self, config: Mapping[str, Any], seed: int = 0) -> None:
        settings = typed_config(config)
        self.depth = settings.beam_depth
        self.samples = settings.beam_samples
        self.n_colours = settings.n_colours
        self.params = search_params(
            settings.beam_width, self.n_colours, settings.beam_fire_links, REACH_RULES[settings.reach]
        )
        self.weights = DEFAULT_WEIGHTS.copy()
        self.rng = np.random.default_rng(seed)

    def act(self, state: Any) -> tuple[int, int]:
        """The placement for ``state``: a solo state or a versus player (field, pairs, remaining, pending)."""
        return action_of(self._choose(state))

    def _choose(self, state: Any) -> int:
        """The placement index whose value, averaged over ``samples`` searched futures, is the highest."""
        known = np.array(state.next_pairs(), dtype=np.int64)
        depth = max(self.depth, len(known))
        params = self.params.copy()
        params[P_REMAINING] = state.remaining()
        params[P_GARBAGE] = state.pending
        root = BB.new_field()
        BB.encode(state.field.cells, root)
        total = np.zeros(N_PLACEMENTS)
        out = np.empty(N_PLACEMENTS)
        for _ in range(self.samples):
            queue = np.empty((depth, 2), dtype=np.int64)
            queue[: len(known)] = known
            queue[len(known) :] = self.rng.integers(1, self.n_colours + 1, size=(depth - len(known), 2))
            beam_search(root, queue, params, self.weights, out)
            total += np.maximum(out, NEG / self.samples)
        legal = state.field.placements(state.current())
        if not legal:
            return 0
        return max(legal, key=lambda p: total[p])
