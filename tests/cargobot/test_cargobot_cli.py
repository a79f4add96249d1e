"""The click group: happy paths, and every kind of bad input as one ``error:`` line with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlebots.cli.app import cli
from puzzlebots.core.errors import ConfigError
from puzzlebots.core.protocols import Episodic, capability
from puzzlebots.games.cargobot.game import GAME
from puzzlebots.games.cargobot.language import parse_registers
from puzzlebots.games.cargobot.levels import find_level

INVERTER = "call2 call2 call2 call2 R call1 prog_2 claw R claw L"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["cargobot", *args])
    return result.exit_code, result.stdout, result.stderr


def test_levels_table_and_json() -> None:
    code, out, _ = _run("levels", "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 40 and rows[3]["name"] == "Inverter" and rows[3]["best_known"] == 10
    code, out, _ = _run("levels")
    assert code == 0 and "Cargo-Bot levels" in out


def test_run_json_game_and_vaguery() -> None:
    code, out, _ = _run("run", "--level", "Inverter", "--program", INVERTER, "--json")
    data = json.loads(out)
    assert code == 0
    assert {k: data[k] for k in ("outcome", "steps", "moves", "crashes", "topples", "claw", "holding", "stars")} == {
        "outcome": "solved",
        "steps": 107,
        "moves": 83,
        "crashes": 0,
        "topples": 0,
        "claw": 6,
        "holding": None,
        "stars": 3,
    }
    assert data["registers"] == 10
    code, out, _ = _run("run", "--level", "inverter", "--program", INVERTER, "--semantics", "vaguery", "--json")
    assert code == 0 and (json.loads(out)["outcome"], json.loads(out)["steps"]) == ("solved", 107)
    code, out, _ = _run("run", "--level", "inverter", "--program", INVERTER, "--step-limit", "50", "--json")
    assert code == 0 and (json.loads(out)["outcome"], json.loads(out)["steps"]) == ("out_of_steps", 50)
    code, out, _ = _run(
        "run",
        "--stacks",
        '[["r"],[],[]]',
        "--goal",
        '[[],[],["r"]]',
        "--program",
        "claw R R R",
        "--semantics",
        "vaguery",
        "--fragile",
        "--json",
    )
    data = json.loads(out)
    assert (data["outcome"], data["crashes"], data["steps"], data["stars"]) == ("crashed", 1, 4, None)


def test_stars_are_the_games_1_to_3_in_the_cli_and_on_the_page() -> None:
    """``cargobot run`` and the page's ``run`` rate the same program alike: the game's stars, 1-3, with the
    register count beside them (and the win screen's note on the designer's size)."""
    from puzzlebots.games.cargobot.view import run as page_run

    for name, program in (("Inverter", INVERTER), ("Cargo 101", "claw R claw"), ("Cargo 101", "claw R L R claw")):
        code, out, _ = _run("run", "--level", name, "--program", program)
        page = page_run(name, program)
        code_json, out_json, _ = _run("run", "--level", name, "--program", program, "--json")
        data = json.loads(out_json)
        assert code == 0 and code_json == 0 and page["solved"]
        assert 1 <= page["stars"] <= 3 and data["stars"] == page["stars"]
        assert data["registers"] == page["registers"]
        rating = find_level(name).rating(parse_registers(program))
        assert rating in out and rating in page["message"]
        assert f"{page['stars']} star" in rating and f"({page['registers']} registers" in rating


def test_run_watch_draws_frames() -> None:
    code, out, _ = _run("run", "--level", "Cargo 101", "--program", "claw R claw", "--watch", "--delay", "0")
    assert code == 0 and "step 3" in out and "[Y]" in out


def test_solve_and_climb_commands(tmp_path: Path) -> None:
    target = tmp_path / "solve.json"
    code, out, _ = _run("solve", "--level", "Re-Curses", "--jobs", "1", "--json", str(target))
    assert code == 0 and "solved 1/1" in out
    (row,) = json.loads(target.read_text())
    assert (row["solved"], row["size"], row["stars"], row["program"]) == (True, 5, 3, "claw R claw L call1")
    code, out, _ = _run("climb", "--level", "Cargo 101", "--seed", "3", "--stop-after", "1", "--json")
    assert code == 0 and json.loads(out)["solved"] is True


BAD = [
    (("run", "--level", "Nowhere", "--program", "R"), "unknown level 'Nowhere'"),
    (("run", "--level", "Cargo 101", "--program", "claw jump"), "unknown token 'jump'"),
    (("run", "--level", "Cargo 101", "--program", "claw R_red claw"), "condition 'red' is not in the toolbox"),
    (("run", "--level", "Cargo 101", "--program", "call5"), "command 'f5' is not in the toolbox"),
    (("run", "--level", "Cargo 101", "--program", "prog_4 R R R R R R"), "F4 has 6 registers"),
    (("run", "--stacks", '[["red"],', "--goal", "[[]]", "--program", "R"), "--stacks: malformed JSON"),
    (("run", "--stacks", '[["red"], 3]', "--goal", "[[], []]", "--program", "R"), "--stacks: expected"),
    (("run", "--stacks", '[["any"]]', "--goal", "[[]]", "--program", "R"), "reserved for conditions"),
    (("run", "--stacks", "[[]]", "--goal", "[[]]", "--claw", "3", "--program", "R"), "claw position 3"),
    (("run", "--program", "R"), "give --level NAME"),
    (("solve", "--jobs", "1"), "exactly one of --level NAME and --all"),
    (("climb", "--level", "nope"), "unknown level 'nope'"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[b[1] for b in BAD])
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, out, err = _run(*args)
    assert code == 2
    assert err.startswith("error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[{", "malformed JSON"),
        ('{"a": 1}', "non-empty JSON list"),
        ('[{"pack": "X"}]', "missing field 'name'"),
        ('[{"pack":"X","name":"x","claw":5,"stacks":[[]],"goal":[[]],"stars":[1,2,3]}]', "claw must be a pile"),
    ],
)
def test_malformed_levels_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "levels.json"
    path.write_text(content)
    code, _, err = _run("levels", "--levels-file", str(path))
    assert code == 2 and message in err and err.count("\n") == 1
    code, _, err = _run("levels", "--levels-file", str(tmp_path / "missing.json"))
    assert code == 2 and "No such file" in err


def test_adapter_points_to_the_commands() -> None:
    assert GAME.name == "cargobot"
    assert [b.name for b in GAME.bots()] == ["climb", "solve", "evolve", "sketch"]
    assert [c.name for c in GAME.extra_commands()] == [
        "levels",
        "run",
        "solve",
        "sketch",
        "climb",
        "evolve",
        "bench-gp",
    ]
    with pytest.raises(ConfigError, match="puzzlebots cargobot"):
        capability(GAME, Episodic)
    with pytest.raises(ConfigError, match="unknown bot"):
        GAME.bot_info("nope")


def test_total_time_schedule() -> None:
    from puzzlebots.games.cargobot.campaign import LEVEL_OVERHEAD, level_time
    from puzzlebots.games.cargobot.levels import load_levels

    levels = load_levels()
    assert level_time(levels[0], levels, 600, None, 0) == 600
    # a core level keeps its limit, capped by the total less what every level still to run keeps back
    assert level_time(levels[0], levels, 600, 1000, 800) == 200 - 40 * LEVEL_OVERHEAD
    extras = levels[24:]  # Crazy, Impossible, Bonus: 16 levels
    weights = sum(1.0 if lv.best_known and lv.best_known <= 10 else 0.25 for lv in extras)
    divide_by_two = level_time(extras[0], extras, 600, 1000, 0)  # best known 10: a full share
    genetic_code = level_time(extras[3], extras[3:], 600, 1000, 0)  # best known 12: a quarter share
    assert divide_by_two == pytest.approx((1000 - 16 * LEVEL_OVERHEAD) / weights)
    assert genetic_code is not None and divide_by_two is not None and genetic_code < divide_by_two
