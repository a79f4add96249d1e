"""The article's searcher bot: every placement (and helper use) of the current pair times every one of the
next pair, scored by the weighted 8 metrics; the best chain decides the current pair only."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

import numpy as np

from puzzlebots.core.errors import ConfigError
from puzzlebots.core.protocols import State

from ..config import Rules
from ..engine import VLADIMIR_SWAPS, Action, HatrisState, alexey_patterns
from ..evaluation import METRIC_NAMES, norm_bounds, perm_distance_table
from ..kernels.search import CAP, search
from ..rules import CASH, HEIGHT, STACK

WEIGHTS_FILE = "searcher_weights.json"


def default_weights() -> list[float]:
    """The shipped weights (package data ``data/searcher_weights.json``)."""
    text = resources.files("puzzlebots.games.hatris").joinpath("data", WEIGHTS_FILE).read_text()
    data = json.loads(text)
    if data.get("names") != list(METRIC_NAMES):
        raise ConfigError(f"hatris: {WEIGHTS_FILE} names do not match the searcher's metrics")
    return [float(w) for w in data["weights"]]


@cache
def pattern_tables(mode: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Alexey patterns (all, for piles of at least 5 hats) and the removals of two Alexey uses in a row,
    each with the index of its first use (the combined removal is what the chain's end state depends on)."""
    pats = alexey_patterns([STACK] * 6, mode)
    first: dict[tuple[int, ...], int] = {}
    for i, k1 in enumerate(pats):
        for k2 in pats:
            total = tuple(x + y for x, y in zip(k1, k2, strict=True))
            first.setdefault(total, i)
    sums = sorted(first)
    return (
        np.array(pats, np.int64).reshape(-1, 6),
        np.array(sums, np.int64).reshape(-1, 6),
        np.array([first[s] for s in sums], np.int64),
    )


class Searcher:
    """Bot ``searcher``: the article's two-step search chain with its weighted-sum evaluation."""

    name = "searcher"

    def __init__(self, rules: Rules, weights: Sequence[float]) -> None:
        if len(weights) != len(METRIC_NAMES):
            raise ConfigError(f"hatris/searcher needs {len(METRIC_NAMES)} weights, got {len(weights)}")
        self.rules = rules
        self.weights = np.array(weights, np.float64)
        bounds = norm_bounds(rules.top_px)
        self.coef = np.array([self.weights[i] / bounds[i] for i in range(5)], np.float64)
        self.nest = np.array(rules.nest, np.int64)
        self.height = np.array(HEIGHT, np.int64)
        self.cash = np.array(CASH, np.int64)
        self.group = np.array(rules.groups, np.int64)
        self.pdt = perm_distance_table()
        self.pats, self.sums, self.split = pattern_tables(rules["alexey"])
        self.swaps = np.array(VLADIMIR_SWAPS, np.int64)
        self.piles = np.zeros((6, CAP), np.int8)
        self.last_score = 0.0

    def act(self, state: State) -> Action:
        assert isinstance(state, HatrisState) and state.current is not None
        return self.choose(state.piles, state.pool, state.bars, state.current, state.next)

    def choose(
        self, piles: Sequence[Sequence[int]], pool: Sequence[int], bars: Sequence[int],
        current: tuple[int, int], nxt: tuple[int, int],
    ) -> Action:
        counts = np.zeros(6, np.int64)
        for p, pile in enumerate(piles):
            counts[p] = len(pile)
            self.piles[p, : len(pile)] = pile
        pool_arr = np.zeros(8, np.int64)
        pool_arr[: len(pool)] = pool
        r = self.rules
        kind, x, y, best = search(
            self.piles, counts, current[0], current[1], nxt[0], nxt[1], pool_arr, len(pool),
            np.array(bars, np.int64), self.nest, self.height, self.cash, self.group, self.pdt,
            self.pats, self.sums, self.split, self.swaps, self.weights, self.coef, r.top_px, r["min_run"],
            r["m7"] == "abs", r["sort_dir"] == "asc_lr", r["hatris_bonus"],
        )
        self.last_score = float(best)
        if kind == 1:
            return ("alexey", *(int(k) for k in self.pats[x]))
        if kind == 2:
            return ("vladimir", *(int(v) for v in self.swaps[x]))
        if kind == 0:
            return ("place", int(x), int(y))
        # every first step tops out: the pair over its spawn columns (the game ends either way)
        return ("place", 2, 3)
