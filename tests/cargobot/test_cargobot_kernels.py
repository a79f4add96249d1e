"""Differential tests: the numba kernels against the literal Python oracle on random programs and boards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot.engine import Colours, _report, encode_board, encode_registers, run_game, run_vaguery
from puzzlebots.games.cargobot.kernels import interpreter
from puzzlebots.games.cargobot.language import format_registers, parse_registers
from puzzlebots.games.cargobot.rules import DEFAULT_FUNCTIONS

COLOURS = ["red", "green", "blue"]
SUFFIX = st.sampled_from(["", "", "", "_any", "_none", "_red", "_green", "_blue", "_"])
OPS = st.sampled_from(["R", "L", "claw", "call1", "call2", "call3", "call0", "call9", "x", "prog_2", "prog_3"])
TOKEN = st.builds(lambda op, suffix: op if op.startswith("prog") else op + suffix, OPS, SUFFIX)
PILE = st.lists(st.sampled_from(COLOURS), max_size=7)
BOARD = st.lists(PILE, min_size=1, max_size=5)


@st.composite
def setups(draw: st.DrawFn) -> tuple:
    board = draw(BOARD)
    crates = [c for p in board for c in p]
    shuffled = draw(st.permutations(crates))
    goal: list[list[str]] = [[] for _ in board]
    for crate in shuffled:
        goal[draw(st.integers(0, len(board) - 1))].append(crate)
    return board, goal, draw(st.integers(1, len(board)))


@settings(max_examples=250, deadline=None)
@given(setups(), st.lists(TOKEN, max_size=16), st.booleans(), st.booleans(), st.integers(0, 7), st.booleans())
def test_vaguery_kernel_matches_oracle(
    setup: tuple, tokens: list, fragile: bool, unstable: bool, height: int, with_goal: bool
) -> None:
    board, goal, claw = setup
    script = " ".join(tokens)
    runs = [
        run_vaguery(
            script,
            board,
            goal if with_goal else None,
            claw,
            fragile=fragile,
            unstable=unstable,
            height_limit=height,
            step_limit=300,
            engine=engine,
        )
        for engine in ("kernel", "python")
    ]
    assert runs[0] == runs[1]


COMMAND = st.sampled_from(["right", "left", "pickup", "f1", "f2", "f3", "f4", None])
CONDITION = st.sampled_from([None, None, "any", "none", "red", "green", "blue"])
REGISTER = st.builds(lambda c, k: (c, k) if c else (None, None), COMMAND, CONDITION)


@settings(max_examples=250, deadline=None)
@given(
    setups(),
    st.tuples(*(st.lists(REGISTER, max_size=n) for n in (8, 8, 8, 5))),
    st.integers(1, 400),
)
def test_game_kernel_matches_oracle(setup: tuple, program: tuple, ticks: int) -> None:
    board, goal, claw = setup
    program = tuple(tuple(f) for f in program)
    runs = [run_game(program, board, goal, claw, tick_limit=ticks, engine=e) for e in ("kernel", "python")]
    assert runs[0] == runs[1], format_registers(program)


@settings(max_examples=250, deadline=None)
@given(
    setups(),
    st.tuples(*(st.lists(REGISTER, max_size=n) for n in (8, 8, 8, 5))),
    st.integers(1, 400),
    st.integers(1, 3),
)
def test_game_loop_growing_its_stack_matches_oracle(setup: tuple, program: tuple, ticks: int, rows: int) -> None:
    """``game_loop`` from a call stack of 1-3 rows, so deep runs stop to grow it and resume many times."""
    board, goal, claw = setup
    program = tuple(tuple(f) for f in program)
    colours = Colours()
    encoded = encode_board(board, goal, colours)
    code = encode_registers(program, DEFAULT_FUNCTIONS, colours)
    out = np.zeros(interpreter.OUT_SIZE, np.int64)
    stack = interpreter.game_loop(
        code.op.ravel(),
        code.cond.ravel(),
        code.length,
        code.op.shape[1],
        encoded.piles,
        encoded.heights,
        encoded.goal,
        encoded.goal_heights,
        True,
        claw - 1,
        ticks,
        out,
        np.zeros((rows, 3), np.int64),
    )
    assert stack.shape[0] >= rows
    expected = run_game(program, board, goal, claw, tick_limit=ticks, engine="python")
    assert _report("game", out, encoded, colours) == expected, format_registers(program)


@settings(max_examples=200, deadline=None)
@given(setups(), st.tuples(*(st.lists(REGISTER, max_size=n) for n in (8, 8, 8, 5))), st.integers(1, 400))
def test_cached_one_call_matches_oracle(setup: tuple, program: tuple, ticks: int) -> None:
    """A program text on plain lists takes ``run_game``'s cached path (twice: encoded, then from the caches);
    it equals the oracle on the parsed program, and so does the vaguery cached path on the same text."""
    board, goal, claw = setup
    text = format_registers(tuple(tuple(f) for f in program))
    expected = run_game(parse_registers(text), board, goal, claw, tick_limit=ticks, engine="python")
    for _ in range(2):
        assert run_game(text, board, goal, claw, tick_limit=ticks) == expected, text
        assert run_vaguery(text, board, goal, claw, step_limit=ticks) == run_vaguery(
            text, board, goal, claw, step_limit=ticks, engine="python"
        )
    assert board == setup[0]  # the caller's board is not the one run


@pytest.mark.parametrize(
    ("stacks", "goal", "claw", "message"),
    [
        ([["red"], "ab"], [["red"], ["a", "b"]], 1, "each a list of crate names"),
        ([["red"], ("a", "b")], [["red"], ["a", "b"]], 1, "each a list of crate names"),
        ([["red"], ["a", "b"]], [["red"], ("a", "b")], 1, "each a list of crate names"),
        ([["red"], ["a", "b"]], [["red"], ["a", "b"]], 0, "claw position 0 is not a pile"),
        ([["red"], ["a", "b"]], [["red"], ["a", "b"]], 3, "claw position 3 is not a pile"),
        ([["red"], ["any"]], [["red"], ["any"]], 1, "reserved for conditions"),
    ],
)
def test_cached_path_keeps_the_checks(stacks: list, goal: list, claw: object, message: str) -> None:
    """After the valid board ``[["red"], ["a", "b"]]`` is cached, inputs that hash like it (a string or tuple
    pile) or that are invalid still fail with the uncached path's message, in both semantics."""
    valid = [["red"], ["a", "b"]]
    assert run_game("claw", valid, valid, 1).solved
    assert run_vaguery("claw", valid, valid, 1).solved
    for run in (run_game, run_vaguery):
        with pytest.raises(InputError, match=message):
            run("claw", stacks, goal, claw)  # type: ignore[operator]


def test_cached_program_checks_come_first() -> None:
    """A bad program on a bad board reports the program, as the uncached path does; a bad program stays bad."""
    for _ in range(2):
        with pytest.raises(InputError, match="unknown token"):
            run_game("jump", [], [], 9)
        with pytest.raises(InputError, match="F1 has 9 registers"):
            run_game("claw " * 9, [["red"]], [["red"]], 1, functions=(8, 8, 8, 5))
