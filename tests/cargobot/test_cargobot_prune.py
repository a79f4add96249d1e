"""The solver's pruning rules: each is sound (a property against a plain simulation, or the same smallest size
found with and without it) and cuts something (fewer options tried with it than without)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from solving import needed_ops

from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.kernels import solve as kernel
from puzzlebots.games.cargobot.levels import find_level


def _deepen(setup: solver.Setup, top: int) -> tuple[int | None, int]:
    """(smallest budget with a program or None, options tried over every budget up to it)."""
    nodes = 0
    for budget in range(1, top + 1):
        status, _, tried = solver.run_task(setup, budget, (), 10**12)
        nodes += tried
        if status == kernel.FOUND:
            return budget, nodes
    return None, nodes


def _right_only_run(start: list[list[int]], claw: int, ops: list[int]) -> tuple[list[list[int]], int]:
    """A claw that never moves left: ``ops`` 0 = pickup/drop, 1 = right (stops at the wall); the final
    board and held crate."""
    piles = [list(p) for p in start]
    held = 0
    for op in ops:
        if op == 1:
            if claw + 1 >= len(piles):
                break
            claw += 1
        elif held:
            piles[claw].append(held)
            held = 0
        elif piles[claw]:
            held = piles[claw].pop()
    return piles, held


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**9))
def test_one_way_accepts_every_board_a_right_only_claw_reaches(seed: int) -> None:
    rng = random.Random(seed)
    npiles = rng.randint(2, 5)
    start = [[rng.randint(1, 2) for _ in range(rng.randint(0, 3))] for _ in range(npiles)]
    claw = rng.randrange(npiles)
    end, held = _right_only_run(start, claw, [rng.randint(0, 1) for _ in range(rng.randint(0, 12))])
    assume(held == 0)  # a goal holds every crate
    assert solver._one_way(start, end, claw)  # type: ignore[arg-type]


def test_one_way_refuses_what_needs_the_claw_to_come_back() -> None:
    assert solver._one_way([["y"], []], [[], ["y"]], 0)  # type: ignore[arg-type]
    assert not solver._one_way([["y", "y"], [], []], [[], ["y"], ["y"]], 0)  # two crates over one boundary
    assert not solver._one_way([["r", "b"], []], [["b"], ["r"]], 0)  # a buried crate
    assert not solver._one_way([[], ["y"]], [["y"], []], 1)  # a pile left of the claw
    assert list(needed_ops(find_level("Count in Binary")))[:3] == [1, 1, 1]


def test_needing_both_moves_cuts_options_and_keeps_the_smallest_size() -> None:
    level = find_level("Lay it out")  # six crates leave pile 1 one by one: the claw must come back
    setup = solver.setup_search(level)
    needed = setup.problem.needed
    assert needed[0] == needed[1] == 1
    weaker = setup._replace(problem=setup.problem._replace(needed=np.array([1, 0, *needed[2:]], np.int32)))
    size, nodes = _deepen(setup, 8)
    size_without, nodes_without = _deepen(weaker, 8)
    assert size == size_without == level.best_known
    assert nodes < nodes_without
    status, arrays, _ = solver.run_task(setup, level.best_known, (), 10**12)
    assert run_level(level, solver.decode_program(setup, arrays)).solved


def _search(setup: solver.Setup, budget: int, functions: int) -> tuple[int, kernel.Output]:
    shape = (setup.functions, int(setup.problem.toolbox.slots.max()))
    out = kernel.Output(
        np.zeros(shape, np.int8),
        np.zeros(shape, np.int32),
        np.zeros(setup.functions, np.int32),
        np.zeros(kernel.frontier_shape(setup.problem, budget), np.int32),
        np.zeros(kernel.NCOUNTERS, np.int64),
    )
    task = kernel.Task(budget, np.zeros(0, np.int32), 10**12, functions)
    return int(kernel.search(setup.problem, task, out)), out


def test_function_count_passes_partition_the_programs() -> None:
    level = find_level("Walking Piles")  # 8 registers in two functions
    setup = solver.setup_search(level)
    for budget in range(1, level.best_known):
        assert all(_search(setup, budget, n)[0] == kernel.EXHAUSTED for n in range(1, setup.functions + 1))
    assert _search(setup, level.best_known, 1)[0] == kernel.EXHAUSTED
    status, out = _search(setup, level.best_known, 2)
    assert status == kernel.FOUND
    program = solver.decode_program(setup, (out.op, out.mask, out.length))
    assert len(program) == 2 and run_level(level, program).solved
    # the passes together try about what one search over any function count does (little is repeated)
    passes = sum(int(_search(setup, 7, n)[1].counters[kernel.NODES]) for n in range(1, setup.functions + 1))
    single = int(_search(setup, 7, 0)[1].counters[kernel.NODES])
    assert single <= passes < 1.1 * single


def test_complete_programs_below_the_budget_are_cut() -> None:
    setup = solver.setup_search(find_level("Come Together"))  # 7 registers
    status, out = _search(setup, 6, 0)
    assert status == kernel.EXHAUSTED and out.counters[kernel.PR_SHORT] > 0
    assert _deepen(setup, 8)[0] == 7


def test_a_task_split_at_its_node_limit_continues_without_repeating() -> None:
    setup = solver.setup_search(find_level("Walking Piles"))
    whole = solver.run_task(setup, 7, (), 10**12, all_counters=True)[2]
    pending, nodes, splits, replayed = [()], 0, 0, 0
    while pending:
        prefix = pending.pop(0)
        status, payload, tried = solver.run_task(setup, 7, prefix, 20_000)
        nodes, replayed = nodes + tried, replayed + max(0, len(prefix) - 1)
        assert status != kernel.FOUND
        if status == kernel.TOO_BIG:
            splits += 1
            pending.extend(payload)
    assert splits > 10
    # every option once; a child only replays the options of its prefix to get back to its subtree
    assert int(whole[kernel.NODES]) <= nodes <= int(whole[kernel.NODES]) + replayed
