"""Tuning: both methods improve the toy bot, checkpoint every generation (JSON), and resume to the same result."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from toygame import GAME

from puzzlebots.core.errors import ConfigError
from puzzlebots.core.runner import play_episode
from puzzlebots.core.tuning import TrainSettings, initial_weights, load_checkpoint, normalise, train


def settings(method: str, generations: int) -> TrainSettings:
    return TrainSettings(
        "cards",
        "threshold",
        method,
        games_per_eval=6,
        generations=generations,
        seed=4,
        variants=4,
        rounds=2,
        sigma=0.5,
        popsize=6,
    )


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


def cli_train(tmp_path: Path, out: str, method: str, generations: int, *extra: str) -> subprocess.CompletedProcess:
    """``puzzlebots train cards`` in a fresh process (the toy game is registered through the environment)."""
    own = ["--variants", "4", "--rounds", "2"] if method == "hill" else ["--popsize", "6"]
    args = [
        sys.executable,
        "-m",
        "puzzlebots",
        "train",
        "cards",
        "--method",
        method,
        "--games-per-eval",
        "6",
        "--generations",
        str(generations),
        "--seed",
        "4",
        *own,
        "--sigma",
        "0.5",
        "--out",
        str(tmp_path / out),
        "--jobs",
        "1",
        "--quiet",
        *extra,
    ]
    return subprocess.run(args, capture_output=True, text=True, env=os.environ.copy(), timeout=300)


@pytest.mark.parametrize("method", ["hill", "cma"])
def test_resume_in_a_new_process_matches_an_uninterrupted_run(tmp_path: Path, method: str):
    assert cli_train(tmp_path, "straight.json", method, 3).returncode == 0
    assert cli_train(tmp_path, "split.json", method, 2).returncode == 0
    ckpt = json.loads((tmp_path / "split.json.ckpt").read_text())  # a checkpoint is plain JSON
    assert ckpt["format"] == 3 and ckpt["generation"] == 2
    res = cli_train(tmp_path, "split.json", method, 3, "--resume")
    assert res.returncode == 0, res.stderr
    straight = json.loads((tmp_path / "straight.json").read_text())
    split = json.loads((tmp_path / "split.json").read_text())
    assert split["weights"] == straight["weights"]
    assert split["history"] == straight["history"]


def test_cma_runs_do_not_depend_on_the_global_numpy_generator(tmp_path: Path):
    a = train(settings("cma", 3), tmp_path / "a.json", jobs=1, progress=False)
    # other code drawing from np.random between generations must not change what CMA-ES samples
    b = train(
        settings("cma", 3), tmp_path / "b.json", jobs=1, progress=False, on_generation=lambda state: np.random.random(5)
    )
    assert a.weights == b.weights


def test_checkpoint_round_trip_keeps_everything(tmp_path: Path):
    state = train(settings("cma", 2), tmp_path / "w.json", jobs=1, progress=False)
    later = settings("cma", 5)
    later.config = GAME.check_config({})  # as train() passes it
    loaded = load_checkpoint(tmp_path / "w.json.ckpt", later, 2)
    assert (loaded.generation, loaded.weights, loaded.rating) == (state.generation, state.weights, state.rating)
    assert loaded.history == state.history and loaded.cma_told == state.cma_told and loaded.cma_x0 == state.cma_x0
    assert list(loaded.cma_es.mean) == list(state.cma_es.mean)


def test_resume_names_every_setting_that_differs(tmp_path: Path):
    train(settings("hill", 1), tmp_path / "w.json", jobs=1, progress=False)
    other = settings("hill", 3)
    other.sigma, other.variants, other.config = 0.25, 5, {"cards": 30}
    with pytest.raises(ConfigError) as info:
        train(other, tmp_path / "w.json", resume=True, jobs=1, progress=False)
    message = str(info.value)
    assert "\n" not in message
    for part in ("variants=4 (now 5)", "sigma=0.5 (now 0.25)", "config={'cards': 20} (now {'cards': 30})"):
        assert part in message
    assert "generations" not in message  # the one setting a resumed run may change


def test_train_refuses_to_overwrite_unless_forced(tmp_path: Path):
    out = tmp_path / "w.json"
    first = train(settings("hill", 1), out, jobs=1, progress=False)
    before = out.read_bytes()
    with pytest.raises(ConfigError, match="already exist.*--resume.*--force"):
        train(settings("hill", 2), out, jobs=1, progress=False)
    assert out.read_bytes() == before
    (tmp_path / "w.json.ckpt").unlink()  # the weights file alone is protected too
    with pytest.raises(ConfigError, match=r"w\.json already exists"):
        train(settings("hill", 1), out, jobs=1, progress=False)
    with pytest.raises(ConfigError, match="give one of them"):
        train(settings("hill", 1), out, resume=True, force=True, jobs=1, progress=False)
    again = train(settings("hill", 1), out, force=True, jobs=1, progress=False)
    assert again.weights == first.weights and again.generation == 1


def test_training_plays_only_seeds_0_to_9999_fresh_each_generation():
    """Strength is reported on seeds from 100,000 up: training must never have played one of them."""
    from puzzlebots.core.tuning import TRAINING_SEEDS, generation_seeds

    s = settings("hill", 3)
    s.games_per_eval = 50
    gens = [generation_seeds(s, g) for g in range(3)]
    for seeds in gens:
        assert len(set(seeds)) == 50 and all(0 <= x < TRAINING_SEEDS for x in seeds)
    assert gens[0] != gens[1] and generation_seeds(s, 1) == gens[1]  # fresh per generation, reproducible
    s.games_per_eval = TRAINING_SEEDS + 1
    with pytest.raises(ConfigError, match="training seeds"):
        train(s, Path("unused.json"), jobs=1, progress=False)


def test_cma_is_imported_without_matplotlib_which_still_imports_for_a_plot():
    code = (
        "import sys\n"
        "from puzzlebots.core.tuning import import_cma\n"
        "cma = import_cma()\n"
        "assert 'matplotlib' not in sys.modules, 'cma loaded matplotlib'\n"
        "es = cma.CMAEvolutionStrategy([0.5, 0.5], 0.3, {'verbose': -9, 'popsize': 4})\n"
        "es.tell(es.ask(), [1.0, 2.0, 3.0, 4.0])\n"
        "import matplotlib.pyplot\n"
    )
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
