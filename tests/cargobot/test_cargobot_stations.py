"""Station passes (``bots.stations``): the main loop read off a sorting board, which board rules then fix as F1
so that the search only builds the helpers; through them ``solve`` reaches Multi Sort 2, which no search without
a person's main pass had solved."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from solving import campaign_clock, levels_file, solve_cmd, stop_task

from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.bots.hints import board_hints
from puzzlebots.games.cargobot.bots.stations import station_pass
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.language import RegisterProgram, format_registers, parse_registers
from puzzlebots.games.cargobot.levels import find_level, load_levels
from puzzlebots.games.cargobot.progress import ProgressFile

MULTI_SORT_2_PASS = "claw_blue call2 claw_red call2 claw_green call2 claw_yellow call3"
#: Multi Sort 2 with the claw starting on the yellow station at the right end
RIGHT_END = {"Multi Sort 2": {"claw": 7}}


def test_the_pass_is_read_off_the_two_station_boards_and_no_other() -> None:
    passes = {lv.name: format_registers(p) for lv in load_levels() if (p := station_pass(lv)) is not None}
    assert passes == {"Multi Sort": "claw_yellow call2 claw_blue call3", "Multi Sort 2": MULTI_SORT_2_PASS}


def test_from_the_right_end_the_pass_walks_left_from_the_last_station(tmp_path: Path) -> None:
    (level,) = load_levels(levels_file(tmp_path, ["Multi Sort 2"], RIGHT_END))
    main = station_pass(level)
    assert main is not None
    assert format_registers(main) == "claw_yellow call2 claw_green call2 claw_red call2 claw_blue call3"


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"claw": 2}, "the claw starts on no end station"),
        (
            {
                "stacks": [["blue"], ["yellow", "red", "green", "yellow"]]
                + [list(p) for p in find_level("Multi Sort 2").stacks[2:]]
            },
            "a station starts with a crate",
        ),
        ({"goal": [["blue"] * 4, [], ["red"] * 4, ["green"] * 4, [], [], ["yellow"] * 4]}, "stations unevenly spaced"),
        (
            {
                "goal": [
                    ["blue"] * 4,
                    [],
                    ["red"] * 2 + ["green"] * 2,
                    [],
                    ["green"] * 2 + ["red"] * 2,
                    [],
                    ["yellow"] * 4,
                ]
            },
            "a station of two colours",
        ),
        ({"conditions": ["blue", "red", "green", "none", "any"]}, "no condition for yellow"),
        ({"functions": [7, 8, 8, 5]}, "F1 too short for eight registers"),
        ({"commands": ["right", "pickup", "left", "f1", "f2"]}, "no F3 to go back"),
    ],
)
def test_a_board_that_is_no_station_board_has_no_pass(tmp_path: Path, change: dict[str, object], why: str) -> None:
    (level,) = load_levels(levels_file(tmp_path, ["Multi Sort 2"], {"Multi Sort 2": change}))
    assert station_pass(level) is None, why


def test_board_rules_on_a_station_board_fix_the_pass_and_free_the_shape() -> None:
    hints = board_hints(find_level("Multi Sort 2"))
    assert hints is not None and hints.method == "stations" and hints.shape is None
    assert hints.describe() == {"pile_rules": "G+ I- G+ I- G+ I- G+", "fix": MULTI_SORT_2_PASS}


def test_the_helpers_searched_behind_the_pass_win_multi_sort_2_from_the_right_end(tmp_path: Path) -> None:
    """Under the two-function board rules, 314 s at size 17 found nothing; behind the pass, the search finds
    the 17 of Quinn Mahoney's shape in seconds, and the program wins the level on the game interpreter. From the
    right end here: the next test solves the level as it is, through ``solve``."""
    (level,) = load_levels(levels_file(tmp_path, ["Multi Sort 2"], RIGHT_END))
    hints = board_hints(level)
    assert hints is not None and hints.fixed is not None
    found = solver.solve(level, jobs=1, hints=hints, first=17, max_size=17, book=ProgressFile(None, 5000))
    assert found.solved and found.size == 17 and found.method == "stations" and not found.proven_minimal
    assert found.program is not None and found.program[0] == hints.fixed[0]
    assert run_level(level, found.program).solved
    assert not run_level(level, swapped_drops(found.program)).solved


def swapped_drops(program: RegisterProgram) -> RegisterProgram:
    """The program with its first two stations' drops swapped: their crates go to the wrong one."""
    main = list(program[0])
    main[0], main[2] = main[2], main[0]
    return (tuple(main), *program[1:])


def test_solve_hands_multi_sort_2_to_its_station_pass_when_the_exhaustive_share_runs_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exhaustive search stops short (here at its 5th task, as if its share ran out there); the search under
    the board rules with the station pass as F1 finds the 17. The campaign's clock never moves, so that search
    ends where it finds the program, on any machine."""
    out = tmp_path / "m.json"
    with monkeypatch.context() as patch:
        stop_task(patch, "Multi Sort 2", (5, TimeoutError))
        campaign_clock(patch)
        code, _, err = solve_cmd("--level", "Multi Sort 2", "--jobs", 1, "--json", out)
    assert code == 0, err
    (row,) = json.loads(out.read_text())
    assert (row["size"], row["method"], row["proven_minimal"]) == (17, "stations", False)
    assert row["program"].startswith(MULTI_SORT_2_PASS + " prog_2")
    program = parse_registers(row["program"])
    assert run_level(find_level("Multi Sort 2"), program).solved
    assert not run_level(find_level("Multi Sort 2"), swapped_drops(program)).solved
    progress = json.loads((tmp_path / "m.json.progress").read_text())
    assert progress["ruled"]["Multi Sort 2"]["result"]["method"] == "stations"
    code, _, err = solve_cmd(
        "--level", "Multi Sort 2", "--jobs", 1, "--progress", tmp_path / "m.json.progress", "--resume"
    )
    assert code == 0 and "resuming Multi Sort 2 under board rules: solved" in err


def test_a_sub_problem_has_no_pass() -> None:
    level = replace(find_level("Multi Sort 2"), finish=True)
    assert station_pass(level) is None and board_hints(level) is None
