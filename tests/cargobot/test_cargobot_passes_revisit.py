"""A level the sketch search solved above its best known size stays open. Later passes and
``--resume`` go on with its exhaustive search from its record (sizes and frontier), up to the sketch
program's size: a smaller program replaces it (method exhaustive, proven minimal), every smaller size
exhausted proves it minimal, and until then the table shows it, not proven. A program at or below the best
known size, or on a level with none, ends the level.

The first pass's exhaustive search stops at a chosen task (its time running out there), on a clock that never
moves (``solving.campaign_clock``), and its sketch search is stubbed to hand back a chosen winning program (the
search under board rules, which would come first, is off); every other search runs for real. Come Together 2 (best
known 7) is moved to the Crazy pack so the sketch search runs on it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from solving import campaign_clock, levels_file, solve_cmd, stop_task

import puzzlebots.games.cargobot.campaign as campaign
from puzzlebots.games.cargobot.bots.sketch import SketchResult
from puzzlebots.games.cargobot.bots.solve import SolveResult, solve
from puzzlebots.games.cargobot.campaign import load_progress as load
from puzzlebots.games.cargobot.language import parse_registers, register_count
from puzzlebots.games.cargobot.levels import Level, find_level, load_levels
from puzzlebots.games.cargobot.progress import ProgressFile

LEVEL = "Come Together 2"  # size 7; sizes 1-6 are one task each, size 7 splits into about 90 tasks
IN_SIZE_7 = 10  # a task of size 7, after its first split
IN_SIZE_3 = 3  # the task of size 3
NINE = "call2 call1 prog_2 claw R claw call2_yellow L R_none L_none"  # wins; the last two never fire
SEVEN = "call2 call1 prog_2 claw R claw call2_yellow L"  # the smallest program the search finds


@pytest.fixture(scope="module")
def fresh() -> SolveResult:
    """``LEVEL`` searched in one go: the program and node count a search stopped and gone on with must match."""
    return solve(find_level(LEVEL), jobs=1, book=ProgressFile(None, 5000))


def _setup(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    program: str,
    best_known: int | None,
    *stops: tuple[int, type[BaseException]],
) -> tuple[Path, list[int], list[int]]:
    """``LEVEL`` beyond Tutorial-Hard with ``best_known``, its search stopped at ``stops``, and its sketch search
    winning with ``program`` at once. The levels file, the budgets of the tasks run, the sketch seeds drawn."""
    levels = levels_file(tmp_path, ["Cargo 101", LEVEL], {LEVEL: {"pack": "Crazy", "best_known": best_known}})
    budgets, seeds = stop_task(monkeypatch, LEVEL, *stops), []

    def sketching(lv: Level, seed: int, time_limit: float, **kwargs: Any) -> SketchResult:
        seeds.append(seed)
        found = parse_registers(program)
        return SketchResult(
            lv.name, seed, True, found, register_count(found), register_count(found), None, None, 0.5, 1, 100, None
        )

    monkeypatch.setattr(campaign, "run_sketch", sketching)
    monkeypatch.setattr(campaign, "board_hints", lambda lv: None)  # its board has rules: no search under them here
    campaign_clock(monkeypatch)  # no time runs out: the searches stop at ``stops`` or where they are done
    return levels, budgets, seeds


def _row(out: Path) -> dict[str, Any]:
    return {r["level"]: r for r in json.loads(out.read_text())}[LEVEL]


def _run(levels: Path, out: Path, *extra: object) -> tuple[int, str, str]:
    return solve_cmd("--all", "--jobs", "1", "--levels-file", levels, "--total-time", 300, "--json", out, *extra)


def test_a_sketch_program_above_the_best_known_is_replaced_in_pass_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: SolveResult
) -> None:
    levels, budgets, seeds = _setup(tmp_path, monkeypatch, NINE, 7, (IN_SIZE_7, TimeoutError))
    limits: list[float | None] = []  # the time limit of each exhaustive session of LEVEL

    def recording(level: Level, **kwargs: Any) -> SolveResult:
        if level.name == LEVEL:
            limits.append(kwargs["time_limit"])
        return solve(level, **kwargs)

    monkeypatch.setattr(campaign, "run_solve", recording)
    out = tmp_path / "s.json"
    code, _, err = _run(levels, out)
    assert code == 0, err
    assert "pass 2: 1 level solved above its best known size gets the" in err
    row = _row(out)
    assert (row["pass"], row["size"], row["method"], row["proven_minimal"], row["searched_to"]) == (
        2,
        7,
        "exhaustive",
        True,
        6,
    )
    # pass 2 went on from pass 1's frontier: no size or task searched twice, the nodes of one search in one go
    assert (row["program"], row["nodes"]) == (SEVEN, fresh.nodes)
    assert budgets[:6] == [1, 2, 3, 4, 5, 6] and budgets.count(7) == len(budgets) - 6
    # one sketch search (pass 1); pass 2 gave the level's whole share to the exhaustive search
    assert seeds == [0] and len(limits) == 2
    assert limits[0] is not None and limits[1] is not None and limits[0] < 150 < 250 < limits[1]


def test_the_sketch_program_survives_ctrl_c_and_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: SolveResult
) -> None:
    levels, _, _ = _setup(
        tmp_path, monkeypatch, NINE, 7, (IN_SIZE_7, TimeoutError), (IN_SIZE_7 + 20, KeyboardInterrupt)
    )
    out = tmp_path / "s.json"
    code, _, err = _run(levels, out)
    assert code == 130 and "pass 2: 1 level solved above its best known size" in err
    monkeypatch.undo()
    rec = load(tmp_path / "s.json.progress", 5000, load_levels(levels)).levels[LEVEL]
    assert rec.result is not None and (rec.result.program, rec.result.method) == (NINE, "sketch")
    assert rec.searched_to == 6 and rec.frontier is not None and rec.frontier.unfinished()
    # no time for the sizes below it (--max-size 6): the sketch program, not proven minimal
    code, _, err = _run(levels, out, "--resume", "--max-size", 6)
    assert code == 0, err
    assert f"resuming {LEVEL}: solved by the sketch search at size 9 (best known 7), sizes up to 6 searched, " in err
    row = _row(out)
    assert (row["pass"], row["size"], row["program"], row["method"], row["proven_minimal"], row["searched_to"]) == (
        1,
        9,
        NINE,
        "sketch",
        False,
        6,
    )
    # with time, the resumed run goes on from the frontier and finds the smallest program
    code, _, err = _run(levels, out, "--resume")
    assert code == 0, err
    row = _row(out)
    assert (row["pass"], row["size"], row["method"], row["proven_minimal"]) == (1, 7, "exhaustive", True)
    assert (row["program"], row["nodes"]) == (SEVEN, fresh.nodes)


def test_every_smaller_size_exhausted_proves_the_sketch_program_minimal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A levels file claiming a best known 6 (the level has none below 7): the sketch's 7 stays open after
    pass 1 (sizes up to 2 searched); pass 2 exhausts sizes 3-6 and so proves it minimal, never trying 7."""
    levels, budgets, seeds = _setup(tmp_path, monkeypatch, SEVEN, 6, (IN_SIZE_3, TimeoutError))
    out = tmp_path / "s.json"
    code, _, err = _run(levels, out)
    assert code == 0, err
    assert "pass 2: 1 level solved above its best known size gets the" in err and "pass 3" not in err
    row = _row(out)
    assert (row["pass"], row["size"], row["program"], row["method"], row["proven_minimal"], row["searched_to"]) == (
        2,
        7,
        SEVEN,
        "sketch",
        True,
        6,
    )
    assert budgets == [1, 2, 3, 4, 5, 6] and seeds == [0]
    rec = load(tmp_path / "s.json.progress", 5000, load_levels(levels)).levels[LEVEL]
    assert rec.frontier is None and [s["size"] for s in rec.sizes] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize("best_known", [7, 8, None], ids=["at the best known", "below it", "none known"])
def test_a_sketch_program_at_or_below_the_best_known_ends_the_level(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, best_known: int | None
) -> None:
    levels, budgets, seeds = _setup(tmp_path, monkeypatch, SEVEN, best_known, (IN_SIZE_3, TimeoutError))
    out = tmp_path / "s.json"
    code, _, err = _run(levels, out)
    assert code == 0, err
    assert "pass 2" not in err
    row = _row(out)
    assert (row["pass"], row["size"], row["method"], row["proven_minimal"], row["searched_to"]) == (
        1,
        7,
        "sketch",
        False,
        2,
    )
    assert budgets == [1, 2] and seeds == [0]
    rec = load(tmp_path / "s.json.progress", 5000, load_levels(levels)).levels[LEVEL]
    assert rec.frontier is None and rec.result is not None and rec.result.method == "sketch"
