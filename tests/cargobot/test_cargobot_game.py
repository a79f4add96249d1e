"""Game semantics: programs written from the level hints with exact tick counts, terminal conditions,
the differential examples of the reference, toolbox/limit checks and the star rule."""

from __future__ import annotations

import pytest

from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot.engine import Rules, run_game, run_level, run_vaguery
from puzzlebots.games.cargobot.language import parse_registers
from puzzlebots.games.cargobot.levels import find_level, load_levels, rating, size_note, stars, thresholds_text

# level, program written from its hint, ticks, moves, stars. The first three are counted by hand:
# Cargo 101 = pickup, right, drop; Transporter = 3 + call + 3 + call + 3; Re-Curses = 3 rounds of
# 5 ticks and a last pickup-right-drop; From Beneath = 4 blues x 5 ticks + yellow pickup, R, R, drop.
HINTED = [
    ("Cargo 101", "claw R claw", 3, 3, 3),
    ("Transporter", "claw R claw call1", 11, 9, 3),
    ("Re-Curses", "claw R claw L call1", 18, 15, 3),
    ("Inverter", "call2 call2 call2 call2 R call1 prog_2 claw R claw L", 107, 83, 3),
    ("From Beneath", "claw R_blue R_yellow R_yellow claw L_none call1", 24, 20, 2),
    ("Go Left", "R call2 call2 call2 call1 prog_2 claw L claw R", 49, 38, 3),
    ("Double Flip", "claw R_any R_blue claw L_none call1", 34, 28, 3),
    ("Go Left 2", "claw R_none L_any call1", 61, 41, 3),
    ("Go the Distance", "claw R_none L_red call1", 55, 35, 3),
    ("Repeat Inverter", "claw R claw L_none call1", 84, 67, 3),
    ("Come Together", "call2 claw call1 prog_2 R claw_none call2_none L", 95, 69, 3),
]


@pytest.mark.parametrize("engine", ["kernel", "python"])
@pytest.mark.parametrize(("name", "program", "ticks", "moves", "rating"), HINTED, ids=[h[0] for h in HINTED])
def test_hinted_solution(name: str, program: str, ticks: int, moves: int, rating: int, engine: str) -> None:
    level = find_level(name)
    report = run_level(level, program, engine=engine)
    assert (report.outcome, report.steps, report.moves, report.crashes, report.topples) == (
        "solved",
        ticks,
        moves,
        0,
        0,
    )
    assert report.stacks == level.goal_board()
    assert level.stars_for(parse_registers(program)) == rating


#: vaguery steps of the same programs: ticks plus registers skipped on a failed condition (reference §4);
#: From Beneath by hand: 24 ticks + 2 skipped R_yellow in each of 4 blue rounds + R_blue once for yellow
VAGUERY_STEPS = {
    "From Beneath": 33,
    "Double Flip": 40,
    "Go Left 2": 81,
    "Go the Distance": 81,
    "Repeat Inverter": 88,
    "Come Together": 101,
}


@pytest.mark.parametrize(("name", "program", "ticks", "moves", "rating"), HINTED, ids=[h[0] for h in HINTED])
def test_hinted_solution_in_vaguery(name: str, program: str, ticks: int, moves: int, rating: int) -> None:
    """Reference §4: the board history and the moves are the same in both semantics."""
    level = find_level(name)
    report = run_level(level, program, Rules("vaguery", fragile=True, unstable=True, step_limit=10_000))
    assert (report.outcome, report.moves, report.crashes, report.topples) == ("solved", moves, 0, 0)
    assert report.steps == VAGUERY_STEPS.get(name, ticks)


def test_wall_ends_the_run() -> None:
    report = run_game("R R L", [[], []], [["x"], []], 1)
    assert (report.outcome, report.steps, report.crashes, report.claw) == ("crashed", 2, 1, 2)
    vag = run_vaguery("R R L", [[], []], [["x"], []], 1)
    assert (vag.outcome, vag.crashes, vag.claw, vag.steps) == ("finished", 1, 1, 3)


def test_topple_when_leaving_a_pile_of_seven() -> None:
    board = [["yellow"] * 6, ["yellow"]]
    report = run_game("claw L claw R", board, [[], ["red"]], 2)
    assert (report.outcome, report.steps, report.topples) == ("toppled", 4, 1)
    vag = run_vaguery("claw L claw R", board, None, 2, fragile=True, unstable=True)
    assert (vag.steps, vag.moves, vag.topples) == (4, 4, 0)


def test_entering_a_tall_pile_is_harmless_in_game_only() -> None:
    board = [[], ["yellow"] * 7]
    report = run_game("R L", board, [["x"], []], 1)
    assert (report.outcome, report.steps, report.claw) == ("toppled", 2, 2)
    vag = run_vaguery("R L", board, None, 1, fragile=True, unstable=True)
    assert (vag.outcome, vag.steps, vag.topples) == ("toppled", 1, 1)


def test_seventh_crate_may_complete_the_goal() -> None:
    report = run_game("claw L claw", [["g"] * 6, ["g"]], [["g"] * 7, []], 2)
    assert (report.outcome, report.steps) == ("solved", 3)


def test_finished_unsolved_and_free_skips() -> None:
    report = run_level(find_level("Cargo 101"), "claw R")
    assert (report.outcome, report.steps, report.holding, report.claw) == ("finished", 2, "yellow", 2)
    skipped = run_level(find_level("Go Left 2"), "R_blue L_red R_green claw_any")
    assert (skipped.outcome, skipped.steps, skipped.moves) == ("finished", 0, 0)


def test_calls_cost_a_tick_and_returns_are_free() -> None:
    report = run_game("call2 call2 prog_2 R", [[], [], []], [["x"], [], []], 1)
    assert (report.outcome, report.steps, report.moves, report.claw) == ("finished", 4, 2, 3)


def test_tick_limit() -> None:
    report = run_game("R L call1", [[], []], [["x"], []], 1, tick_limit=1000)
    assert (report.outcome, report.steps) == ("out_of_steps", 1000)


def test_star_rule() -> None:
    assert [stars(n, (9, 7, 6)) for n in (12, 10, 9, 8, 7, 6, 5)] == [1, 1, 2, 2, 3, 3, 3]
    assert [stars(n, (3, 3, 3)) for n in (4, 3, 2)] == [1, 3, 3]
    assert [size_note(n, (9, 7, 6)) for n in (7, 6, 5)] == ["", "the designer's size", "smaller than the designer's"]
    assert rating(6, (9, 7, 6)) == "3 stars of 3 (6 registers, the designer's size)"
    assert rating(10, (9, 7, 6)) == "1 star of 3 (10 registers)"
    assert thresholds_text((9, 7, 6)) == "3 stars with at most 7 registers, 2 with at most 9 (the designer's size: 6)"
    assert find_level("Mirror").stars_for(parse_registers("claw R call2_any call1 prog_2 claw_yellow L")) == 3


def test_toolbox_and_register_limits() -> None:
    with pytest.raises(InputError, match="condition 'red'"):
        run_level(find_level("Cargo 101"), "claw R_red claw")
    with pytest.raises(InputError, match="F4 has 6 registers"):
        run_level(find_level("Cargo 101"), "prog_4 R R R R R R")
    with pytest.raises(InputError, match="command 'f5'"):
        run_level(find_level("Cargo 101"), "call5")
    equalizer = find_level("Equalizer")
    assert equalizer.functions == (10, 10, 10, 10, 6)
    assert run_level(equalizer, "prog_5 R").outcome == "finished"


def test_all_forty_levels_load() -> None:
    levels = load_levels()
    assert len(levels) == 40
    assert sum(lv.pack in ("Tutorial", "Easy", "Medium", "Hard") for lv in levels) == 24
    assert find_level("changing  places").name == "Changing Places"
    assert find_level("hard 3").name == "Up The Greens"


def test_semantics_chosen_by_name() -> None:
    from puzzlebots.games.cargobot.engine import run

    board, goal = [["y"], [], []], [[], [], ["y"]]
    assert run(Rules("game"), "claw R R claw", board, goal).steps == 4
    assert run(Rules("vaguery"), "claw R_y R claw", board, goal).steps == 4
    with pytest.raises(InputError, match="unknown semantics"):
        run(Rules("ruby"), "R", board, goal)
    with pytest.raises(InputError, match="needs a goal"):
        run(Rules("game"), "R", board, None)
