"""Tuning: both methods improve the toy bot, checkpoint every generation, and resume to the same result."""

from pathlib import Path

import numpy as np
import pytest
from toygame import GAME

from puzzlebots.core.errors import ConfigError
from puzzlebots.core.runner import play_episode
from puzzlebots.core.tuning import TrainSettings, initial_weights, normalise, train


def settings(method: str, generations: int) -> TrainSettings:
    return TrainSettings("cards", "threshold", method, games_per_eval=6, generations=generations, seed=4,
                         variants=4, rounds=2, sigma=0.5, popsize=6)


def test_normalise_sums_to_100_and_is_non_negative():
    w = normalise(np.array([1.0, -3.0, 0.0, 4.0]))
    assert w.sum() == pytest.approx(100.0) and (w >= 0).all()
    assert list(w) == pytest.approx([12.5, 37.5, 0.0, 50.0])


@pytest.mark.parametrize("method", ["hill", "cma"])
def test_resume_gives_the_same_weights_as_one_run(tmp_path: Path, method: str):
    straight = train(settings(method, 4), tmp_path / "a.json", jobs=1, progress=False)
    train(settings(method, 2), tmp_path / "b.json", jobs=1, progress=False)
    assert (tmp_path / "b.json.ckpt").exists()
    resumed = train(settings(method, 4), tmp_path / "b.json", resume=True, jobs=1, progress=False)
    assert resumed.generation == 4
    assert resumed.weights == pytest.approx(straight.weights)
    assert [h["rating"] for h in resumed.history] == [h["rating"] for h in straight.history]


def test_hill_climber_finds_a_better_rule_than_its_random_start(tmp_path: Path):
    s = settings("hill", 6)
    s.seed, s.sigma = 15, 1.0  # a random start that takes no card
    start = initial_weights(s, 2, None)
    state = train(s, tmp_path / "w.json", jobs=1, progress=False)

    def held_out(w):
        return np.mean([GAME.fitness(play_episode("cards", "threshold", k, weights=w).result) for k in range(200)])

    # the best rule takes the cards above 5: the learnt weights do that, the random start did not
    w = state.weights
    assert not 0.5 < start[0] / start[1] < 2.0
    assert 0.5 < w[0] / w[1] < 2.0
    assert held_out(w) > held_out(list(start)) + 5


def test_resume_with_other_settings_is_refused(tmp_path: Path):
    train(settings("hill", 1), tmp_path / "w.json", jobs=1, progress=False)
    other = settings("hill", 2)
    other.games_per_eval = 3
    with pytest.raises(ConfigError, match="games_per_eval"):
        train(other, tmp_path / "w.json", resume=True, jobs=1, progress=False)
    with pytest.raises(ConfigError, match="no checkpoint"):
        train(settings("hill", 1), tmp_path / "x.json", resume=True, jobs=1, progress=False)
