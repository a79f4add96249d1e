"""The climb kernel's parts (``kernels/climb.py``): the seen set against a Python set, a hash match that is not the
same sequence, the chunked calls, and the kernel climb against the batched one on random levels and seeds."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.games.cargobot.bots import climb as climber
from puzzlebots.games.cargobot.kernels import climb as kernel
from puzzlebots.games.cargobot.levels import find_level, load_levels

PLAYABLE = [lv for lv in load_levels() if not lv.subproblem]


def add(seen: kernel.Seen, counters: np.ndarray, tokens: list[int]) -> bool:
    array = np.zeros(kernel.MOST_TOKENS, np.int64)
    array[: len(tokens)] = tokens
    seen.make_room(int(counters[kernel.SEEN]), 1)
    return bool(kernel.add_seen(array, len(tokens), *seen.arrays, counters))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=0, max_size=kernel.MOST_TOKENS - 1), max_size=300))
def test_the_seen_set_is_a_set_of_sequences(sequences: list[list[int]]) -> None:
    """New exactly when Python's set has not seen the sequence, through the growth of a small table."""
    seen, counters, python = kernel.Seen(capacity=4), np.zeros(kernel.COUNTERS, np.int64), set()
    for tokens in sequences:
        assert add(seen, counters, tokens) == (tuple(tokens) not in python)
        python.add(tuple(tokens))
    assert counters[kernel.SEEN] == len(python)


def test_a_hash_match_is_not_a_sequence_match() -> None:
    """A stored sequence whose hash equals another's does not make the other seen."""
    seen, counters = kernel.Seen(capacity=4), np.zeros(kernel.COUNTERS, np.int64)
    other = np.array([3, 1, 4, 1, 5], np.int64)
    h = int(kernel.sequence_hash(other, len(other)))
    seen.entries[0, :2], seen.lengths[0], seen.hashes[0] = [2, 7], 2, h
    seen.table[h & (len(seen.table) - 1)] = 0
    counters[kernel.SEEN] = 1
    assert add(seen, counters, other.tolist())
    assert not add(seen, counters, other.tolist())
    assert counters[kernel.SEEN] == 2


@settings(max_examples=12, deadline=None)
@given(
    st.integers(0, len(PLAYABLE) - 1),
    st.integers(0, 10**6),
    st.sampled_from([None, (8, 5), (6, 6, 4), (4, 4, 4, 4)]),
    st.integers(1, 3),
    st.sampled_from([20, 200, 1000]),
)
def test_the_kernel_climb_is_the_batched_climb(
    index: int, seed: int, functions: tuple[int, ...] | None, stop_after: int, step_limit: int
) -> None:
    level = PLAYABLE[index]
    if functions is not None:
        calls = tuple(f"f{k}" for k in range(1, len(functions) + 1))
        level = dataclasses.replace(level, functions=functions, commands=("right", "pickup", "left", *calls))
    args = (level, seed, "game", 400, stop_after, step_limit)
    assert climber.kernel_climb(*args) == climber.batched_climb(*args)


def test_short_chunks_carry_the_climb(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three iterations a call: the state carried between calls makes the same climb and the same progress."""
    level = find_level("Mirror")
    whole = climber.kernel_climb(level, 4, "game", 1_300, 21)
    monkeypatch.setattr(climber, "CHUNK_TICKS", 3 * climber.STEP_LIMIT)
    steps: list[int] = []
    assert climber.kernel_climb(level, 4, "game", 1_300, 21, progress=steps.append) == whole
    assert steps == [500, 500]


def test_the_kernel_climb_is_game_only() -> None:
    with pytest.raises(climber.PuzzlebotsError):
        climber.kernel_climb(find_level("Mirror"), 0, "vaguery", 10, 1)
