"""Sub-problems (``Level.worlds``, ``poison``, ``finish``, ``home``: Elizarov's "Simplified" levels) in the solver: the
levels file is checked in one place, the readable interpreter plays their rules, and the kernel's smallest size
on small random sub-problems equals the smallest an enumeration of every program finds on that interpreter."""

from __future__ import annotations

import itertools
import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from puzzlebots.cli.app import cli
from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.bots.hints import parse_hints
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.language import parse_registers, register_count
from puzzlebots.games.cargobot.levels import Level, find_level, load_levels
from puzzlebots.games.cargobot.verify import play_out

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "cargobot" / "subproblems.json"
#: Elizarov's program for his "Restoring Order Simplified 6" (CargoBotSolver.txt), and ours (found by ``solve``)
HIS_RO6 = "R claw call2_red L call2_any call1_any prog_2 claw_blue call1 claw call2_red"
OURS_RO6 = "R claw call2_red L call2_blue call1_blue prog_2 claw_blue call1 claw call2_red"
#: the best known 13 of Restoring Order: a driver around the sub-problem's functions, as F2 and F3
RO13_FIX = "prog_2 R claw call3_red L call3_blue call2_blue prog_3 claw_blue call2 claw call3_red"


def _sub(level: Level, worlds: tuple = (), poison: str | None = None, finish: bool = False) -> Level:
    return replace(level, name=f"{level.name} (sub-problem)", worlds=worlds, poison=poison, finish=finish)


def test_the_example_file_loads_and_his_program_wins_both_ways() -> None:
    levels = {lv.name: lv for lv in load_levels(EXAMPLES)}
    six = levels["Restoring Order Simplified 6"]
    assert six.subproblem and len(six.boards()) == 6 and six.finish and six.poison == "grey"
    for program in (HIS_RO6, OURS_RO6):
        assert play_out(six, parse_registers(program)).solved
    # his programs for two one-board sub-problems win them too (so the file's colours are his letters)
    vs6 = "claw call2_blue L claw R call1_none call2_none claw prog_2 R claw L"  # P1 [ v B2 < v > N1 N2 v] P2 [ > v <]
    ps1 = "call2 L call2_blue call1_none L_any call2 L call1_red prog_2 claw R claw"  # P1 [2 < B2 N1 *< 2 < A1] ..
    assert play_out(levels["Vertical Sort Simplified 6"], parse_registers(vs6)).solved
    assert play_out(levels["Palette Swap Simplified 1"], parse_registers(ps1)).solved
    for level in levels.values():  # every board keeps its crates
        for _, stacks, goal in level.boards():
            assert sorted(c for p in stacks for c in p) == sorted(c for p in goal for c in p)
    # the claw starting over the middle pile (his sub-problem 5) lifts a grey crate at once
    assert play_out(levels["Restoring Order Simplified 5"], parse_registers(HIS_RO6)).outcome == "poisoned"
    # the functions, behind a driver, win the level itself (at the best known size)
    full = parse_registers("call2 R call1 " + RO13_FIX)
    assert run_level(find_level("Restoring Order"), full).solved and register_count(full) == 13


def test_finish_is_no_win_on_passing_the_goal() -> None:
    transporter = find_level("Transporter")
    loop = parse_registers("claw R claw call1")  # wins the level on the way, then runs on
    assert run_level(transporter, loop).solved
    finishing = _sub(transporter, finish=True)
    assert play_out(finishing, loop).outcome != "solved"
    assert play_out(finishing, parse_registers("claw R R R claw")).solved


def test_the_solver_finds_the_finishing_program() -> None:
    result = solver.solve(_sub(find_level("Transporter"), finish=True), jobs=1, max_size=6)
    assert result.solved and result.size == 5 and result.proven_minimal
    assert result.program is not None and play_out(_sub(find_level("Transporter"), finish=True), result.program).solved


def test_a_poisoned_board_has_no_program() -> None:
    level = _sub(find_level("Cargo 101"), poison="red")
    level = replace(level, stacks=(("red",), ()), goal=((), ("red",)), conditions=())
    result = solver.solve(level, jobs=1, max_size=5)
    assert not result.solved and result.searched_to == 5


def test_two_boards_need_a_program_that_wins_each_as_a_level() -> None:
    # Cargo 101, and its crate carried two piles on: "claw R claw" (3) wins the first only, a loop wins both
    both = _sub(find_level("Cargo 101"), worlds=((1, (("yellow",), (), ()), ((), (), ("yellow",))),))
    result = solver.solve(both, jobs=1, max_size=8)
    assert result.solved and result.program is not None and result.size == 4 and result.proven_minimal
    for claw, stacks, goal in both.boards():
        one = replace(both, claw=claw, stacks=stacks, goal=goal, worlds=())
        assert run_level(one, result.program).solved  # the game engine, board by board


# ------------------------- the kernel against an enumeration on the readable interpreter -------------------------

CRATES = ("red", "blue", "grey")
TICKS = 60  # the solver's tick cap and the interpreter's tick limit: the same rule (checked before each tick)


@st.composite
def _boards(draw: st.DrawFn) -> tuple[int, tuple, tuple]:
    """A small board; often its goal is one crate moved a pile over from under the claw, which three registers win."""
    npiles = draw(st.integers(2, 3))
    stacks = [draw(st.lists(st.sampled_from(CRATES), max_size=2)) for _ in range(npiles)]
    claw, step = draw(st.integers(1, npiles)), draw(st.sampled_from((-1, 1)))
    goal: list[list[str]] = [list(p) for p in stacks]
    if draw(st.booleans()):  # the same crates, dealt again
        goal = [[] for _ in range(npiles)]
        for crate in [c for p in stacks for c in p]:
            goal[draw(st.integers(0, npiles - 1))].append(crate)
    elif stacks[claw - 1] and 1 <= claw + step <= npiles:
        goal[claw - 1 + step].append(goal[claw - 1].pop())
    return claw, tuple(map(tuple, stacks)), tuple(map(tuple, goal))


def _smallest(level: Level, up_to: int) -> int | None:
    """The smallest size of a program (one function here) that wins on the readable interpreter, by enumeration."""
    registers = list(itertools.product(level.commands, (None, *level.conditions)))
    for size in range(1, up_to + 1):
        for program in itertools.product(registers, repeat=size):
            if play_out(level, (program,), tick_limit=TICKS).solved:
                return size
    return None


@settings(max_examples=40, deadline=None)
@example(first=(1, (("red",), ()), ((), ("red",))), more=[], same=False, finish=True, poison=False, home=True)
@given(
    first=_boards(),
    more=st.lists(_boards(), max_size=2),
    same=st.booleans(),
    finish=st.booleans(),
    poison=st.booleans(),
    home=st.booleans(),
)
def test_the_kernel_finds_the_smallest_size_the_interpreter_does(
    first: tuple, more: list, same: bool, finish: bool, poison: bool, home: bool
) -> None:
    claw, stacks, goal = first
    level = Level(
        "Test",
        None,
        "Random",
        claw,
        stacks,
        goal,
        (4,),
        ("right", "pickup", "left", "f1"),
        ("none",),
        (9, 9, 9),
        None,
        None,
        worlds=tuple([first] if same else more),
        poison="grey" if poison else None,
        finish=finish,
        home=finish and home,
    )
    if all(stacks == goal for _, stacks, goal in level.boards()):
        return  # won before any register runs: the search starts from one
    up_to = 3
    result = solver.solve(level, jobs=1, max_size=up_to, tick_cap=TICKS)
    assert result.size == _smallest(level, up_to)
    if result.program is not None:
        assert play_out(level, result.program, tick_limit=TICKS).solved


# ------------------------------------------- the levels file and the CLI -------------------------------------------


def _file(tmp_path: Path, **fields: object) -> Path:
    raw = json.loads(EXAMPLES.read_text())[0] | fields
    path = tmp_path / "levels.json"
    path.write_text(json.dumps([raw]))
    return path


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"worlds": {"claw": 1}}, "worlds must be a list"),
        ({"worlds": [{"claw": 1, "stacks": [[]]}]}, "world 2: expected an object with claw, stacks and goal"),
        ({"worlds": [{"claw": 3, "stacks": [[], []], "goal": [[], []]}]}, "world 2: claw must be a pile"),
        ({"worlds": [{"claw": 1, "stacks": [["red"]], "goal": [[], []]}]}, "same number of piles"),
        ({"worlds": [{"claw": 1, "stacks": [[]], "goal": [[]]}] * 16}, "at most 15 boards"),
        ({"worlds": [{"claw": 1, "stacks": [[]] * 9, "goal": [[]] * 9}] * 7}, "at most 64 piles"),
        ({"poison": "any"}, "reserved for conditions"),
        ({"poison": 7}, "poison must be a non-empty string"),
        ({"finish": "yes"}, "finish must be true or false"),
    ],
)
def test_a_malformed_subproblem_is_one_error(tmp_path: Path, fields: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        load_levels(_file(tmp_path, **fields))


@pytest.mark.parametrize("command", ["run", "sketch", "climb", "evolve"])
def test_only_solve_reads_a_subproblem(command: str) -> None:
    args = ["cargobot", command, "--levels-file", str(EXAMPLES), "--level", "Restoring Order Simplified 6"]
    result = CliRunner().invoke(cli, args + (["--program", "claw"] if command == "run" else []))
    assert result.exit_code == 2, result.output
    assert "is a sub-problem" in result.output and "Traceback" not in result.output


def test_the_levels_table_counts_the_boards() -> None:
    result = CliRunner().invoke(cli, ["cargobot", "levels", "--levels-file", str(EXAMPLES), "--json"])
    rows = {row["name"]: row for row in json.loads(result.output)}
    assert rows["Restoring Order Simplified 6"]["boards"] == 6 and rows["Palette Swap Simplified 1"]["boards"] == 1


def test_board_rules_refuse_a_subproblem() -> None:
    args = [
        "cargobot",
        "solve",
        "--levels-file",
        str(EXAMPLES),
        "--level",
        "Restoring Order Simplified 6",
        "--board-rules",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "is a sub-problem" in result.output


def test_pile_rules_count_every_board() -> None:
    args = [
        "cargobot",
        "solve",
        "--levels-file",
        str(EXAMPLES),
        "--level",
        "Restoring Order Simplified 6",
        "--pile-rules",
        "I G I",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and "one rule per pile (18 for" in result.output


def test_the_route_to_restoring_order_13() -> None:
    """The sub-problem's functions given whole (``--fix``): the driver is found and the program is the 13."""
    level = find_level("Restoring Order")
    result = solver.solve(level, jobs=1, hints=parse_hints(level, None, None, None, RO13_FIX))
    assert result.solved and result.size == 13 and result.method == "hinted"
    assert result.program is not None and run_level(level, result.program).solved


def test_a_subproblem_record_is_replayed_on_its_rules(tmp_path: Path) -> None:
    """``--resume`` believes a sub-problem's recorded program only if it wins by the sub-problem's rules (within the
    file's tick cap): the finishing Transporter's 5, not the looping 4 that wins the plain level."""
    raw = json.loads(json.dumps(find_level("Transporter").__dict__, default=list)) | {"finish": True}
    raw = {k: v for k, v in raw.items() if k not in ("worlds", "original_name")}
    levels = tmp_path / "levels.json"
    levels.write_text(json.dumps([raw]))
    out = tmp_path / "out.json"
    args = ["cargobot", "solve", "--levels-file", str(levels), "--level", "Transporter", "--jobs", "1"]
    first = CliRunner().invoke(cli, [*args, "--json", str(out)])
    assert first.exit_code == 0, first.output
    assert json.loads(out.read_text())[0]["size"] == 5
    again = CliRunner().invoke(cli, [*args, "--json", str(out), "--resume"])
    assert again.exit_code == 0 and json.loads(out.read_text())[0]["program"] == "claw R R R claw"
    record = Path(f"{out}.progress")
    doc = json.loads(record.read_text())
    rec = doc["levels"]["Transporter"]  # a record of a 4 found after sizes 1-3, a program that wins the plain level
    rec["result"] |= {"program": "claw R claw call1", "size": 4, "ticks": 11}
    rec["searched_to"], rec["sizes"] = 3, rec["sizes"][:3]
    record.write_text(json.dumps(doc))
    tampered = CliRunner().invoke(cli, [*args, "--json", str(out), "--resume"])
    assert tampered.exit_code == 2 and "does not win the level as recorded" in tampered.output
