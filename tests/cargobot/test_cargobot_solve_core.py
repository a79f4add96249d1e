"""The solver's core: the Tutorial-Hard programs it finds are verified in game semantics at their best known
size, and the pruning counters of the kernel say which rule cut what without changing the search."""

from __future__ import annotations

import pytest

from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.kernels import solve as kernel
from puzzlebots.games.cargobot.language import parse_registers, register_count
from puzzlebots.games.cargobot.levels import find_level, load_levels

#: what ``solve --level NAME`` found for the 24 Tutorial-Hard levels (docs/cargobot.md); each must stay a
#: winning program of the best known size when the interpreter or the level data change
FOUND = {
    "Cargo 101": "claw R claw",
    "Transporter": "claw R claw call1",
    "Re-Curses": "claw R claw L call1",
    "Inverter": "R call2 call2 call2 call2 call1 prog_2 L claw R claw",
    "From Beneath": "claw R claw L_none call1",
    "Go Left": "R call2 call2 call2 call1 prog_2 claw L claw R",
    "Double Flip": "claw R claw L_none call1",
    "Go Left 2": "claw R_none L_any call1",
    "Shuffle Sort": "claw R claw call2 call2 R call1 prog_2 L claw",
    "Go the Distance": "claw R_none L_red call1",
    "Color Sort": "claw R L_red call2_any call1 prog_2 claw_green L",
    "Walking Piles": "claw R_blue call2 call2 call2 call1 prog_2 R_blue L_none",
    "Repeat Inverter": "claw R claw L_none call1",
    "Double Sort": "claw R_yellow call1_yellow L call1_none claw_blue R",
    "Mirror": "claw R call2_any call1 prog_2 claw_yellow L",
    "Lay it out": "claw R call2_green call2 call1 prog_2 claw L_none",
    "The Stacker": "claw_none R_none claw R_yellow L_none call1",
    "Clarity": "claw R call2_any call1 prog_2 claw_green L",
    "Come Together": "claw call2 call1 prog_2 R claw call2_none L",
    "Come Together 2": "call2 call1 prog_2 claw R claw call2_yellow L",
    "Up The Greens": "claw call1_any R_none claw call1_none L_blue",
    "Fill The Blanks": "R_none claw call2 call2 R_green call1 prog_2 L_none claw R_green",
    "Count The Blues": "claw R claw_yellow claw L_none call1",
    "Multi Sort": "call2 call1 prog_2 claw R call2_none claw_blue L",
}
#: solved by the test itself (each under a few seconds on one core); the rest are checked from ``FOUND``
SEARCHED = [
    "Inverter",
    "Go Left",
    "Shuffle Sort",
    "Color Sort",
    "Walking Piles",
    "Double Sort",
    "Lay it out",
    "Clarity",
    "Come Together",
    "Come Together 2",
    "Multi Sort",
    "Double Flip",
]


def test_found_covers_the_tutorial_to_hard_packs() -> None:
    core = [lv.name for lv in load_levels() if lv.pack in ("Tutorial", "Easy", "Medium", "Hard")]
    assert sorted(core) == sorted(FOUND)


@pytest.mark.parametrize("name", sorted(FOUND))
def test_found_program_wins_at_the_best_known_size(name: str) -> None:
    level = find_level(name)
    program = parse_registers(FOUND[name])
    assert register_count(program) == level.best_known
    assert run_level(level, program).solved


@pytest.mark.parametrize("name", SEARCHED)
def test_solve_finds_the_best_known_size_and_it_wins(name: str) -> None:
    level = find_level(name)
    result = solver.solve(level, jobs=1)
    assert result.solved and result.program is not None
    assert result.size == level.best_known and result.searched_to == result.size - 1
    assert run_level(level, result.program).solved


def _counters(name: str, budget: int) -> tuple[int, list[int]]:
    status, _, counters = solver.run_task(solver.setup_search(find_level(name)), budget, (), 10**12, all_counters=True)
    return status, [int(c) for c in counters]


def test_prune_counters_name_the_rules_that_cut() -> None:
    status, c = _counters("Walking Piles", 5)  # four functions: every rule has something to cut
    assert status == kernel.EXHAUSTED and c[kernel.NODES] > 0
    for rule in (kernel.PR_ORDER, kernel.PR_BOUND, kernel.PR_PAIR, kernel.PR_LOOP, kernel.PR_WALL):
        assert c[rule] > 0, kernel.PRUNE_NAMES[rule - kernel.PR_ORDER]
    assert len(kernel.PRUNE_NAMES) == kernel.NCOUNTERS - kernel.PR_ORDER


def test_counters_do_not_change_the_search() -> None:
    setup = solver.setup_search(find_level("Fill The Blanks"))
    nodes = solver.run_task(setup, 6, (), 10**12)[2]
    _, c = _counters("Fill The Blanks", 6)
    assert nodes == c[kernel.NODES] == 149_034  # 231,154 before the counters (149,034 with the rules since)


@pytest.mark.parametrize(
    ("name", "budget", "tried"), [("Changing Places", 7, 3_456_423), ("Walking Piles", 7, 740_470)]
)
def test_the_extend_floor_cuts_only_what_the_bound_would(name: str, budget: int, tried: int) -> None:
    """A new register whose least possible bound is over budget skips its options at once (only "the function
    ends here" is tried); they were cut one by one before, so the options tried are the counts of before."""
    status, c = _counters(name, budget)
    assert status == kernel.EXHAUSTED and c[kernel.NODES] == tried
