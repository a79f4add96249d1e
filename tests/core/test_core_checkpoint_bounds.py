"""A checkpoint is refused on its cheap checks (file size, generation count, list lengths
against the settings) before it is parsed or its CMA-ES history replayed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlebots.core import tuning
from puzzlebots.core.errors import InputError
from puzzlebots.core.tuning import TrainSettings, load_checkpoint, train


def settings(generations: int) -> TrainSettings:
    return TrainSettings(
        "cards",
        "threshold",
        "cma",
        games_per_eval=2,
        generations=generations,
        seed=4,
        sigma=0.5,
        popsize=6,
        config={"cards": 20},
    )


@pytest.fixture
def checkpoint(tmp_path: Path) -> Path:
    train(settings(2), tmp_path / "w.json", jobs=1, progress=False)
    return tmp_path / "w.json.ckpt"


@pytest.fixture
def no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaying the CMA-ES history is the costly part: here it fails the test if it is reached."""

    def refuse(*args: object) -> None:
        raise AssertionError("the CMA-ES history was replayed before the cheap checks refused the file")

    monkeypatch.setattr(tuning, "rebuild_cma", refuse)


def grown(checkpoint: Path, generations: int) -> dict:
    """The checkpoint with its last generation repeated up to ``generations`` (a well-formed, planted file)."""
    doc = json.loads(checkpoint.read_text())
    doc["generation"] = generations
    doc["history"] = [dict(doc["history"][-1], generation=g) for g in range(1, generations + 1)]
    doc["cma"]["told"] = [doc["cma"]["told"][-1]] * generations
    return doc


def test_a_checkpoint_larger_than_its_generations_allow_is_refused_unread(
    checkpoint: Path, no_replay: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkpoint.write_text(json.dumps(grown(checkpoint, 60_000)))
    monkeypatch.setattr(tuning, "read_json", lambda *a, **k: pytest.fail("the file was parsed"))
    with pytest.raises(InputError, match="more than a checkpoint of at most 10 generations can be"):
        load_checkpoint(checkpoint, settings(10), 2)


def test_more_generations_than_the_settings_is_refused_before_the_replay(checkpoint: Path, no_replay: None) -> None:
    checkpoint.write_text(json.dumps(grown(checkpoint, 12)))
    with pytest.raises(InputError, match="holds 12 generations, more than --generations 10"):
        load_checkpoint(checkpoint, settings(10), 2)


def test_a_generation_of_the_wrong_population_is_refused_before_the_replay(checkpoint: Path, no_replay: None) -> None:
    doc = json.loads(checkpoint.read_text())
    doc["cma"]["told"][-1] = doc["cma"]["told"][-1] * 2
    checkpoint.write_text(json.dumps(doc))
    with pytest.raises(InputError, match=r"cma.told\[2\] must be a list of 6 numbers"):
        load_checkpoint(checkpoint, settings(10), 2)


def test_a_well_formed_checkpoint_still_loads(checkpoint: Path) -> None:
    state = load_checkpoint(checkpoint, settings(10), 2)
    assert state.generation == 2 and len(state.cma_told) == 2
