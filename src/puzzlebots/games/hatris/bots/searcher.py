"""The article's searcher bot: every placement (and helper use) of the current pair times every one of the
next pair, scored by the weighted 8 metrics; the best chain decides the current pair only."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from puzzlebots.core.errors import ConfigError
from puzzlebots.core.protocols import State

from ..config import Rules
from ..engine import VLADIMIR_SWAPS, Action, HatrisState, alexey_patterns
from ..evaluation import METRIC_NAMES, norm_bounds, perm_distance_table
from ..kernels.params import (
    C_HATS,
    C_MISMATCHES,
    C_PILE_HEIGHTS,
    C_RUNS,
    C_TOP_RUNS,
    CAP,
    COUNT,
    H_BARS,
    H_CUR,
    H_NEXT,
    H_NPOOL,
    H_POOL,
    H_SIZE,
    K_ALEXEY,
    K_PLACE,
    K_VLADIMIR,
    R_BONUS,
    R_M7_ABS,
    R_MIN_RUN,
    R_MIRROR,
    R_SIZE,
    R_TOP_PX,
    W_SIZE,
    Tables,
)
from ..kernels.search import NEG, chains, search
from ..rules import CASH, COLUMNS, HEIGHT, STACK

WEIGHTS_FILE = "searcher_weights.json"
#: how many of its best first steps the bot shows as its thinking
THINKING_STEPS = 5


def shipped_weights(file_name: str) -> list[float]:
    """A bot's shipped weights over the 8 metrics (package data ``data/<file_name>``)."""
    text = resources.files("puzzlebots.games.hatris").joinpath("data", file_name).read_text()
    data = json.loads(text)
    if data.get("names") != list(METRIC_NAMES):
        raise ConfigError(f"hatris: {file_name} names do not match the 8 metrics")
    return [float(w) for w in data["weights"]]


def default_weights() -> list[float]:
    """The searcher's shipped weights (``data/searcher_weights.json``)."""
    return shipped_weights(WEIGHTS_FILE)


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


def _kernel_weights(weights: Sequence[float], top_px: int) -> np.ndarray:
    """The search kernel's weights array (``kernels.params`` W_*, C_*): the 8 weights, then metrics 1-5's weight
    over its Q17 bound."""
    out = np.zeros(W_SIZE, np.float64)
    out[: len(METRIC_NAMES)] = weights
    bounds = norm_bounds(top_px)
    for m, c in enumerate((C_HATS, C_PILE_HEIGHTS, C_RUNS, C_TOP_RUNS, C_MISMATCHES)):
        out[c] = out[m] / bounds[m]
    return out


def _rule_numbers(rules: Rules) -> np.ndarray:
    """The search kernel's rules array (``kernels.params`` R_*)."""
    out = np.zeros(R_SIZE, np.int64)
    out[R_TOP_PX] = rules.top_px
    out[R_MIN_RUN] = rules.min_run
    out[R_M7_ABS] = rules.metric7_formula == "abs"
    out[R_MIRROR] = rules.sort_dir == "asc_lr"
    out[R_BONUS] = rules.hatris_bonus
    return out


class Searcher:
    """Bot ``searcher``: the article's two-step search chain with its weighted-sum evaluation."""

    name = "searcher"

    def __init__(self, rules: Rules, weights: Sequence[float]) -> None:
        if len(weights) != len(METRIC_NAMES):
            raise ConfigError(f"hatris/searcher needs {len(METRIC_NAMES)} weights, got {len(weights)}")
        self.weights = _kernel_weights(weights, rules.top_px)
        self.rules = _rule_numbers(rules)
        pats, sums, split = pattern_tables(rules.alexey)
        self.tables = Tables(
            nest=np.array(rules.nest, np.int64),
            height=np.array(HEIGHT, np.int64),
            cash=np.array(CASH, np.int64),
            group=np.array(rules.groups, np.int64),
            pdt=perm_distance_table(),
            pats=pats,
            sums=sums,
            split=split,
            swaps=np.array(VLADIMIR_SWAPS, np.int64),
        )
        self.board = np.zeros((COLUMNS, CAP + 1), np.int8)
        self.hand = np.zeros(H_SIZE, np.int64)
        #: the chosen first step's chain score at the last decision (the differential tests read it)
        self.last_score = 0.0
        #: the first step chosen at the last decision (the page shows it as the bot's thinking)
        self.last_action: Action | None = None

    def act(self, state: State) -> Action:
        assert isinstance(state, HatrisState) and state.current is not None
        self._pack(state)
        kind, x, y, best = search(self.board, self.hand, self.rules, self.weights, self.tables)
        self.last_score = float(best)
        self.last_action = self._action(kind, x, y)
        return self.last_action

    def thinking(self) -> dict[str, Any]:
        """The last decision's best first steps, each with the score of the best two-step chain it starts (the
        page's thinking panel, docs/architecture.md); the first is the step the bot chose."""
        if self.last_action is None:
            return {"title": "searcher", "note": "no decision yet"}
        return {
            "title": "searcher's best first steps",
            "score_label": "the best chain score it starts (this pair's step, then the next pair's best), by the "
            "weighted sum of the article's 8 metrics",
            "candidates": [
                {"move": step_name(action), "score": round(score, 2)} for action, score in self.ranked_steps()
            ],
        }

    def ranked_steps(self) -> list[tuple[Action, float]]:
        """The last decision's first steps with a chain that does not top out, best chain score first
        (``THINKING_STEPS`` of them, the chosen step first among equals). The search returns only its choice, so
        this searches again, only when asked, on the decision's inputs (still packed in ``board`` and ``hand``),
        logging each first step's best chain (``kernels.search.chains``). When every chain tops out: the chosen
        step alone, with its single-step score (the kernel's fallback)."""
        npats, nswaps = len(self.tables.pats), len(self.tables.swaps)
        log = np.full(36 + npats + nswaps, NEG)
        chains(self.board, self.hand, self.rules, self.weights, self.tables, log)
        steps = []
        for slot in map(int, np.flatnonzero(log > NEG)):
            if slot < 36:
                action = self._action(K_PLACE, slot // 6, slot % 6)
            elif slot < 36 + npats:
                action = self._action(K_ALEXEY, slot - 36, 0)
            else:
                action = self._action(K_VLADIMIR, slot - 36 - npats, 0)
            steps.append((action, float(log[slot])))
        if not steps and self.last_action is not None:
            return [(self.last_action, self.last_score)]
        steps.sort(key=lambda step: (-step[1], step[0] != self.last_action))
        return steps[:THINKING_STEPS]

    def _action(self, kind: int, x: int, y: int) -> Action:
        """The engine's action for the kernel's first step (``params.K_*``)."""
        if kind == K_ALEXEY:
            return ("alexey", *(int(k) for k in self.tables.pats[x]))
        if kind == K_VLADIMIR:
            return ("vladimir", *(int(v) for v in self.tables.swaps[x]))
        if kind == K_PLACE:
            return ("place", int(x), int(y))
        # every first step tops out: the pair over its spawn columns (the game ends either way)
        return ("place", 2, 3)

    def _pack(self, state: HatrisState) -> None:
        """The state's piles into the board, its pairs, helper bars and pool into the hand (kernels.params)."""
        assert state.current is not None
        for p, pile in enumerate(state.piles):
            self.board[p, : len(pile)] = pile
            self.board[p, COUNT] = len(pile)
        hand = self.hand
        hand[H_CUR : H_CUR + 2] = state.current
        hand[H_NEXT : H_NEXT + 2] = state.next
        hand[H_BARS : H_BARS + 2] = state.bars
        hand[H_NPOOL] = len(state.pool)
        hand[H_POOL:] = 0
        hand[H_POOL : H_POOL + len(state.pool)] = state.pool


def step_name(action: Action) -> str:
    """A first step as people read it: the piles (1-6) a pair lands on, or a helper's use."""
    if action[0] == "place":
        return f"the pair on piles {action[1] + 1} and {action[2] + 1}"
    if action[0] == "vladimir":
        return f"vladimir swaps piles {action[1] + 1} and {action[2] + 1}"
    return "alexey takes " + ", ".join(f"{k} off the bottom of pile {p + 1}" for p, k in enumerate(action[1:]) if k)
