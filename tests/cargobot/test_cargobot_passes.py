"""``cargobot solve --all`` gives the time its first pass left to the levels it left unsolved. A later pass goes on
from each level's record (no finished size or task searched again), its sketch search draws restarts of its own,
the schedule of every pass ends within ``--total-time``, and the table and the JSON name the pass that gave each
row. The campaigns run on a clock of the test's (``solving.Ticks``) and the searches stop at a chosen task, so every
run is the same on any machine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from solving import Ticks, campaign_clock, levels_file, solve_cmd, stop_task, unswept

import puzzlebots.games.cargobot.campaign as campaign
from puzzlebots.games.cargobot.bots.sketch import SketchResult
from puzzlebots.games.cargobot.bots.solve import SolveResult, setup_search, solve
from puzzlebots.games.cargobot.campaign import LEVEL_OVERHEAD, PASS_SECONDS, Campaign, Plan, level_time
from puzzlebots.games.cargobot.campaign import load_progress as load
from puzzlebots.games.cargobot.levels import Level, find_level, load_levels
from puzzlebots.games.cargobot.progress import ProgressFile
from puzzlebots.games.cargobot.records import Found, LevelProgress

LEVEL = "Come Together 2"  # size 7; sizes 1-6 are one task each, size 7 splits into about 90 tasks
STOP_AT = 10  # a task of size 7, after its first split


def _stop_task(monkeypatch: pytest.MonkeyPatch, *stops: tuple[int, type[BaseException]]) -> list[int]:
    return stop_task(monkeypatch, LEVEL, *stops)


@pytest.fixture(scope="module")
def fresh() -> tuple[SolveResult, LevelProgress]:
    """``LEVEL`` searched in one go: the program, and the record every stopped-and-resumed search must match."""
    book = ProgressFile(None, 5000)
    return solve(find_level(LEVEL), jobs=1, book=book), book.levels[LEVEL]


def test_the_second_pass_goes_on_from_where_the_first_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: tuple[SolveResult, LevelProgress]
) -> None:
    result, fresh_rec = fresh
    levels, out = levels_file(tmp_path, ["Cargo 101", LEVEL]), tmp_path / "s.json"
    budgets = _stop_task(monkeypatch, (STOP_AT, TimeoutError))
    campaign_clock(monkeypatch)
    calls: list[tuple[float | None, int]] = []  # (time limit, sizes searched after) of each exhaustive session

    def recording(level: Level, **kwargs: Any) -> SolveResult:
        found = solve(level, **kwargs)
        calls.append((kwargs["time_limit"], found.searched_to))
        return found

    monkeypatch.setattr(campaign, "run_solve", recording)
    code, stdout, err = solve_cmd("--all", "--jobs", "1", "--levels-file", levels, "--total-time", 300, "--json", out)
    assert code == 0, err
    assert "pass 2: 1 unsolved level gets the" in err
    # pass 1: Cargo 101 solved; LEVEL stopped inside size 7 with sizes up to 6 searched; pass 2: LEVEL solved
    assert [searched for _, searched in calls] == [2, 6, 6]
    assert all(limit is not None and 0 < limit <= 300 for limit, _ in calls)
    # no size searched twice: one task each for sizes 1-6, and size 7's tasks once (the stopped one ran once,
    # in pass 2); so the nodes are exactly those of the search run in one go
    assert budgets[:6] == [1, 2, 3, 4, 5, 6] and budgets.count(7) == len(budgets) - 6
    rows = {r["level"]: r for r in json.loads(out.read_text())}
    assert (rows["Cargo 101"]["pass"], rows["Cargo 101"]["solved"]) == (1, True)
    row = rows[LEVEL]
    assert (row["pass"], row["solved"], row["size"], row["proven_minimal"], row["method"]) == (
        2,
        True,
        7,
        True,
        "exhaustive",
    )
    assert (row["program"], row["nodes"]) == (result.to_json()["program"], result.nodes)
    rec = load(tmp_path / "s.json.progress", 5000, load_levels(levels)).levels[LEVEL]
    assert [s["nodes"] for s in rec.sizes] == [s["nodes"] for s in fresh_rec.sizes]
    assert "pass" in stdout and "solved 2/2" in stdout


def test_ctrl_c_in_the_second_pass_and_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh: tuple[SolveResult, LevelProgress]
) -> None:
    """Stopped by its time in pass 1, then Ctrl-C in pass 2: ``--resume`` goes on from the frontier left."""
    result, _ = fresh
    levels, out = levels_file(tmp_path, [LEVEL]), tmp_path / "s.json"
    _stop_task(monkeypatch, (STOP_AT, TimeoutError), (STOP_AT + 20, KeyboardInterrupt))
    campaign_clock(monkeypatch)
    code, _, err = solve_cmd("--all", "--jobs", "1", "--levels-file", levels, "--total-time", 300, "--json", out)
    assert code == 130 and "pass 2: 1 unsolved level" in err
    assert f"progress saved in {out}.progress: continue with --resume" in err
    monkeypatch.undo()
    rec = load(tmp_path / "s.json.progress", 5000, load_levels(levels)).levels[LEVEL]
    assert rec.result is None and rec.searched_to == 6 and rec.frontier is not None
    code, _, err = solve_cmd("--all", "--jobs", "1", "--levels-file", levels, "--json", out, "--resume")
    assert code == 0, err
    assert f"resuming {LEVEL}: sizes up to 6 searched" in err
    row = json.loads(out.read_text())[0]
    assert (row["pass"], row["size"], row["proven_minimal"], row["nodes"]) == (1, 7, True, result.nodes)


def _fake_search(
    book: ProgressFile,
    clock: Ticks,
    solved_in: dict[str, int],
    cost: float,
    limit: float,
    log: list[tuple[str, int, float]],
) -> Any:
    """A search on a fake clock: a level in ``solved_in`` is solved in that pass after ``cost`` seconds; any
    other search uses its whole time and overruns it by half of what the schedule keeps back per level."""

    def search(lv: Level, seconds: float | None, number: int) -> SolveResult:
        assert seconds is not None and 0 < seconds <= limit
        rec = book.levels.setdefault(lv.name, LevelProgress(lv.name, "", ""))
        assert rec.result is None, f"{lv.name} searched again after it was solved"
        log.append((lv.name, number, seconds))
        solved = solved_in.get(lv.name) == number
        clock.now += min(cost, seconds) if solved else seconds + LEVEL_OVERHEAD / 2
        rec.searched_to = 5
        if solved:
            rec.result = Found("", 6, 1, "exhaustive")
        return SolveResult(
            level=lv.name, solved=solved, size=6 if solved else None, seconds=0.0, nodes=0, searched_to=5
        )

    return search


NEVER = ["Genetic Code", "Multi Sort 2", "Restoring Order", "Palette Swap", "Vertical Sort"]


@pytest.mark.parametrize("total, passes", [(600.0, 2), (3600.0, 3)])
def test_every_pass_ends_within_the_total_and_the_unsolved_levels_get_what_is_left(total: float, passes: int) -> None:
    """Every level solved in pass 1 after 10 s, but five never solved and two solved in pass 2 (Count in Binary,
    the last of pass 2, early: in the hour the time it saves goes to a pass 3). The whole run, overruns
    included, ends within the total, and what is left after the last pass is too little for another."""
    levels, book, clock = load_levels(), ProgressFile(None, 5000), Ticks()
    log: list[tuple[str, int, float]] = []
    solved_in = {lv.name: 1 for lv in levels if lv.name not in NEVER} | {"Even the Odds": 2, "Count in Binary": 2}
    search = _fake_search(book, clock, solved_in, 10.0, 600.0, log)
    announced: list[tuple[int, list[str], float]] = []
    rows = campaign.passes(
        levels,
        book,
        Plan(time_limit=600.0, total_time=total, clock=clock),
        search,
        lambda n, lvs, room: announced.append((n, [lv.name for lv in lvs], room)),
    )
    assert clock.now <= total
    second = ["Even the Odds", *NEVER[:2], "Restoring Order", "Palette Swap", "Vertical Sort", "Count in Binary"]
    assert [(n, names) for n, names, _ in announced] == [(2, second), (3, NEVER)][: passes - 1]
    assert [name for name, n, _ in log if n == 2] == second
    assert [name for name, n, _ in log if n == 3] == (NEVER if passes == 3 else [])
    assert {name: rows[name].number for name in NEVER} == {name: passes for name in NEVER}
    assert (rows["Even the Odds"].number, rows["Count in Binary"].number, rows["Cargo 101"].number) == (2, 2, 1)
    assert rows["Count in Binary"].result.solved and not rows["Vertical Sort"].result.solved
    # no level is searched again once solved, nor twice in a pass
    assert all(n <= solved_in.get(name, passes) for name, n, _ in log)
    assert len({(name, n) for name, n, _ in log}) == len(log)
    assert total - clock.now < (PASS_SECONDS + LEVEL_OVERHEAD) * len(NEVER)


@pytest.mark.parametrize(
    "max_size, total, limit",
    [(None, None, 10.0), (8, 3600.0, 10.0), (None, 20.0, 600.0)],
    ids=["time-limit only", "max-size", "no time left"],
)
def test_no_further_pass_without_a_total_with_max_size_or_without_time_left(
    max_size: int | None, total: float | None, limit: float
) -> None:
    levels = [find_level(name) for name in ("Genetic Code", "Vertical Sort")]
    book, clock = ProgressFile(None, 5000), Ticks()
    log: list[tuple[str, int, float]] = []
    announced: list[int] = []
    plan = Plan(time_limit=limit, total_time=total, max_size=max_size, clock=clock)
    rows = campaign.passes(
        levels, book, plan, _fake_search(book, clock, {}, 1.0, limit, log), lambda n, *_: announced.append(n)
    )
    assert announced == [] and [n for _, n, _ in log] == [1, 1]
    assert {row.number for row in rows.values()} == {1}


def test_each_sketch_search_draws_a_seed_no_earlier_one_drew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The exhaustive search (stubbed: out of time at once) has its share, the sketch search the rest (Vertical Sort
    with no sweep), with the level record's count of sketch searches as its seed: pass 1 draws seed 0, pass 2 seed
    1, and a run resumed from the file goes on with seed 2, so no search replays another's restarts."""
    level, path = unswept(tmp_path)[1], tmp_path / "p.json"
    book = ProgressFile(path, 5000)
    seeds: list[tuple[int, float]] = []

    def sketching(lv: Level, seed: int, time_limit: float, **kwargs: Any) -> SketchResult:
        assert load(path, 5000, [level]).levels[lv.name].sketches == seed + 1  # saved before it runs
        seeds.append((seed, time_limit))
        return SketchResult(lv.name, seed, False, None, None, None, None, None, 2.5, 9, 99, None)

    def exhaustive(lv: Level, **options: Any) -> SolveResult:
        book.entry(lv, setup_search(lv).digest)
        return SolveResult(level=lv.name, solved=False, seconds=1.0, nodes=7, searched_to=8)

    def one_pass(book: ProgressFile) -> SolveResult:
        plan = Plan(jobs=1, clock=Ticks())
        return Campaign(plan, book, exhaustive=exhaustive, sketch=sketching).search_level(level, 40.0, 0.5)

    for _ in range(2):
        result = one_pass(book)
        assert (result.solved, result.seconds, result.searched_to) == (False, 3.5, 8)
    book = load(path, 5000, [level])
    one_pass(book)
    assert [seed for seed, _ in seeds] == [0, 1, 2] and all(20 < t <= 40 for _, t in seeds)
    assert load(path, 5000, [level]).levels[level.name].sketches == 3


def test_in_a_later_pass_tutorial_hard_levels_share_by_weight_too() -> None:
    """Pass 1 gives a Tutorial-Hard level its --time-limit first; a later pass splits what is left by weight
    (best known of at most 10 registers: 1, else 1/4), each share at most --time-limit."""
    fill, genetic = find_level("Fill The Blanks"), find_level("Genetic Code")
    assert level_time(fill, [fill, genetic], 600.0, 500.0, 0.0) == 500.0 - 2 * LEVEL_OVERHEAD
    share = level_time(fill, [fill, genetic], 600.0, 500.0, 0.0, later=True)
    assert share == pytest.approx((500.0 - 2 * LEVEL_OVERHEAD) / 1.25)
    assert level_time(genetic, [genetic], 600.0, 500.0, share, later=True) == pytest.approx(
        500.0 - share - LEVEL_OVERHEAD
    )
    assert level_time(fill, [fill, genetic], 100.0, 500.0, 0.0, later=True) == 100.0
