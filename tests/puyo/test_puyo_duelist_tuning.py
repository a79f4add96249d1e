"""Versus tuning: duelist's thresholds rated by game pairs against beam, the same for any number of workers and
after a resume, or against duelist's own shipped thresholds (each seat reads its own); candidates stay whole
numbers in their ranges; bad input is refused with one line."""

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzlebots.core.parameters import ParameterSpace
from puzzlebots.core.registry import get_game
from puzzlebots.core.tuning import TrainSettings, rate_many, train

#: the smallest duelist against the smallest beam (the claim is equal results, not strength), and games cut to a
#: draw after 20 turns each: a pair takes a fraction of a second; on SEED the two generations' ratings differ
TINY = {"duelist_width": 1, "duelist_depth": 1, "duelist_futures": 1}
TINY |= {"beam_width": 1, "beam_depth": 4, "beam_samples": 1}  # one random pair past the three known
TURNS = 20
SEED = 5
PARAMETERS = get_game("puyo").tuned_parameters("duelist")


def settings(method: str, generations: int) -> TrainSettings:
    return TrainSettings(
        "puyo",
        "duelist",
        method,
        games_per_eval=1,
        generations=generations,
        seed=SEED,
        variants=1,
        rounds=1,
        popsize=2,
        init="default",
        config=dict(TINY),
        max_actions=TURNS,
        opponent="beam",
    )


def test_duelist_declares_its_thresholds_with_the_shipped_values():
    config = get_game("puyo").check_config({})
    assert [p.name for p in PARAMETERS] == [
        "duelist_fire_links",
        "duelist_defend",
        "duelist_bury_rows",
        "duelist_crush",
        "duelist_harass",
        "duelist_harass_links",
        "duelist_read_ahead",
        "duelist_threat_growth",
    ]
    assert all(p.low <= config[p.name] == p.default <= p.high for p in PARAMETERS)


@given(st.lists(st.floats(-5, 5, allow_nan=False), min_size=len(PARAMETERS), max_size=len(PARAMETERS)))
def test_a_candidate_is_rounded_and_clipped_into_its_ranges(x):
    values = ParameterSpace(PARAMETERS).values(np.array(x))
    assert all(v == int(v) and p.low <= v <= p.high for p, v in zip(PARAMETERS, values, strict=True))
    get_game("puyo").check_config(ParameterSpace(PARAMETERS).overrides(values))


def test_each_seat_reads_its_own_settings():
    """What ``train --opponent duelist`` rests on: overrides given for one seat reach that seat's bot only. Duelist
    with a larger search on its side against beam plays the game it plays with that search in the shared config
    (beam reads none of those keys), in either seat, and not the game without it."""
    game = get_game("puyo")
    play, config, extra = game.versus_play(game.check_config(TINY), TURNS)
    own = {"duelist_width": 20, "duelist_depth": 3}
    both = game.check_config({**config, **own})
    split = play("duelist", "beam", SEED, config, *extra, sides=(own, {}))
    assert split == play("duelist", "beam", SEED, both, *extra) != play("duelist", "beam", SEED, config, *extra)
    assert play("beam", "duelist", SEED, config, *extra, sides=({}, own)) == play("beam", "duelist", SEED, both, *extra)


def test_a_candidate_is_rated_against_the_shipped_settings_of_its_own_bot(tmp_path: Path):
    """``--opponent duelist``: the candidates play the shipped thresholds, one seat each, and the run is written
    as any other (its ratings are points per game in those pairs)."""
    run_settings = dataclasses.replace(settings("cma", 1), opponent="duelist")
    state = train(run_settings, tmp_path / "self.json", jobs=1, progress=False)
    written = json.loads((tmp_path / "self.json").read_text())
    assert written["trained_with"]["opponent"] == "duelist" and written["weights"] == state.weights
    assert 0.0 <= state.history[0]["rating"] <= 1.0
    # the seats: the candidate's values on the tuned side only, the shipped config shared
    candidate = np.array([p.low for p in PARAMETERS], dtype=float)
    played: list[tuple] = []

    def run_here(fn, args, description):
        played.extend(args)
        return [fn(*a) for a in args]

    rate_many(run_settings, [candidate], [SEED], run_here, "one candidate")
    [(_, bot, opponent, _, shared, _, sides)] = played
    assert (bot, opponent) == ("duelist", "duelist") and shared["duelist_fire_links"] == PARAMETERS[0].default
    assert sides == (ParameterSpace(PARAMETERS).overrides(candidate), {})


def test_a_candidate_is_rated_against_each_opponent_on_the_same_seeds():
    """``--opponent duelist,beam``: every candidate plays each opponent on the same seeds, each as it would
    alone (the shipped thresholds seat by seat, beam with the candidate in the config), and its rating is the
    mean of its ratings against each."""
    mixed = dataclasses.replace(settings("cma", 1), opponent="duelist,beam", max_actions=2 * TURNS)
    candidates = [np.array([p.low for p in PARAMETERS], dtype=float), np.array([p.default for p in PARAMETERS])]
    seeds = [SEED, SEED + 1, SEED + 2, SEED + 3]  # 40 turns: beam wins one of these games
    played: list[tuple] = []

    def run_here(fn, args, description):
        played.extend(args)
        return [fn(*a) for a in args]

    ratings = rate_many(mixed, candidates, seeds, run_here, "two opponents")
    assert [(a[2], a[3]) for a in played] == [(o, s) for _ in candidates for o in ("duelist", "beam") for s in seeds]
    alone = [
        rate_many(dataclasses.replace(mixed, opponent=o), candidates, seeds, run_here, o) for o in ("duelist", "beam")
    ]
    assert ratings == [(a + b) / 2 for a, b in zip(*alone, strict=True)]
    assert alone[0] != alone[1]  # the opponents score differently: a mix-up shows


@pytest.mark.parametrize("method", ["hill", "cma"])
def test_versus_tuning_is_the_same_with_two_workers_and_after_a_resume(tmp_path: Path, method: str):
    # two workers through the command (a process pool forks, which a process whose numba used OpenMP may not)
    options = ["--popsize", "2"] if method == "cma" else ["--variants", "1", "--rounds", "1"]
    tiny = [f"--{key.replace('_', '-')}={value}" for key, value in TINY.items()]
    flags = ["--bot", "duelist", "--opponent", "beam", "--method", method, "--init", "default", "--seed", str(SEED)]
    more = ["--games-per-eval", "1", "--generations", "2", "--max-actions", str(TURNS), "--jobs", "2", "--quiet"]
    done = run("puyo", *flags, *options, *tiny, *more, "--out", str(tmp_path / "two.json"))
    assert done.returncode == 0, done.stderr
    two = json.loads((tmp_path / "two.json").read_text())
    # one worker, stopped after a generation and resumed, against two workers in one go: a difference in either
    # (the workers or the resume) shows
    train(settings(method, 1), tmp_path / "resumed.json", jobs=1, progress=False)
    resumed = train(settings(method, 2), tmp_path / "resumed.json", resume=True, jobs=1, progress=False)
    assert resumed.generation == two["trained_with"]["generations_done"] == 2
    assert resumed.weights == two["weights"]
    assert resumed.history == two["history"]
    space = ParameterSpace(PARAMETERS)
    assert list(space.values(space.unit(resumed.weights))) == resumed.weights  # whole numbers in range
    for entry in resumed.history:
        assert 0.0 <= entry["rating"] <= 1.0  # points per game against beam
    assert len({entry["rating"] for entry in resumed.history}) > 1  # the games decide something: a mix-up shows
    written = json.loads((tmp_path / "resumed.json").read_text())
    assert written["names"] == [p.name for p in PARAMETERS]
    assert written["trained_with"]["opponent"] == "beam"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "puzzlebots", "train", *args],
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["puyo", "--bot", "duelist", "--opponent", "nobody"], "unknown bot"),
        (["puyo", "--bot", "duelist", "--opponent", "duelist,nobody"], "unknown bot"),
        (["puyo", "--bot", "duelist", "--opponent", "beam,beam"], "each once"),
        (["puyo", "--bot", "duelist", "--opponent", "beam,,krieg3"], "each once"),
        (["puyo", "--bot", "duelist", "--opponent", "beam,krieg", "--templates", "x.txt"], "has no effect"),
        (["puyo", "--bot", "beam", "--opponent", "duelist"], "no parameters to tune"),
        (["hatris", "--opponent", "random"], "no versus play"),
        (["puyo", "--bot", "duelist", "--opponent", "beam", "--templates", "x.txt"], "has no effect"),
        (["puyo", "--bot", "duelist", "--opponent", "beam", "--duelist-defend", "9"], "--duelist-defend is what"),
    ],
)
def test_bad_versus_tuning_is_refused_with_one_line_before_any_game(tmp_path: Path, args: list[str], says: str):
    out = tmp_path / "w.json"
    done = run(*args, "--out", str(out))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and says in lines[0], done.stderr
    assert not out.exists() and not out.with_name("w.json.ckpt").exists()
