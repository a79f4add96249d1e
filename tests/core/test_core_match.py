"""core.match: the Elo estimate and the SPRT against hand-computed values and their invariants, and the pair
runner's seed order, resumption and stop."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from puzzlebots.core.errors import ConfigError
from puzzlebots.core.match import (
    Sprt,
    elo_estimate,
    elo_of_score,
    game_points,
    llr,
    pentanomial,
    play_pair,
    run_match,
    score_of_elo,
    summarize,
    valid_pair,
)

counts5 = st.lists(st.integers(0, 50), min_size=5, max_size=5).filter(lambda c: sum(c) > 0)
elos = st.floats(-500, 500, allow_nan=False)


def test_elo_of_a_trinomial_by_hand() -> None:
    # 30 wins, 20 draws, 10 losses: score 2/3, so Elo -400 log10(1/2) = 120.41; per-game variance
    # (10 (2/3)^2 + 20 (1/6)^2 + 30 (1/3)^2) / 60 = 5/36, standard error sqrt(5/36/60) = 0.048113;
    # 2/3 -+ 1.959964 * 0.048113 = 0.572368 and 0.760965, whose Elos are 50.64 and 201.16
    est = elo_estimate([10, 20, 30])
    assert est.elo == pytest.approx(400 * math.log10(2))
    assert est.low == pytest.approx(50.642, abs=1e-3)
    assert est.high == pytest.approx(201.162, abs=1e-3)
    assert est.los == pytest.approx(0.99973, abs=1e-5)  # Phi((2/3 - 1/2) / 0.048113) = Phi(3.464)


def test_elo_of_a_pentanomial_by_hand() -> None:
    # pairs 0:1 1/2:0 1:2 3/2:0 2:7; the empty bins weigh 0.001 each, 10.002 pairs in all. Per-game score
    # (0.001*0.25 + 2*0.5 + 0.001*0.75 + 7) / 10.002 = 0.799940, Elo -400 log10(1/0.79994 - 1) = 240.759;
    # variance (0.79994^2 + 0.001*0.54994^2 + 2*0.29994^2 + 0.001*0.04994^2 + 7*0.20006^2) / 10.002 = 0.110008,
    # standard error sqrt(0.110008 / 10.002) = 0.104875: the interval is 0.79994 -+ 0.205552
    est = elo_estimate([1, 0, 2, 0, 7])
    assert est.elo == pytest.approx(240.759, abs=1e-3)
    assert est.low == pytest.approx(-400 * math.log10(1 / 0.594388 - 1), abs=0.005)  # 66.384, to the rounding above
    assert est.high == pytest.approx(elo_of_score(1.0))  # clamped: a score of 0.999 is +1199.8 Elo
    assert est.high == pytest.approx(1199.83, abs=0.01)


def test_llr_without_draws_is_the_binomial_ratio() -> None:
    # with no draws the most likely distributions of mean s0, s1 are the Bernoulli ones: the LLR is
    # W log(s1/s0) + L log((1-s1)/(1-s0)); the 0.001 weight of the empty draw bin moves it by < 1e-4
    wins, losses = 30, 10
    s0, s1 = score_of_elo(0), score_of_elo(100)
    want = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert llr([losses, 0, wins], 0, 100) == pytest.approx(want, abs=1e-4)


def test_llr_near_the_normal_approximation() -> None:
    # fishtest's large-sample form: N (s1 - s0)(2 s - s0 - s1) / (2 var), here per pair of the normalized score
    counts = [10789, 19328, 33806, 19402, 10543]
    n = sum(counts)
    mean = sum(i / 4 * c for i, c in enumerate(counts)) / n
    var = sum((i / 4 - mean) ** 2 * c for i, c in enumerate(counts)) / n
    s0, s1 = score_of_elo(-3), score_of_elo(1)
    approx = n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert llr(counts, -3, 1) == pytest.approx(approx, rel=1e-3)


def test_sprt_bounds_and_decisions() -> None:
    test = Sprt(0, 400)
    assert test.lower == pytest.approx(math.log(0.05 / 0.95))
    assert test.upper == pytest.approx(math.log(0.95 / 0.05))
    assert test.decide([0, 0, 0, 0, 4])[1] is None  # 4 pairs won outright: LLR 2.39, not yet 2.94
    assert test.decide([0, 0, 0, 0, 5])[1] == "H1"
    assert test.decide([5, 0, 0, 0, 0])[1] == "H0"
    assert test.decide([1, 1, 1, 1, 1])[1] == "H0"  # a score of 1/2 lies far from 400 Elo
    assert test.decide([0, 0, 1, 1, 1])[1] is None


@pytest.mark.parametrize("bounds", [(10, 10), (20, 5), (-3000, 0), (0, 2001), (math.nan, 1)])
def test_sprt_refuses_bad_bounds(bounds: tuple[float, float]) -> None:
    with pytest.raises(ConfigError):
        Sprt(*bounds)


@pytest.mark.parametrize("rates", [(0, 0.05), (0.05, 0.5), (-0.1, 0.1)])
def test_sprt_refuses_bad_error_rates(rates: tuple[float, float]) -> None:
    with pytest.raises(ConfigError):
        Sprt(0, 10, *rates)


@given(counts5)
def test_symmetric_scores_give_zero_elo(counts: list[int]) -> None:
    mirrored = [a + b for a, b in zip(counts, reversed(counts), strict=True)]
    est = elo_estimate(mirrored)
    assert est.elo == pytest.approx(0, abs=1e-6)
    assert est.low == pytest.approx(-est.high, abs=1e-6)
    assert llr(mirrored, -50, 50) == pytest.approx(0, abs=1e-6)


@given(counts5)
def test_swapping_the_bots_negates_the_elo(counts: list[int]) -> None:
    ours, theirs = elo_estimate(counts), elo_estimate(counts[::-1])
    assert theirs.elo == pytest.approx(-ours.elo, abs=1e-6)
    assert theirs.low == pytest.approx(-ours.high, abs=1e-6)
    assert ours.low <= ours.elo <= ours.high


@settings(max_examples=200)
@given(counts5, elos, st.floats(1, 300), st.integers(0, 3))
def test_llr_grows_with_wins(counts: list[int], elo0: float, gap: float, bin_: int) -> None:
    """Moving one pair to the next better bin never lowers the LLR, when no bin empties or fills on the way: an
    empty bin is regularized to a weight of its own, a step that can lower the LLR by a hair (hypothesis found
    [1, 1, 0, 0, 0] to [0, 2, 0, 0, 0] at 0, 1 Elo lowering it by 1.2e-6)."""
    assume(counts[bin_] >= 2 and counts[bin_ + 1] >= 1)
    better = list(counts)
    better[bin_] -= 1
    better[bin_ + 1] += 1
    assert llr(better, elo0, elo0 + gap) >= llr(counts, elo0, elo0 + gap) - 1e-9


@given(elos)
def test_elo_and_score_are_inverse(elo: float) -> None:
    assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo, abs=1e-6)


def pair(seed: int, first: int | None, second: int | None) -> dict[str, Any]:
    return {"seed": seed, "games": [{"winner": first, "seed": seed}, {"winner": second, "seed": seed}]}


def test_game_points_see_a_in_both_seats() -> None:
    assert game_points(pair(0, 0, 1)) == (2, 2)  # A wins as player 0, then as player 1
    assert game_points(pair(0, 1, 0)) == (0, 0)
    assert game_points(pair(0, None, 0)) == (1, 0)
    assert pentanomial([pair(0, 0, 1), pair(1, None, None), pair(2, 1, 1), pair(3, None, 0)]) == [0, 1, 2, 0, 1]


def seats(bot_a: str, bot_b: str, seed: int, shared: str, **kw: Any) -> dict[str, Any]:
    """A game that only says who sat where with which settings (A wins when it holds the higher setting)."""
    a, b = kw.get("sides", ({}, {}))
    return {"seats": (bot_a, a, bot_b, b, shared), "winner": 0 if a.get("level", 0) > b.get("level", 0) else 1}


def test_a_pair_keeps_each_bots_own_settings_in_both_seats() -> None:
    played = play_pair(seats, "duelist", "duelist", 7, "shared", sides=({"level": 2}, {"level": 1}))
    assert [g["seats"] for g in played["games"]] == [
        ("duelist", {"level": 2}, "duelist", {"level": 1}, "shared"),
        ("duelist", {"level": 1}, "duelist", {"level": 2}, "shared"),
    ]
    assert game_points(played) == (2, 2)  # the stronger settings win in both seats: A's, both times
    # without sides a game is called as before, so a game that takes no settings per seat still plays pairs
    plain = play_pair(lambda a, b, seed, shared: {"winner": 0 if a == "x" else 1}, "x", "y", 7, "shared")
    assert game_points(plain) == (2, 2)


@pytest.mark.parametrize(
    "record",
    [
        None,
        [],
        {"seed": 3},
        {"seed": 4, "games": []},
        {"seed": 3, "games": [{"winner": 0}]},
        {"seed": 3, "games": [{"winner": 0}, {"winner": 2}]},
        {"seed": 3, "games": [{"winner": True}, {}]},
        {"seed": 3, "games": [{"winner": 0}, {}]},
        {"seed": 3.0, "games": [{"winner": 0}, {"winner": 1}]},
    ],
)
def test_valid_pair_refuses_malformed_records(record: Any) -> None:
    assert not valid_pair(record, 3)
    assert valid_pair(pair(3, 0, None), 3)


def seed_game(bot_a: str, bot_b: str, seed: int, strong: str) -> dict[str, Any]:
    """A toy game: the ``strong`` bot wins seeds not divisible by 3, the others are draws."""
    return {"winner": None if seed % 3 == 0 else (0 if bot_a == strong else 1), "seed": seed}


def test_run_match_plays_pairs_in_seed_order_and_resumes() -> None:
    seen: list[int] = []
    whole = run_match(
        seed_game, "a", "b", range(10, 16), ("a",), jobs=1, progress=False, on_pair=lambda p: seen.append(p["seed"])
    )
    assert [p["seed"] for p in whole.pairs] == list(range(10, 16)) == seen
    assert pentanomial(whole.pairs) == [0, 0, 2, 0, 4]
    done = {p["seed"]: p for p in whole.pairs if p["seed"] in (11, 14)}
    seen.clear()
    resumed = run_match(
        seed_game,
        "a",
        "b",
        range(10, 16),
        ("a",),
        done=done,
        jobs=1,
        progress=False,
        on_pair=lambda p: seen.append(p["seed"]),
    )
    assert resumed.pairs == whole.pairs
    assert seen == [10, 12, 13, 15]
    summary = summarize(("a", "b"), whole, None)
    assert summary["wins"] == [8, 0] and summary["draws"] == 4 and summary["losses"] == [0, 8]


def test_run_match_stops_when_the_test_decides() -> None:
    test = Sprt(0, 400)
    seeds = range(1, 100)  # no draws until seed 3; 5 pairs won outright reach the bound at the 6th pair
    seen: list[int] = []
    outcome = run_match(
        seed_game, "a", "b", seeds, ("a",), sprt=test, jobs=1, progress=False, on_pair=lambda p: seen.append(p["seed"])
    )
    n = len(outcome.pairs)
    assert outcome.decision == "H1" and n < len(seeds) and seen == list(range(1, n + 1))
    assert test.decide(pentanomial(outcome.pairs[:-1]))[1] is None
    assert outcome.llr == pytest.approx(test.decide(pentanomial(outcome.pairs))[0])
    # pairs finished past the deciding one (another worker's, or a resumed file's) never count
    extra = {
        p["seed"]: p for p in run_match(seed_game, "a", "b", range(1, n + 4), ("a",), jobs=1, progress=False).pairs
    }
    again = run_match(seed_game, "a", "b", seeds, ("a",), sprt=test, done=extra, jobs=1, progress=False)
    assert again.pairs == outcome.pairs and again.decision == "H1"
    assert summarize(("a", "b"), again, test)["sprt"]["decision"] == "H1"


def stalling_game(bot_a: str, bot_b: str, seed: int, first_stall: int) -> dict[str, Any]:
    """A wins every game; from seed ``first_stall`` on a game takes ten minutes."""
    if seed >= first_stall:
        time.sleep(600)
    return {"winner": 0 if bot_a == "a" else 1}


def live_children() -> set[int]:
    """This process's children that are not zombies, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[1]) == os.getpid() and fields[0] not in "ZX":
                found.add(int(entry.name))
    return found


def test_a_decided_match_ends_the_games_still_running() -> None:
    """Two workers: the test decides at the 5th pair while both are inside a ten-minute game; they are ended."""
    outcome = run_match(stalling_game, "a", "b", range(1, 50), (6,), sprt=Sprt(0, 400), jobs=2, progress=False)
    assert outcome.decision == "H1" and [p["seed"] for p in outcome.pairs] == [1, 2, 3, 4, 5]
    for _ in range(600):  # the workers are terminated, not left to finish their ten minutes
        if not live_children():
            break
        time.sleep(0.1)
    assert not live_children()
