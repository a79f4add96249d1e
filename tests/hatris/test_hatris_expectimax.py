"""The expectimax bot: its kernel against a plain oracle built on :mod:`puzzlebots.games.hatris.oracle`, its first
step played out against the engine, its pair chances, and keep=1 being the searcher."""

from __future__ import annotations

import json
import math
import random
from importlib import resources

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.games.hatris import oracle
from puzzlebots.games.hatris.bots.expectimax import Expectimax, default_weights, pair_probs
from puzzlebots.games.hatris.bots.searcher import Searcher
from puzzlebots.games.hatris.config import Rules
from puzzlebots.games.hatris.engine import HatrisState
from puzzlebots.games.hatris.evaluation import CASH_NORM, METRIC_NAMES
from puzzlebots.games.hatris.game import GAME
from puzzlebots.games.hatris.kernels.expect import DEATH, decode, expect, play_first
from puzzlebots.games.hatris.kernels.metrics import scoring
from puzzlebots.games.hatris.kernels.pairs import pair_chains, pair_list
from puzzlebots.games.hatris.kernels.params import (
    CAP,
    COUNT,
    H_BARS,
    H_NEXT,
    H_NPOOL,
    H_POOL,
    K_ALEXEY,
    K_NONE,
    K_PLACE,
)
from puzzlebots.games.hatris.kernels.search import BEST, KIND, NEG, SCORE, chains, first_index
from puzzlebots.games.hatris.rules import HAT_TYPES, allowed_types

ARTICLE = [0.001, 0.00055, 1.78585, 0.06811, 88.31852, 0.00048, 0.06392, 9.76157]


def _played(seed: int, spawns: int, config: dict | None = None) -> HatrisState:
    """A state reached by the searcher itself, so that piles look like real play."""
    s = HatrisState(seed, Rules(config or {}))
    bot = Searcher(s.rules, ARTICLE)
    for _ in range(spawns):
        if s.is_terminal():
            break
        s.apply(bot.act(s))
    return s


@pytest.mark.parametrize("repick", [False, True])
@pytest.mark.parametrize("types", [HAT_TYPES, (1, 4, 5, 6)])
def test_pair_chances(types: tuple[int, ...], repick: bool) -> None:
    probs = pair_probs(types, repick)
    n = len(types)
    assert probs.sum() == pytest.approx(1.0)
    assert np.all(np.tril(probs, -1) == 0)
    for a in types:
        assert probs[a, a] == pytest.approx(1 / n**3 if repick else 1 / n**2)
    assert probs[[t for t in range(7) if t not in types]].sum() == 0


def _engine_after(s: HatrisState, action: tuple) -> HatrisState:
    """The engine's field after ``action`` alone (no spawn, no level end)."""
    t = s.clone()
    t.quota = 10**9
    if action[0] == "place":
        t._place(action)
    else:
        t._helper(action)
    return t


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), spawns=st.integers(0, 150), pool=st.sampled_from([[], [0], [1], [1, 0]]))
def test_first_step_played_as_the_engine_plays_it(seed: int, spawns: int, pool: list[int]) -> None:
    s = _played(seed, spawns)
    if s.is_terminal():
        return
    s.pool = list(pool)
    bot = Expectimax(s.rules, ARTICLE)
    bot._pack(s)
    sc = scoring(bot.rules, bot.weights)
    out = np.zeros_like(bot.board)
    out_hand = np.zeros_like(bot.hand)
    tmp = np.zeros(CAP, np.int8)
    npats = bot.tables.pats.shape[0]
    for action in s.legal_actions():
        kind = K_PLACE if action[0] == "place" else K_ALEXEY if action[0] == "alexey" else 2
        if kind == K_PLACE:
            x, y = action[1], action[2]
        elif kind == K_ALEXEY:
            x, y = [tuple(p) for p in bot.tables.pats.tolist()].index(tuple(action[1:])), 0
        else:
            x, y = [tuple(p) for p in bot.tables.swaps.tolist()].index(tuple(action[1:])), 0
        assert decode(first_index(kind, x, y, npats), npats, bot.tables.swaps) == (kind, x, y)
        alive, cash = play_first(bot.board, bot.hand, kind, x, y, bot.tables, sc, out, out_hand, tmp)
        t = _engine_after(s, action)
        assert alive == (not t.game_over)
        if not alive:
            continue
        assert cash == t.cash - s.cash
        assert [list(out[p, : out[p, COUNT]]) for p in range(6)] == t.piles
        assert list(out_hand[H_BARS : H_BARS + 2]) == t.bars
        assert list(out_hand[H_POOL : H_POOL + out_hand[H_NPOOL]]) == t.pool


def _oracle_expect(s: HatrisState, weights: list[float], probs: np.ndarray) -> dict[tuple, tuple[float, int]]:
    """Every first step with a surviving chain, valued as the kernel values it with no reserve, by plain
    enumeration, and the helpers left in the pool after it (the kernel adds ``reserve`` for each)."""
    assert s.current is not None
    field = oracle.Field([list(p) for p in s.piles], list(s.pool), list(s.bars))
    out = {}
    for a1, f1 in oracle.options(field, s.current, s.rules):
        if f1.dead or oracle.second_step(f1, s.next, s.rules, weights) == -math.inf:
            continue
        v = weights[7] * min(f1.cash / CASH_NORM, 1.0)
        seconds = [f2 for _, f2 in oracle.options(oracle.Field(f1.piles, f1.pool, f1.bars), s.next, s.rules)]
        for a in range(1, 7):
            for b in range(a, 7):
                if probs[a, b] == 0:
                    continue
                best = max(
                    (oracle.second_step(f2, (a, b), s.rules, weights) for f2 in seconds if not f2.dead),
                    default=-math.inf,
                )
                v += probs[a, b] * (best if best > -math.inf else DEATH)
        out[a1] = (v, len(f1.pool))
    return out


@pytest.mark.parametrize(
    "piles, pool",
    [
        ([[1, 4], [6], [], [4, 4, 1], [], [6]], []),
        ([[2, 2, 2, 2], [3], [5, 5], [], [2], [3, 3, 3, 3]], [1]),
        ([[1], [4, 6, 6], [1, 1], [], [6, 4], []], [0]),
    ],
)
def test_kernel_matches_the_oracle(piles: list[list[int]], pool: list[int]) -> None:
    """With no reserve and with one (the oracle's enumeration, the slow part, done once for both)."""
    rng = random.Random(len(pool))
    s = HatrisState(5, {"pair_source": "uniform", "start_level": 12})
    s.piles = [list(p) for p in piles]
    s.pool = list(pool)
    s.current, s.next = (2, 3), (3, 3)
    weights = [rng.uniform(0, 10) for _ in range(8)]
    probs = np.zeros((7, 7))
    probs[2, 3], probs[1, 6] = 0.6, 0.4  # two pairs to average over (each one more whole oracle search)
    plain = _oracle_expect(s, weights, probs)
    for reserve in (0.0, 0.7):
        values = {a1: v + reserve * helpers for a1, (v, helpers) in plain.items()}
        bot = Expectimax(s.rules, weights, keep=10**6)
        bot._pack(s)
        kind, x, y, v = expect(bot.board, bot.hand, bot.rules, bot.weights, bot.tables, probs, bot.keep, reserve)
        assert v == pytest.approx(max(values.values()), abs=1e-7)
        assert values[bot._action(kind, x, y)] == pytest.approx(v, abs=1e-7)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_keep_one_is_the_searcher(seed: int) -> None:
    """With one first step kept there is nothing to average over: the searcher's move, also with helpers."""
    rng = random.Random(seed)
    s = _played(100 + seed, 0)
    expecter = Expectimax(s.rules, ARTICLE, keep=1)
    searcher = Searcher(s.rules, ARTICLE)
    for _ in range(120):
        if s.is_terminal():
            break
        probe = s.clone()
        probe.pool = [rng.randrange(2) for _ in range(rng.randrange(3))]
        assert expecter.act(probe) == searcher.act(probe)
        s.apply(searcher.act(s))


def test_every_chain_tops_out_falls_back_to_a_surviving_step() -> None:
    s = HatrisState(0, {"pair_source": "uniform", "start_level": 12})
    tall = [2, 3] * 4 + [2]  # 128 px: anything more tops out
    s.piles = [list(tall) for _ in range(5)] + [[]]
    s.current, s.next = (4, 6), (4, 6)
    assert Expectimax(s.rules, ARTICLE).act(s) == Searcher(s.rules, ARTICLE).act(s)


def test_registered_with_its_shipped_weights() -> None:
    data = json.loads(
        resources.files("puzzlebots.games.hatris").joinpath("data", "expectimax_weights.json").read_text()
    )
    assert data["bot"] == "expectimax" and data["names"] == list(METRIC_NAMES)
    assert GAME.default_weights("expectimax") == default_weights()
    assert not GAME.bot_info("expectimax").faithful  # ours, not the article's
    bot = GAME.make_bot("expectimax", GAME.check_config({}), None, 0)
    assert bot.name == "expectimax"
    state = GAME.new_state(3, GAME.check_config({"max_spawns": 5}))
    while not state.is_terminal():
        action = bot.act(state)
        assert action in state.legal_actions()
        state.apply(action)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    spawns=st.integers(0, 200),
    pool=st.sampled_from([[], [0], [1], [0, 0], [1, 0], [0, 1]]),
    weights=st.one_of(
        st.sampled_from([ARTICLE, default_weights()]),
        st.lists(st.floats(-5.0, 20.0), min_size=8, max_size=8),
    ),
)
def test_pair_chains_are_the_searchers_chains(seed: int, spawns: int, pool: list[int], weights: list[float]) -> None:
    """The every-pair search (with its bound pruning) finds, for each next pair, exactly the best chain the
    searcher's kernel finds, whatever the weights' signs."""
    s = _played(seed, spawns)
    if s.is_terminal():
        return
    s.pool = list(pool)
    bot = Expectimax(s.rules, weights)
    bot._pack(s)
    pairs = pair_list(pair_probs(allowed_types(s.level), True))
    pair_chains(bot.board, bot.hand, scoring(bot.rules, bot.weights), bot.tables, pairs)
    for a, b, value in zip(pairs.a, pairs.b, pairs.best, strict=True):
        bot.hand[H_NEXT : H_NEXT + 2] = a, b
        best = chains(bot.board, bot.hand, bot.rules, bot.weights, bot.tables, np.zeros(0))
        assert value == (best[BEST, SCORE] if best[BEST, KIND] != K_NONE else NEG)


@pytest.mark.parametrize(
    ("level", "endless", "caps", "hoarding"),
    [
        (7, True, 0, False),  # before the hoarding stage
        (8, True, 0, True),
        (59, True, 0, True),  # endless: a refill starts level 60
        (59, False, 0, False),  # the game ends after level 59: no refill to hoard for
        (9, True, 0, True),  # shop 1 starts with a refill of 6 hats
        (48, True, 9, True),  # a pile of 60 px
        (48, True, 10, False),  # a pile of 66 px, above hoard_below_px (64): the helpers are spent
    ],
)
def test_hoarding_stages(level: int, endless: bool, caps: int, hoarding: bool) -> None:
    s = HatrisState(3, Rules({"start_level": level, "endless": endless, "shop_start": "empty"}))
    s.piles = [[4] * caps, [], [], [], [], []]  # caps: 12 px, 6 px more per cap on a cap
    assert max(s.heights()) == (6 + 6 * caps if caps else 0)
    assert Expectimax(s.rules, default_weights()).reserve(s) == (1.0 if hoarding else 0.0)
    assert Expectimax(Rules({"hoard_stage": 10}), default_weights()).reserve(s) == 0.0


def test_hoarding_keeps_a_helper_the_bot_would_use() -> None:
    """The first decision of a seeded game where the bot summons a helper on a low field: placed at a hoarding
    stage, the same position is played with a placement, and the helper stays in the pool."""
    s = HatrisState(0, Rules({"hoard_stage": 10}))
    bot = Expectimax(s.rules, default_weights())
    while True:
        action = bot.act(s)
        if action[0] != "place" and max(s.heights()) < 64:
            break
        s.apply(action)
    hoarder = Expectimax(Rules({}), default_weights())
    late = s.clone()
    late.level = 8
    assert hoarder.reserve(late) > 0
    assert hoarder.act(late)[0] == "place"
    late.level = 7
    assert hoarder.act(late) == action
