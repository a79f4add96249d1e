"""Sweep sub-problems (``bots.sweep``): read off a level alone they are Elizarov's hand-drawn boards, a helper that
wins them wins the level behind the driver (``Level.home`` makes sure of it), and ``solve`` goes through them
when its exhaustive search runs out of time, keeping their records in the progress file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solving import Ticks, campaign_clock, levels_file, solve_cmd, stop_task

from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.bots.sweep import DRIVER, POISON, compose, sweeps
from puzzlebots.games.cargobot.campaign import Campaign, Plan
from puzzlebots.games.cargobot.campaign import load_progress as load
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.language import format_registers, parse_registers
from puzzlebots.games.cargobot.levels import Level, find_level, load_levels
from puzzlebots.games.cargobot.progress import ProgressFile
from puzzlebots.games.cargobot.records import Found
from puzzlebots.games.cargobot.verify import play_out

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "cargobot" / "subproblems.json"
#: the helper of Restoring Order's best known 13 (his sub-problem 6's program, found by ``solve`` on it)
RO_HELPER = "R claw call2_red L call2_blue call1_blue prog_2 claw_blue call1 claw call2_red"


def _his(name: str) -> list:
    return [
        (claw, tuple(map(tuple, s)), tuple(map(tuple, g)))
        for claw, s, g in {lv.name: lv for lv in load_levels(EXAMPLES)}[name].boards()
    ]


def test_the_sweeps_read_off_the_level_are_his_boards() -> None:
    vertical = sweeps(find_level("Vertical Sort"))
    assert [s.start for s in vertical] == ["on its pile"]  # the claw starts on the first pile to sort
    assert vertical[0].level.boards() == _his("Vertical Sort Simplified 7")
    restoring = {s.start: s.level for s in sweeps(find_level("Restoring Order"))}
    ours, his = restoring["left of its pile"].boards(), _his("Restoring Order Simplified 6")
    assert ours[:5] == his[:5]
    # his last board has one poison crate more on the left than the level has there (goal pile 6 holds one crate)
    assert ours[5] == (1, (("blue",), ("blue",) + ("red",) * 5, ()), (("blue",), ("blue",), ("red",) * 5))
    assert his[5][1][0] == (POISON, "blue")
    assert len(restoring["on its pile"].boards()) == 7  # also the empty first pile, where the claw starts
    for sub in restoring.values():
        assert sub.finish and sub.home and sub.poison == POISON and sub.functions == (8, 8, 5)
        assert sub.commands == ("right", "pickup", "left", "f1", "f2", "f3")


@pytest.mark.parametrize(
    ("stacks", "goal", "why"),
    [
        ((("red", "blue"), ()), (("blue",), ("red",)), "its surplus carried right: a sweep"),
        ((("red", "blue"), ()), ((), ("red", "blue")), "a surplus of two colours: its order on the next pile unknown"),
        (((), ("red",)), (("red",), ()), "a pile short of the crates its goal needs"),
        ((("red",),), (("red",),), "nothing to do"),
        ((("red", "red"), ()), (("red",), ()), "a surplus and no pile right of it"),
    ],
)
def test_which_levels_have_a_sweep(stacks: tuple, goal: tuple, why: str) -> None:
    level = replace(
        find_level("Cargo 101"),
        stacks=stacks,
        goal=goal,
        conditions=("red", "blue"),
        commands=("right", "pickup", "left", "f1", "f2"),
        functions=(8, 8),
    )
    assert bool(sweeps(level)) == why.endswith("a sweep")


def test_no_sweep_where_the_piles_do_not_come_right_one_by_one() -> None:
    assert not sweeps(find_level("Multi Sort 2")) and not sweeps(find_level("Genetic Code"))
    assert not sweeps(find_level("Go Left"))  # its claw starts right of piles that must change
    assert not sweeps(load_levels(EXAMPLES)[0])  # a sub-problem is not cut again


def test_the_route_to_13_composes() -> None:
    program = compose(parse_registers(RO_HELPER))
    assert program[0] == DRIVER and format_registers(program).startswith("call2 R call1 prog_2 R claw call3_red")
    assert run_level(find_level("Restoring Order"), program).solved
    subs = {s.start: s.level for s in sweeps(find_level("Restoring Order"))}
    assert play_out(subs["left of its pile"], parse_registers(RO_HELPER)).solved
    assert play_out(subs["on its pile"], parse_registers(RO_HELPER)).outcome == "poisoned"  # it starts with R


def test_home_is_the_rule_that_makes_a_helper_carry_over() -> None:
    """Transporter's sweep: the helper the search finds comes home and wins the level behind the driver; a
    helper that wins a board but stays on the right pile (``claw R claw``) wins it only without ``home``."""
    level = find_level("Transporter")
    sub = sweeps(level)[0].level
    result = solver.solve(sub, jobs=1, max_size=6)
    assert result.program is not None and run_level(level, compose(result.program)).solved
    away = parse_registers("claw R claw")  # wins the one board but stays on the right pile
    assert play_out(replace(sub, home=False), away).solved and play_out(sub, away).outcome == "finished"


CRATES = ("red", "blue")


@st.composite
def _levels(draw: st.DrawFn) -> Level:
    """A small level built as a sweep sets it right: each pile keeps its crates but those of one colour (or none),
    in any order, and passes those on to the next."""
    npiles = draw(st.integers(2, 4))
    stacks = [draw(st.lists(st.sampled_from(CRATES), max_size=2)) for _ in range(npiles)]
    goal, carried = [], []
    for p in range(npiles):
        pile = stacks[p] + carried
        moved = draw(st.sampled_from((None, *CRATES))) if p + 1 < npiles else None
        carried = [c for c in pile if c == moved]
        goal.append(draw(st.permutations([c for c in pile if c != moved])))
    return replace(
        find_level("Cargo 101"),
        pack="Test",
        name="Random",
        claw=1,
        stacks=tuple(map(tuple, stacks)),
        goal=tuple(map(tuple, goal)),
        functions=(4, 4, 4),
        commands=("right", "pickup", "left", "f1", "f2", "f3"),
        conditions=(*CRATES, "none", "any"),
    )


@settings(max_examples=25, deadline=None)
@given(level=_levels())
def test_a_helper_that_wins_the_sweep_wins_the_level(level: Level) -> None:
    assert sweeps(level) or level.stacks == level.goal
    for sweep in sweeps(level):
        result = solver.solve(sweep.level, jobs=1, max_size=5, tick_cap=200)
        if result.program is not None:
            assert play_out(sweep.level, result.program, 200).solved
            assert run_level(level, compose(result.program)).solved, format_registers(result.program)


def test_solve_goes_through_the_sweep_and_keeps_its_record(tmp_path: Path) -> None:
    """After the exhaustive search stops (here at size 2), the sweep phase finds Mirror's helper, composes the
    level's program (method sweep, not proven smallest), and a resumed run takes it from the progress file."""
    level = find_level("Mirror")
    path = tmp_path / "run.progress"
    book = ProgressFile(path, solver.DEFAULT_TICK_CAP)
    stopped = solver.solve(level, jobs=1, max_size=2, book=book)
    shown: list[str] = []
    result = Campaign(Plan(jobs=1, clock=Ticks()), book).sweep_after(level, stopped, 30.0, sweeps(level), shown.append)
    assert result.solved and result.method == "sweep" and not result.proven_minimal and result.searched_to == 2
    assert result.program is not None and result.program[0] == DRIVER and run_level(level, result.program).solved
    assert shown and shown[0].startswith(": sweep 1 of 1, size")
    again = load(path, solver.DEFAULT_TICK_CAP, load_levels())
    ((name, record),) = again.sweeps.items()
    assert name == "Mirror (sweep, helper starting on its pile)" and record.result is not None
    assert again.levels["Mirror"].result == Found(
        format_registers(result.program), result.size or 0, result.ticks or 0, "sweep"
    )
    nodes = record.nodes
    phases = Campaign(Plan(jobs=1, clock=Ticks()), again)
    resumed = phases.sweep_after(level, stopped, 30.0, sweeps(level), shown.append)
    assert resumed.program == result.program and again.sweeps[name].nodes == nodes  # nothing searched again


def test_solve_on_a_level_its_exhaustive_search_leaves_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Mirror moved out of Tutorial-Hard, its exhaustive search cut at its 4th task (the deadline, as a stub):
    ``solve`` finds it through the sweep (3 + 5 registers, above the best known 6: provisional), and ``--resume``
    goes on below that size from the record, finds the 6 and proves it smallest."""
    path = levels_file(tmp_path, ["Mirror"], {"Mirror": {"pack": "Crazy"}})
    out = tmp_path / "out.json"
    args = ["--levels-file", path, "--level", "Mirror", "--jobs", "1", "--json", out]
    with monkeypatch.context() as patch:
        stop_task(patch, "Mirror", (4, TimeoutError))
        campaign_clock(patch)
        code, _, err = solve_cmd(*args, "--time-limit", "60")
    assert code == 0, err
    (row,) = json.loads(out.read_text())
    assert (row["solved"], row["method"], row["size"], row["proven_minimal"]) == (True, "sweep", 8, False)
    assert row["program"].startswith("call2 R call1 prog_2 ")
    code, _, err = solve_cmd(*args, "--resume")
    assert code == 0, err
    assert "resuming Mirror: solved by the sweep search at size 8 (best known 6)" in err
    assert "resuming Mirror (sweep, helper starting on its pile): solved" in err
    (row,) = json.loads(out.read_text())
    assert (row["method"], row["size"], row["proven_minimal"]) == ("exhaustive", 6, True)


def test_a_sweep_record_for_no_such_sub_problem_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.progress"
    book = ProgressFile(path, solver.DEFAULT_TICK_CAP)
    sub = sweeps(find_level("Mirror"))[0].level
    solver.solve(sub, jobs=1, max_size=2, book=book.sweep_book())
    doc = json.loads(path.read_text())
    doc["sweeps"]["Mirror (sweep, helper starting left of its pile)"] = doc["sweeps"].pop(sub.name)
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match="names sweep sub-problem .* which this levels file lacks"):
        load(path, solver.DEFAULT_TICK_CAP, load_levels())
    # a levels file where Mirror is changed: its sub-problem's record no longer fits
    other = levels_file(tmp_path, ["Mirror"], {"Mirror": {"goal": [[], [], [], [], [], []]}})
    doc["sweeps"] = {sub.name: doc["sweeps"].popitem()[1]}
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError):
        load(path, solver.DEFAULT_TICK_CAP, load_levels(other))


@pytest.mark.parametrize(
    ("fields", "message"),
    [({"home": True}, "home .* needs finish"), ({"home": 1, "finish": True}, "home must be true or false")],
)
def test_a_malformed_home_is_one_error(tmp_path: Path, fields: dict, message: str) -> None:
    raw = json.loads(EXAMPLES.read_text())[0] | {"finish": False} | fields
    path = tmp_path / "levels.json"
    path.write_text(json.dumps([raw]))
    with pytest.raises(InputError, match=message):
        load_levels(path)


def test_sweeps_alone(tmp_path: Path) -> None:
    """``--sweeps`` runs the sweep phase alone: Mirror's 8 (3 + 5) at once, no exhaustive size searched first;
    resumed, the record's result is taken as it is."""
    out = tmp_path / "out.json"
    code, _, err = solve_cmd("--level", "Mirror", "--sweeps", "--jobs", "1", "--json", out)
    assert code == 0, err
    (row,) = json.loads(out.read_text())
    assert (row["method"], row["size"], row["searched_to"], row["proven_minimal"]) == ("sweep", 8, 0, False)
    assert run_level(find_level("Mirror"), parse_registers(row["program"])).solved
    code, _, err = solve_cmd("--level", "Mirror", "--sweeps", "--jobs", "1", "--json", out, "--resume")
    assert code == 0 and "resuming Mirror (sweep, helper starting on its pile): solved" in err
    assert json.loads(out.read_text())[0]["program"] == row["program"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--level", "Multi Sort 2"], "--sweeps: Multi Sort 2 has no sweep sub-problem"),
        (["--all"], "--sweeps is for one level: not with --all"),
        (["--level", "Mirror", "--max-size", "5"], "--max-size is not for --sweeps"),
        (["--level", "Mirror", "--board-rules"], "is not for"),
    ],
)
def test_sweeps_alone_refuses(args: list[str], message: str) -> None:
    code, _, err = solve_cmd(*args, "--sweeps")
    assert code == 2 and message in err and "Traceback" not in err
