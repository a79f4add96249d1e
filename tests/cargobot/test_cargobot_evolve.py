"""``evolve``: deterministic per seed, within its budget, scored like ``climb``, inputs checked."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from puzzlebots.cli.app import cli
from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot.bots.climb import score
from puzzlebots.games.cargobot.bots.evolve import evolve
from puzzlebots.games.cargobot.engine import run_vaguery
from puzzlebots.games.cargobot.levels import find_level


def test_evolve_is_deterministic_and_solves_cargo_101() -> None:
    level = find_level("Cargo 101")
    first = evolve(level, seed=3, population=40, evaluations=4_000)
    assert first == evolve(level, seed=3, population=40, evaluations=4_000)
    assert first.solved and first.evaluations <= 4_000
    assert run_vaguery(first.script, level.board(), level.goal_board(), level.claw).solved


def test_evolve_scores_as_climb_and_keeps_the_budget() -> None:
    level = find_level("The Swap")
    result = evolve(level, seed=1, population=30, evaluations=95, elite=1)
    assert result.evaluations <= 95 and result.generations == (95 - 30) // 29
    assert result.score == score(level, result.script, "vaguery", 200)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"population": 1}, "population"),
        ({"population": 10, "elite": 10}, "elite"),
        ({"population": 10, "elite": -1}, "elite"),
        ({"population": 10, "evaluations": 9}, "budget"),
        ({"crossover": 1.5}, "crossover"),
    ],
)
def test_hostile_options(options: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        evolve(find_level("Cargo 101"), **options)


def _cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["cargobot", "evolve", "--method", "ga", *args])
    return result.exit_code, result.stdout, result.stderr


def test_evolve_command_json_matches_the_function() -> None:
    code, out, _ = _cli("--level", "Cargo 101", "--seed", "3", "--population", "40", "--evaluations", "4000", "--json")
    assert code == 0
    expected = evolve(find_level("Cargo 101"), seed=3, population=40, evaluations=4_000)
    assert json.loads(out) == {**expected.to_json(), "score": list(expected.score)}


@pytest.mark.parametrize(
    "args, message",
    [
        (("--level", "nope"), "unknown level"),
        (("--level", "Mirror", "--population", "10", "--evaluations", "5"), "budget"),
        (("--level", "Mirror", "--population", "10", "--elite", "10"), "elite"),
        (("--level", "Mirror", "--crossover", "nan"), "finite"),
        (("--level", "Mirror", "--population", "1"), "population"),
    ],
)
def test_evolve_command_refuses_bad_input(args: tuple, message: str) -> None:
    code, _, err = _cli(*args)
    assert code == 2 and message in err and err.count("\n") <= 2, err
