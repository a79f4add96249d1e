"""Hypothesis properties: hats are conserved, heights follow the nesting table, play is deterministic,
a recorded replay reproduces its own hashes."""

from __future__ import annotations

import itertools
import random
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.core.errors import InputError
from puzzlebots.core.replay import check_replay, read_replay, write_replay
from puzzlebots.core.runner import play_episode
from puzzlebots.games.hatris.engine import HatrisState
from puzzlebots.games.hatris.game import GAME
from puzzlebots.games.hatris.rules import HEIGHT, NEST_ROM

configs = st.fixed_dictionaries(
    {
        "pair_source": st.sampled_from(["nes", "uniform"]),
        "start_level": st.sampled_from([0, 5, 9, 19, 38, 59]),
        "quota": st.integers(1, 4),
        "prng_rotate": st.sampled_from(["circular8", "carry_through"]),
        "down": st.sampled_from(["hard_drop", "gravity"]),
    }
)


def conserved(s: HatrisState) -> bool:
    in_flight = 0 if s.current is None else 2
    return s.hats_spawned + s.hats_refilled == (
        s.hats_on_field() + s.hats_vanished + s.hats_removed + s.hats_discarded + s.hats_cleared + in_flight
    )


def random_game(seed: int, config: dict, steps: int) -> list[HatrisState]:
    rng = random.Random(seed)
    s = HatrisState(seed, config)
    states = [s.clone()]
    for _ in range(steps):
        if s.is_terminal():
            break
        actions = s.legal_actions()
        helpers = [a for a in actions if a[0] != "place"]
        # helpers are most of the actions; prefer placements so games get long enough to earn them
        places = actions[: len(actions) - len(helpers)]
        s.apply(rng.choice(helpers) if helpers and rng.random() < 0.3 else rng.choice(places))
        states.append(s.clone())
    return states


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), config=configs)
def test_hats_are_conserved(seed: int, config: dict) -> None:
    for s in random_game(seed, config, 150):
        assert conserved(s)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), config=configs)
def test_pile_height_is_offsets_plus_top_hat(seed: int, config: dict) -> None:
    for s in random_game(seed, config, 60):
        for pile, h in zip(s.piles, s.heights(), strict=True):
            expected = sum(NEST_ROM[lo][up] for lo, up in itertools.pairwise(pile)) + (HEIGHT[pile[-1]] if pile else 0)
            assert h == expected


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), config=configs)
def test_same_seed_same_game(seed: int, config: dict) -> None:
    a = [s.state_hash() for s in random_game(seed, config, 80)]
    b = [s.state_hash() for s in random_game(seed, config, 80)]
    assert a == b


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_replay_reproduces_its_hashes(seed: int) -> None:
    ep = play_episode(GAME, "searcher", seed, {"max_spawns": 300}, record=True, hash_every=7)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        write_replay(path, ep, GAME.rules_version, 7)
        check = check_replay(read_replay(path))
    assert check.divergence is None and check.checked_hashes == len(ep.hashes)
    # another legal first placement: the check reports a diverging hash
    first = GAME.decode_action(ep.actions[0])
    other = next(a for a in GAME.new_state(seed, GAME.check_config({})).legal_actions() if a != first)
    ep.actions[0] = GAME.encode_action(other)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "edited.jsonl"
        write_replay(path, ep, GAME.rules_version, 7)
        try:
            edited = check_replay(read_replay(path))
        except InputError:  # a later action no longer fits the changed game
            return
    assert edited.divergence is not None
