"""The numba searcher against the slow pure-Python oracle, the permutation-distance table, shipped weights."""

from __future__ import annotations

import itertools
import json
import random
from importlib import resources

import pytest

from puzzlebots.core.errors import ConfigError
from puzzlebots.games.hatris import oracle
from puzzlebots.games.hatris.bots.searcher import Searcher, default_weights
from puzzlebots.games.hatris.config import Rules
from puzzlebots.games.hatris.engine import HatrisState
from puzzlebots.games.hatris.evaluation import METRIC_NAMES, perm_distance
from puzzlebots.games.hatris.game import GAME

ARTICLE = [0.001, 0.00055, 1.78585, 0.06811, 88.31852, 0.00048, 0.06392, 9.76157]


def _states(n: int, seed: int, config: dict) -> list[HatrisState]:
    """Mid-game states reached by the searcher itself (so piles look like real play)."""
    rng = random.Random(seed)
    out = []
    rules = Rules(config)
    bot = Searcher(rules, ARTICLE)
    for i in range(n):
        s = HatrisState(seed * 1000 + i, rules)
        for _ in range(rng.randrange(0, 120)):
            if s.is_terminal():
                break
            s.apply(bot.act(s))
        if not s.is_terminal():
            out.append(s)
    return out


def _check(s: HatrisState, pool: list[int], weights: list[float]) -> None:
    assert s.current is not None
    bot = Searcher(s.rules, weights)
    probe = s.clone()
    probe.pool = list(pool)  # the same field with this pool on hand
    action = bot.act(probe)
    field = oracle.Field([list(p) for p in s.piles], list(pool), list(s.bars))
    _, best = oracle.search(field, s.current, s.next, s.rules, weights)
    assert bot.last_score == pytest.approx(best, abs=1e-9)
    # the kernel's first step is one whose best continuation reaches that score
    chains = [o for o in oracle.options(field, s.current, s.rules) if o[0] == action]
    assert len(chains) == 1


@pytest.mark.parametrize(
    "config", [{}, {"metric7_formula": "abs", "sort_dir": "asc_lr", "min_run": 3, "hatris_bonus": 500}]
)
def test_kernel_matches_oracle_placements_and_vladimir(config: dict) -> None:
    rng = random.Random(1)
    for s in _states(12, 2, config):
        weights = [rng.uniform(0, 10) for _ in range(8)] if rng.random() < 0.5 else ARTICLE
        _check(s, [1] * rng.randrange(0, 3), weights)


def test_kernel_matches_oracle_with_alexey() -> None:
    # Alexey chains are enumerated in full by the oracle: keep the fields small
    rng = random.Random(4)
    piles_sets = [
        [[1, 4], [6], [], [4, 4, 1], [], [6]],
        [[1], [4, 6, 6], [1, 1], [], [6, 4], []],
        [[2, 3]] * 3 + [[]] * 3,
    ]
    for piles in piles_sets:
        for pool in ([0], [1, 0], [0, 1], [0, 0]):
            s = HatrisState(rng.randrange(100), {"pair_source": "uniform", "start_level": 12})
            s.piles = [list(p) for p in piles]
            weights = [rng.uniform(0, 10) for _ in range(8)]
            _check(s, pool, weights)


def test_every_chain_tops_out_falls_back_to_a_surviving_step() -> None:
    s = HatrisState(0, {"pair_source": "uniform", "start_level": 12})
    tall = [2, 3] * 4 + [2]  # 128 px: anything more tops out
    s.piles = [list(tall) for _ in range(5)] + [[]]
    s.current, s.next = (4, 6), (4, 6)
    action = Searcher(s.rules, ARTICLE).act(s)
    assert action[0] == "place"


def test_permutation_distance_table() -> None:
    assert perm_distance([60, 50, 40, 30, 20, 10], False) == 0
    assert perm_distance([50, 60, 40, 30, 20, 10], False) == 1
    assert perm_distance([10, 20, 30, 40, 50, 60], False) == 3
    assert perm_distance([10, 20, 30, 40, 50, 60], True) == 0
    for hs in itertools.islice(itertools.permutations([5, 9, 13, 0, 2, 7]), 0, 720, 37):
        brute = _min_swaps(list(hs))
        assert perm_distance(list(hs), False) == brute


def _min_swaps(hs: list[int]) -> int:
    """Breadth-first search over swaps (independent of the cycle formula)."""
    target = tuple(sorted(hs, reverse=True))
    frontier, seen, depth = {tuple(hs)}, {tuple(hs)}, 0
    while target not in frontier:
        nxt = set()
        for f in frontier:
            for i, j in itertools.combinations(range(6), 2):
                g = list(f)
                g[i], g[j] = g[j], g[i]
                if tuple(g) not in seen:
                    seen.add(tuple(g))
                    nxt.add(tuple(g))
        frontier, depth = nxt, depth + 1
    return depth


def test_shipped_weights_file() -> None:
    data = json.loads(resources.files("puzzlebots.games.hatris").joinpath("data", "searcher_weights.json").read_text())
    assert data["game"] == "hatris" and data["bot"] == "searcher" and data["names"] == list(METRIC_NAMES)
    assert len(default_weights()) == 8 and "trained_with" in data


def test_wrong_number_of_weights() -> None:
    with pytest.raises(ConfigError):
        GAME.make_bot("searcher", GAME.check_config({}), [1.0, 2.0], 0)
    with pytest.raises(ConfigError):
        GAME.make_bot("nobody", GAME.check_config({}), None, 0)
