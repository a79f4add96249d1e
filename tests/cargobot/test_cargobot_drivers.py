"""Driver sketches (``bots.drivers``): a level that can be set right pile by pile searched whole behind a driver in
F1 and small idioms in its last functions; through them ``solve`` reaches Vertical Sort and Palette Swap, which
no search had solved, at their best known sizes."""

from __future__ import annotations

import json
from pathlib import Path

from solving import Ticks, levels_file, solve_cmd

from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.bots.drivers import DriverSketch, driver_sketches, sub_searches
from puzzlebots.games.cargobot.bots.sweep import Sweep
from puzzlebots.games.cargobot.campaign import SWEEP_TURN, Campaign, Plan
from puzzlebots.games.cargobot.campaign import load_progress as load
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.language import format_registers, parse_registers, register_count
from puzzlebots.games.cargobot.levels import find_level, load_levels
from puzzlebots.games.cargobot.progress import ProgressFile
from puzzlebots.games.cargobot.records import Found

WORK = "work, step, touch neighbours"
LIFT = "lift, work when holding, step, touch neighbours"
STEP = "lift and step, work when holding"
#: Palette Swap's program from its "lift and step" sketch (``solve --sweeps``, docs/cargobot.md)
PALETTE_SWAP_14 = (
    "call4 call2_any call1 prog_2 claw call2_none call3 call3 call4 call4 call2_red prog_3 claw L prog_4 claw R"
)
#: Vertical Sort cut to two piles to sort, with a best known size of 15: its "lift" sketch finds a 15 in well under
#: a second, where the whole level's 18 takes minutes of two cores
SMALL_SORT = {
    "Vertical Sort": {
        "stacks": [[], ["blue", "green"], ["green", "blue"], []],
        "goal": [[], ["green", "blue"], ["green", "blue"], []],
        "best_known": 15,
    }
}


def _sketch(level_name: str, name: str, levels: Path | None = None) -> DriverSketch:
    level = find_level(level_name) if levels is None else load_levels(levels)[0]
    return {s.name: s for s in driver_sketches(level)}[name]


def _given(sketch: DriverSketch) -> str:
    return str(sketch.hints.describe()["fix"])


def test_which_levels_have_driver_sketches() -> None:
    """Only levels with a sweep sub-problem, and only sketches that leave two registers within the best known size
    (Mirror, 6, has a sweep and no sketch); Fill The Blanks and Even the Odds (9) have room for the shortest."""
    found = {lv.name: [s.name for s in driver_sketches(lv)] for lv in load_levels()}
    assert {name: names for name, names in found.items() if names} == {
        "Fill The Blanks": [STEP],
        "Even the Odds": [STEP],
        "Restoring Order": [WORK, LIFT, STEP],
        "Palette Swap": [WORK, LIFT, STEP],
        "Vertical Sort": [WORK, LIFT, STEP],
    }
    assert all(not driver_sketches(find_level(name)) for name in ("Multi Sort 2", "Genetic Code", "Mirror"))


def test_a_sketch_gives_f1_and_the_last_functions_in_the_levels_numbers(tmp_path: Path) -> None:
    assert [_given(s) for s in driver_sketches(find_level("Palette Swap"))] == [
        "call2 R call1 prog_3 R claw L prog_4 L claw R",
        "claw call2_any R call1 prog_3 R claw L prog_4 L claw R",
        "call4 call2_any call1 prog_4 claw R",
    ]
    sketch = _sketch("Palette Swap", STEP)
    assert sketch.level.name == "Palette Swap (driver: lift and step, work when holding)"
    assert sketch.hints.method == "driver" and sketch.hints.shape is None and sketch.hints.pile_rules is None
    # three functions: the step is F3, and the touches leave no function between F1 and them
    three = levels_file(
        tmp_path, ["Palette Swap"], {"Palette Swap": {"commands": ["right", "pickup", "left", "f1", "f2", "f3"]}}
    )
    assert [_given(s) for s in driver_sketches(load_levels(three)[0])] == ["call3 call2_any call1 prog_3 claw R"]


def test_a_toolbox_without_what_a_sketch_needs_has_no_such_sketch(tmp_path: Path) -> None:
    no_any = levels_file(tmp_path, ["Vertical Sort"], {"Vertical Sort": {"conditions": ["blue", "green", "none"]}})
    assert [s.name for s in driver_sketches(load_levels(no_any)[0])] == [WORK]
    no_left = levels_file(
        tmp_path, ["Vertical Sort"], {"Vertical Sort": {"commands": ["right", "pickup", "f1", "f2", "f3", "f4"]}}
    )
    assert [s.name for s in driver_sketches(load_levels(no_left)[0])] == [STEP]


def test_the_driver_sketches_come_before_the_sweeps() -> None:
    subs = sub_searches(find_level("Palette Swap"))
    assert [type(s) for s in subs] == [DriverSketch] * 3 + [Sweep]


def test_the_program_found_behind_the_step_sketch_wins_palette_swap_at_its_best_known_size() -> None:
    """What ``solve --level "Palette Swap" --sweeps`` found behind the "lift and step" sketch (336 s of its search
    on two cores, too long for a test: the search itself is tested on Vertical Sort below) wins the level on the
    game interpreter at 14, with the sketch's functions as given; with the step's direction reversed it loses."""
    program = parse_registers(PALETTE_SWAP_14)
    level = find_level("Palette Swap")
    assert register_count(program) == 14 and run_level(level, program).solved
    given = _sketch("Palette Swap", STEP).hints.fixed
    assert given is not None and all(not g or g == f for g, f in zip(given, program, strict=True))
    back = tuple(("left", c) if op == "right" else (op, c) for op, c in program[3])
    assert not run_level(level, (*program[:3], back)).solved


def test_solve_goes_through_a_driver_sketch_and_resumes_from_its_record(tmp_path: Path) -> None:
    """A small Vertical Sort (``SMALL_SORT``) with its exhaustive search stopped at size 2: the phase after it,
    given the second sketch only, searches it from size 1 and finds 15, the best known size; the program wins the
    level on the game interpreter, the touches as given (exchanged, it loses), and becomes the level's (method
    driver, not proven smallest). ``--resume`` reads both records back. The campaign's clock never moves, so the
    search ends where it finds the program, on any machine."""
    levels, progress = levels_file(tmp_path, ["Vertical Sort"], SMALL_SORT), tmp_path / "run.progress"
    book = ProgressFile(progress, solver.DEFAULT_TICK_CAP)
    sketch = _sketch("Vertical Sort", LIFT, levels)
    level = load_levels(levels)[0]
    stopped = solver.solve(level, jobs=1, max_size=2, book=book)
    shown: list[str] = []
    result = Campaign(Plan(jobs=1, clock=Ticks()), book).sweep_after(level, stopped, 600.0, [sketch], shown.append)
    assert result.solved and result.method == "driver" and result.size == 15 and result.searched_to == 2
    assert not result.proven_minimal and shown[0].startswith(": driver 1 of 1, size")
    program = result.program
    assert program is not None and run_level(level, program).solved, format_registers(program)
    given = sketch.hints.fixed
    assert given is not None and all(not g or g == f for g, f in zip(given, program, strict=True))
    assert not run_level(level, (program[0], program[1], program[3], program[2])).solved
    again = load(progress, solver.DEFAULT_TICK_CAP, load_levels(levels))
    assert again.levels["Vertical Sort"].result == Found(format_registers(program), 15, result.ticks, "driver")
    assert again.sweeps[sketch.level.name].result is not None
    out = tmp_path / "out.json"
    code, _, err = solve_cmd(
        "--level",
        "Vertical Sort",
        "--levels-file",
        levels,
        "--jobs",
        1,
        "--progress",
        progress,
        "--resume",
        "--json",
        out,
    )
    assert code == 0, err
    assert "resuming Vertical Sort: solved" in err and f"resuming {sketch.level.name}: solved" in err
    (row,) = json.loads(out.read_text())
    assert (row["size"], row["method"], row["proven_minimal"], row["program"]) == (
        15,
        "driver",
        False,
        format_registers(program),
    )


def test_the_turns_go_on_doubling_from_what_the_open_searches_had(tmp_path: Path) -> None:
    """A later call of the phase starts its turns at the least time a search not yet exhausted has had (here
    Restoring Order's run of the latest ``--all``: two sketches exhausted, the others 180 s, 132 s, 100 s),
    not at 20 s again; with no record, at 20 s."""
    level = find_level("Restoring Order")
    subs = sub_searches(level)
    book = ProgressFile(None, solver.DEFAULT_TICK_CAP)
    phases = Campaign(Plan(), book)
    assert phases.first_turn(subs) == SWEEP_TURN
    for sub, (searched, seconds) in zip(subs, [(13, 3.0), (13, 3.0), (12, 180.0), (9, 132.0), (9, 100.0)], strict=True):
        hints = sub.hints if isinstance(sub, DriverSketch) else solver.NO_HINTS
        rec = book.sweep_book().entry(sub.level, solver.setup_search(sub.level, solver.DEFAULT_TICK_CAP, hints).digest)
        rec.searched_to, rec.seconds = searched, seconds
    todo = [sub for sub in subs if not phases.exhausted(level, sub)]
    assert [type(sub) for sub in todo] == [DriverSketch, Sweep, Sweep]
    assert phases.first_turn(todo) == 100.0


def test_a_later_pass_gives_the_sweeps_the_whole_share(tmp_path: Path) -> None:
    """Mirror (a sweep, no driver sketch: 6 is too small for one) with its exhaustive search stopped at size 2:
    in pass 1 the level's exhaustive search goes on first and proves the 6; in a later pass its share goes to the
    sweep, which finds its 8 (3 + 5) while the exhaustive record stays at size 2. The clock never moves: each
    search ends where it finds its program."""
    level = find_level("Mirror")
    for later, expected in [(False, ("exhaustive", 6, 5)), (True, ("sweep", 8, 2))]:
        book = ProgressFile(tmp_path / f"{later}.progress", solver.DEFAULT_TICK_CAP)
        solver.solve(level, jobs=1, max_size=2, book=book)
        result = Campaign(Plan(jobs=1, clock=Ticks()), book).search_level(level, 60.0, 0.5, later=later)
        assert result.solved and (result.method, result.size, result.searched_to) == expected
        assert result.program is not None and run_level(level, result.program).solved
