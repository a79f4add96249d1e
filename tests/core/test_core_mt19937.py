"""``core.mt19937`` against ``random.Random``: every call kind, in any order, over several twists of the state."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.core import mt19937

CALL = st.one_of(
    st.tuples(st.just("random"), st.just(0)),
    st.tuples(st.just("randbelow"), st.integers(1, 2**32 - 1)),
    st.tuples(st.just("randbelow"), st.integers(1, 64)),
    st.tuples(st.just("getrandbits"), st.integers(0, 32)),
    st.tuples(st.just("uint32"), st.just(0)),
)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**70), st.lists(CALL, min_size=1, max_size=40), st.integers(1, 80))
def test_the_kernel_draws_what_python_draws(seed: int, calls: list[tuple[str, int]], rounds: int) -> None:
    """``calls`` repeated ``rounds`` times (up to 3,200 draws, 5 twists); the states agree at the end."""
    rng = random.Random(seed)
    words = mt19937.state(rng)
    for _ in range(rounds):
        for kind, n in calls:
            if kind == "random":
                assert mt19937.random_float(words) == rng.random()
            elif kind == "randbelow":
                assert mt19937.randbelow(words, n) == rng.randrange(n)
            elif kind == "getrandbits":
                assert mt19937.getrandbits(words, n) == rng.getrandbits(n)
            else:
                assert mt19937.genrand_uint32(words) == rng.getrandbits(32)
    assert tuple(words.tolist()) == rng.getstate()[1]


def test_choice_is_randbelow_of_the_length() -> None:
    """``choice`` (what the climber draws tokens with) takes one ``_randbelow`` of the sequence's length."""
    rng = random.Random(7)
    words = mt19937.state(rng)
    pool = list(range(38))
    for _ in range(2000):
        assert pool[mt19937.randbelow(words, len(pool))] == rng.choice(pool)
