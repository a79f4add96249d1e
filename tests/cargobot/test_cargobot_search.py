"""The synthesizer (minimal sizes on small levels, pruning tables, relabelling) and the hill climber."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solving import Ticks, needed_ops

from puzzlebots.games.cargobot.bots import climb as climber
from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.bots.climb import MAX_LENGTH, MIN_LENGTH, climb, mutate, token_pool
from puzzlebots.games.cargobot.engine import Rules, run_level
from puzzlebots.games.cargobot.levels import Level, find_level, load_levels

SMALL = [
    "Cargo 101",
    "Transporter",
    "Re-Curses",
    "From Beneath",
    "Go Left 2",
    "Go the Distance",
    "Repeat Inverter",
    "Count The Blues",
    "Up The Greens",
    "The Stacker",
    "Mirror",
]


@pytest.mark.parametrize("name", SMALL)
def test_solve_finds_a_smallest_verified_program(name: str) -> None:
    level = find_level(name)
    result = solver.solve(level, jobs=1)
    assert result.solved and result.program is not None
    assert result.size == level.best_known and result.searched_to == result.size - 1
    report = run_level(level, result.program)
    assert report.solved and report.steps == result.ticks
    assert result.stars == level.stars_for(result.program)


def test_solve_over_a_process_pool_splits_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "TASK_NODES", 500)
    result = solver.solve(find_level("Double Flip"), jobs=2)
    assert result.solved and result.size == 5


def test_solve_time_limit_reports_unsolved() -> None:
    """On a clock moving a twentieth of a second per read, the half-second limit runs out after the same reads
    anywhere: unsolved, and the seconds are the clock's."""
    result = solver.solve(find_level("Vertical Sort"), jobs=1, time_limit=0.5, clock=Ticks(0.05))
    assert not result.solved and result.program is None and 0.5 <= result.seconds < 1.0


def test_redundant_pair_table() -> None:
    setup = solver.setup_search(find_level("Clarity"))  # conditions: always, red, green, none, any
    red = setup.problem.toolbox.redundant_pairs
    always, r, g, none, any_ = range(5)
    assert red[1, always, 2, always] and red[2, always, 1, always]  # R L, L R
    assert red[1, any_, 1, none]  # *> N> == >
    assert red[1, r, 1, g]  # R_red R_green == R_any: the board holds only red and green crates
    assert not red[1, always, 1, always] and not red[1, r, 2, g]  # R R; R_red L_green
    assert red[3, always, 3, always] and red[3, always, 3, none]  # v v; v Nv == Nv
    assert red[3, none, 3, any_] and not red[3, always, 3, r]  # Nv *v == *v; v v_red depends on the top crate


def test_needed_ops() -> None:
    assert list(needed_ops(find_level("Cargo 101"))) == [1, 0, 1, 1]
    assert list(needed_ops(find_level("Go Left"))) == [1, 1, 1, 9]


def test_decode_relabels_functions_to_fit_the_slots() -> None:
    setup = solver.setup_search(find_level("Inverter"))
    op = np.zeros((4, 8), np.int8)
    mask = np.zeros((4, 8), np.int32)
    lengths = np.array([2, 2, 7, 3], np.int32)  # F4 would hold 3, but F3's 7 cannot go after F4 ...
    lengths = np.array([2, 2, 3, 7], np.int32)  # ... so a 7-register function found as "F4" moves
    op[0, :2] = [5, 6]
    op[1, :2] = [7, 3]
    op[2, :3] = [1, 3, 2]
    op[3, :7] = 1
    mask[:, :] = 1
    program = solver.decode_program(setup, (op, mask, lengths))
    assert [len(f) for f in program] == [2, 2, 7, 3]
    assert program[0] == (("f2", None), ("f4", None)) and program[1] == (("f3", None), ("pickup", None))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 40))
def test_mutation_keeps_the_length_rules(seed: int, length: int) -> None:
    rng = random.Random(seed)
    base, suffixes = token_pool(find_level("Mirror"), "vaguery")
    tokens = ["R"] * length
    out = mutate(tokens, rng, base, suffixes)
    assert len(out) >= min(length, MIN_LENGTH)
    assert len(out) <= max(length, MAX_LENGTH)
    assert all(t.split("_")[0] in {"R", "L", "claw", "call1", "call2", "call3", "call4", "prog"} for t in out)


@pytest.mark.parametrize("semantics", ["vaguery", "game"])
def test_climb_is_deterministic_and_solves_cargo_101(semantics: str) -> None:
    first = climb(find_level("Cargo 101"), seed=5, semantics=semantics, stop_after=2)
    again = climb(find_level("Cargo 101"), seed=5, semantics=semantics, stop_after=2)
    assert first == again
    assert first.solved and first.solutions == 2
    report = run_level(find_level("Cargo 101"), first.script, Rules(semantics))
    assert report.solved


PLAYABLE = [lv for lv in load_levels() if not lv.subproblem]


@settings(max_examples=24, deadline=None)
@given(st.integers(0, len(PLAYABLE) - 1), st.sampled_from(["game", "vaguery"]), st.integers(0, 10**6))
def test_batched_scores_equal_the_one_at_a_time_score(index: int, semantics: str, seed: int) -> None:
    """``Scores`` (genes through the evaluator, or a vaguery batch) against ``score`` (``run_level``, one script):
    a chain of 40 mutants, legal and not, of a random wild type."""
    level, rng = PLAYABLE[index], random.Random(seed)
    limit = 1000 if semantics == "game" else 200
    base, suffixes = token_pool(level, semantics)
    tokens = [climber._random_token(rng, base, suffixes) for _ in range(climber.WILD_TYPE_LENGTH)]
    scripts = []
    for _ in range(40):
        tokens = mutate(tokens, rng, base, suffixes)
        scripts.append(" ".join(tokens))
    assert climber.Scores(level, semantics, limit)(scripts) == [
        climber.score(level, s, semantics, limit) for s in scripts
    ]


def one_at_a_time_climb(level_name: str | Level, seed: int, semantics: str, iterations: int) -> tuple[str, int, int]:
    """The Ruby loop as written, one mutant scored at a time by ``score``: (best script, solutions, iterations)."""
    level = find_level(level_name) if isinstance(level_name, str) else level_name
    rng = random.Random(seed)
    base, suffixes = token_pool(level, semantics)
    limit = climber.STEP_LIMIT
    wild = [climber._random_token(rng, base, suffixes) for _ in range(climber.WILD_TYPE_LENGTH)]
    wild_score = climber.score(level, " ".join(wild), semantics, limit)
    seen, solutions, iteration = {" ".join(wild)}, [], 0
    while iteration < iterations and len(solutions) < 3:
        iteration += 1
        mutant = mutate(wild, rng, base, suffixes)
        text = " ".join(mutant)
        if text in seen:
            continue
        seen.add(text)
        mutant_score = climber.score(level, text, semantics, limit)
        if mutant_score == (0, 0, 0):
            solutions.append(text)
        if all(m <= w for m, w in zip(mutant_score, wild_score, strict=True)):
            wild, wild_score = mutant, mutant_score
    return (solutions[0] if solutions else " ".join(wild)), len(solutions), iteration


@pytest.mark.parametrize(
    ("name", "seed", "semantics"),
    [("Transporter", 1, "game"), ("Go Left", 2, "game"), ("Mirror", 3, "vaguery"), ("Cargo 101", 4, "vaguery")],
)
def test_the_batched_climb_is_the_one_at_a_time_climb(name: str, seed: int, semantics: str) -> None:
    """Mutants drawn ahead and dropped after an accepted one leave the climb as the plain loop makes it."""
    result = climb(find_level(name), seed=seed, semantics=semantics, max_iterations=1500, stop_after=3)
    assert (result.script, result.solutions, result.iterations) == one_at_a_time_climb(name, seed, semantics, 1500)


def variant(name: str, functions: tuple[int, ...], calls: tuple[str, ...]) -> Level:
    """A level with other function slots and other callable functions: scripts that call a function the toolbox
    lacks, select a function beyond the level's or fill one over its slots are unscorable."""
    level = find_level(name)
    return dataclasses.replace(level, functions=functions, commands=("right", "pickup", "left", *calls))


GAME_CASES = [
    (variant("Cargo 101", (8, 5), ("f1", "f2")), 11),  # 2 functions: call3, call4, prog_3, prog_4 refused
    (variant("From Beneath", (6, 6, 4), ("f1", "f2")), 12),  # F3 checked, never run (nothing calls it)
    (variant("Go Left 2", (8, 8, 8, 5), ("f2", "f3")), 13),  # call1 and call4 refused, F4 never run
    (variant("Transporter", (3, 3), ("f1", "f2")), 14),  # 6 slots: every script unscorable, every one accepted
    (variant("Transporter", (5, 5, 4), ("f1", "f2", "f3")), 18),  # small slots: many scripts overfill one
    (find_level("Double Flip"), 15),  # six conditions
    (find_level("Equalizer"), 16),  # five functions, prog_5 never drawn
    (find_level("Cargo 101"), 17),  # solved: the climb stops at its third solution
]


@pytest.mark.parametrize(("level", "seed"), GAME_CASES, ids=[f"{lv.name}-{s}" for lv, s in GAME_CASES])
def test_the_kernel_climb_is_the_one_at_a_time_climb(level: Level, seed: int) -> None:
    """The game climb in the climb kernel (``climb``) and in batched Python (``batched_climb``) against the plain
    loop: the same best script, solutions and iterations, draw for draw."""
    expected = one_at_a_time_climb(level, seed, "game", 800)
    for run in (climb, climber.batched_climb):
        result = run(level, seed, "game", 800, 3)
        assert (result.script, result.solutions, result.iterations) == expected
        assert result.score == (0, 0, 0) if result.solutions else climber.score(level, result.script, "game", 200)


def test_the_kernel_climb_reports_progress_per_500_iterations() -> None:
    steps: list[int] = []
    climb(find_level("Mirror"), 0, "game", max_iterations=4_700, progress=steps.append)
    assert steps == [500] * 9
