"""The batch API against one call per run: every batch job equals the single-call kernel and the oracle."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solving import SOLUTIONS

from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot import evaluate as evaluate_module
from puzzlebots.games.cargobot.engine import run_game, run_vaguery
from puzzlebots.games.cargobot.evaluate import Batch, evaluate
from puzzlebots.games.cargobot.levels import find_level
from puzzlebots.games.cargobot.metrics import METRICS

COLOURS = ["red", "green", "blue"]
SUFFIX = st.sampled_from(["", "", "", "_any", "_none", "_red", "_green", "_blue", "_"])
OPS = st.sampled_from(["R", "L", "claw", "call1", "call2", "call3", "call0", "call9", "x", "prog_2", "prog_3"])
TOKEN = st.builds(lambda op, suffix: op if op.startswith("prog") else op + suffix, OPS, SUFFIX)
COMMAND = st.sampled_from(["right", "left", "pickup", "f1", "f2", "f3", "f4", None])
CONDITION = st.sampled_from([None, None, "any", "none", "red", "green", "blue"])
REGISTER = st.builds(lambda c, k: (c, k) if c else (None, None), COMMAND, CONDITION)


@st.composite
def setups(draw: st.DrawFn) -> tuple:
    """A board of 1-5 piles, a goal holding the same crates, and a claw position."""
    board = draw(st.lists(st.lists(st.sampled_from(COLOURS), max_size=7), min_size=1, max_size=5))
    goal: list[list[str]] = [[] for _ in board]
    for crate in draw(st.permutations([c for p in board for c in p])):
        goal[draw(st.integers(0, len(board) - 1))].append(crate)
    return board, goal, draw(st.integers(1, len(board)))


SCRIPTS = st.lists(TOKEN, max_size=16).map(" ".join)
GAME_PROGRAMS = st.tuples(*(st.lists(REGISTER, max_size=n) for n in (8, 8, 8, 5))).map(
    lambda p: tuple(tuple(f) for f in p)
)


def _jobs(programs: list, boards: list) -> list[tuple]:
    if len(programs) == 1:
        return [(programs[0], b) for b in boards]
    if len(boards) == 1:
        return [(p, boards[0]) for p in programs]
    return list(zip(programs, boards, strict=True))


def _check_distances(result: evaluate_module.Evaluation, goal: list | None) -> None:
    expected = {} if goal is None else {name: f(result.report.stacks, goal) for name, f in METRICS.items()}
    assert result.distances == expected


@settings(max_examples=120, deadline=None)
@given(st.data(), st.integers(1, 4), st.booleans(), st.booleans(), st.integers(0, 7), st.booleans())
def test_vaguery_batch_matches_single_calls_and_oracle(
    data: st.DataObject, count: int, fragile: bool, unstable: bool, height: int, with_goal: bool
) -> None:
    shape = data.draw(st.sampled_from(["zip", "one program", "one board"]))
    n_programs = 1 if shape == "one program" else count
    n_boards = 1 if shape == "one board" else count
    programs = data.draw(st.lists(SCRIPTS, min_size=n_programs, max_size=n_programs))
    drawn = data.draw(st.lists(setups(), min_size=n_boards, max_size=n_boards))
    boards = [(b, g if with_goal else None, c) for b, g, c in drawn]
    options = {"fragile": fragile, "unstable": unstable, "height_limit": height, "step_limit": 300}
    results = evaluate(programs, boards, semantics="vaguery", **options)  # type: ignore[arg-type]
    jobs = _jobs(programs, boards)
    assert len(results) == len(jobs)
    for result, (script, (stacks, goal, claw)) in zip(results, jobs, strict=True):
        for engine in ("kernel", "python"):
            assert result.report == run_vaguery(script, stacks, goal, claw, engine=engine, **options)  # type: ignore[arg-type]
        _check_distances(result, goal)


@settings(max_examples=120, deadline=None)
@given(st.data(), st.integers(1, 4), st.integers(1, 400))
def test_game_batch_matches_single_calls_and_oracle(data: st.DataObject, count: int, ticks: int) -> None:
    programs = data.draw(st.lists(GAME_PROGRAMS, min_size=1, max_size=count))
    boards = data.draw(st.lists(setups(), min_size=1, max_size=1 if len(programs) > 1 else count))
    results = evaluate(programs, boards, step_limit=ticks)
    for result, (program, (stacks, goal, claw)) in zip(results, _jobs(programs, boards), strict=True):
        for engine in ("kernel", "python"):
            assert result.report == run_game(program, stacks, goal, claw, tick_limit=ticks, engine=engine)
        _check_distances(result, goal)


PILES = st.lists(st.lists(st.sampled_from(COLOURS), max_size=6), min_size=3, max_size=3)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(PILES, PILES), min_size=1, max_size=4))
def test_kernel_rebuild_distance_on_unrelated_goals(pairs: list) -> None:
    """Goals with other crates than the board (missing and left-over crates): the kernel's rebuild distance
    equals ``metrics.rebuild_distance`` on the untouched board."""
    boards = [(board, goal, 1) for board, goal in pairs]
    batch = Batch([""], boards, semantics="vaguery")
    batch.run()
    assert list(batch.rebuild) == [METRICS["rebuild"](board, goal) for board, goal in pairs]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(PILES, PILES), min_size=1, max_size=4), st.sampled_from(["", "claw R claw", "R claw L"]))
def test_kernel_distances_on_unrelated_goals(pairs: list, script: str) -> None:
    """Goals with other crates than the board: ``evaluate``'s three distances (all from kernels) equal
    ``metrics.py`` on the final board."""
    boards = [(board, goal, 1) for board, goal in pairs]
    for result, (_, goal, _) in zip(evaluate([script], boards, semantics="vaguery"), boards, strict=True):
        _check_distances(result, goal)


def test_batch_runs_again_and_reads_levels() -> None:
    level = find_level("Cargo 101")
    batch = Batch(["R claw L claw", "claw R claw"], [level])
    first = batch.run().copy()
    assert (batch.run() == first).all()
    reports = batch.reports()
    assert [r.solved for r in reports] == [False, True]
    assert reports == [
        run_game(p, level.board(), level.goal_board(), level.claw) for p in ("R claw L claw", "claw R claw")
    ]


def test_solution_corpus_solves_its_levels_in_one_batch() -> None:
    """The benchmark's corpus (the 24 Tutorial-Hard solutions): each solves its level in the stated ticks and
    registers, and the whole corpus in one batch gives the single calls' reports."""
    rows = SOLUTIONS
    assert len(rows) == 24
    levels = [find_level(r["level"]) for r in rows]
    programs = [r["program"] for r in rows]
    for row, level in zip(rows, levels, strict=True):
        (result,) = evaluate([row["program"]], [level])
        assert result.report.solved and result.report.steps == row["ticks"], row
        assert result.distances == {"rebuild": 0, "teardown": 0, "cleanup": 0}
        assert level.best_known == row["size"]
    boards = [(lv.board(), lv.goal_board(), lv.claw) for lv in levels]
    together = evaluate(programs, boards, functions=levels[0].functions, distances=())
    assert [e.report for e in together] == [
        run_game(p, *b, functions=levels[0].functions) for p, b in zip(programs, boards, strict=True)
    ]


def test_docstring_example() -> None:
    assert doctest.testmod(evaluate_module).failed == 0


@pytest.mark.parametrize(
    "programs, boards, options, message",
    [
        ([], [([["a"]], [["a"]], 1)], {}, "at least one program"),
        (["R", "L"], [([["a"]], [["a"]], 1)] * 3, {}, "equal counts"),
        (["R"], [([["a"]], None, 1)], {}, "needs a goal"),
        (["R"], [([["a"]], [["a"]], 2)], {}, "claw position"),
        (["R"], [([["a"]], [["a"]])], {}, "triple"),
        (["R"], [([["a"]], [["a"]], 1)], {"semantics": "chess"}, "unknown semantics"),
        (["R"], [([["a"]], [["a"]], 1)], {"distances": ["manhattan"]}, "unknown distance"),
        (["R"], [([["a"]], [["a"]], 1)], {"step_limit": -1}, "negative"),
        (["call9"], [([["a"]], [["a"]], 1)], {}, "does not exist"),
        (["zap"], [([["a"]], [["a"]], 1)], {}, "unknown token"),
    ],
)
def test_hostile_inputs(programs: list, boards: list, options: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        evaluate(programs, boards, **options)


def test_a_level_toolbox_is_enforced() -> None:
    with pytest.raises(InputError):
        evaluate(["claw_red R"], [find_level("Cargo 101")])


def test_equal_boards_are_stored_once() -> None:
    """Equal boards (separate lists, or the same level twice) are encoded once and the jobs still get the single
    calls' reports; a board that only hashes like a stored one (a string pile) is still refused."""
    one = ([["red"], ["blue"], []], [[], ["blue"], ["red"]], 1)
    other = ([["blue"], [], []], [[], [], ["blue"]], 2)
    boards = [one, ([["red"], ["blue"], []], [[], ["blue"], ["red"]], 1), other, one]
    programs = ["claw R R claw", "claw R R claw", "claw R claw", "R"]
    batch = Batch(programs, boards, semantics="vaguery")
    batch.run()
    assert batch.piles.shape[0] == 2 and list(batch.board) == [0, 0, 1, 0]
    assert batch.reports() == [run_vaguery(p, *b) for p, b in zip(programs, boards, strict=True)]
    level = find_level("Cargo 101")
    assert Batch(["claw R claw"], [level, level]).piles.shape[0] == 1
    with pytest.raises(InputError, match="each a list of crate names"):
        Batch(["R"], [([["red"], ["a", "b"]], None, 1), ([["red"], "ab"], None, 1)], semantics="vaguery")
