"""``cargobot solve``'s progress record and ``--resume`` (in this process; the real-process kill tests
are in ``test_cargobot_resume_process.py``), the lower bound and method of every result, and the ``--all``
schedule that ends within ``--total-time``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from solving import Ticks, campaign_clock, levels_file, solve_cmd, unswept

from puzzlebots.games.cargobot.bots.solve import solve
from puzzlebots.games.cargobot.campaign import LEVEL_OVERHEAD, Campaign, Plan, level_time
from puzzlebots.games.cargobot.campaign import load_progress as load
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.levels import find_level, load_levels
from puzzlebots.games.cargobot.progress import ProgressFile

LEVEL = "Come Together 2"  # size 7 after about 1.6 M nodes, most of them at size 7


def fresh(name: str = LEVEL) -> tuple:
    book = ProgressFile(None, 5000)
    return solve(find_level(name), jobs=1, book=book), book.levels[name]


def test_a_search_stopped_at_a_size_goes_on_from_the_next_one(tmp_path: Path) -> None:
    result, rec = fresh()
    level, path = find_level(LEVEL), tmp_path / "p.json"
    first = solve(level, jobs=1, max_size=5, book=ProgressFile(path, 5000))
    assert (first.solved, first.searched_to) == (False, 5)
    sizes: list[int] = []
    book = load(path, 5000, load_levels())
    again = solve(level, jobs=1, progress=sizes.append, book=book)
    assert sizes[0] == 6  # the first size searched is the one after the record's
    assert (again.program, again.size, again.searched_to, again.proven_minimal) == (result.program, 7, 6, True)
    assert again.nodes == result.nodes  # nothing counted twice
    assert book.levels[LEVEL].sizes == [
        {**s, "seconds": book.levels[LEVEL].sizes[k]["seconds"]} for k, s in enumerate(rec.sizes)
    ]


def _interrupt_task(monkeypatch: pytest.MonkeyPatch, at: int) -> None:
    """Ctrl-C as the ``at``-th task of the search starts: the same place on every machine (a time limit is not;
    a fast machine finishes first). ``monkeypatch.undo()`` lifts it."""
    import puzzlebots.games.cargobot.bots.solve as solver

    real, calls = solver.run_task, [0]

    def interrupting(*args: object, **kwargs: object) -> tuple:
        calls[0] += 1
        if calls[0] == at:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(solver, "run_task", interrupting)


def test_a_search_stopped_inside_a_size_resumes_from_its_frontier(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, _ = fresh()
    level, path = find_level(LEVEL), tmp_path / "p.json"
    _interrupt_task(monkeypatch, 10)  # inside size 7, after its first task split (15 tasks in all)
    with pytest.raises(KeyboardInterrupt):
        solve(level, jobs=1, book=ProgressFile(path, 5000))
    monkeypatch.undo()
    rec = load(path, 5000, load_levels()).levels[LEVEL]
    assert rec.result is None and rec.searched_to == 6
    assert rec.frontier is not None and 0 < rec.nodes < result.nodes
    book = load(path, 5000, load_levels())
    again = solve(level, jobs=1, book=book)
    assert (again.program, again.nodes) == (result.program, result.nodes)
    assert again.seconds >= rec.seconds  # the seconds of every session add up


def test_a_size_whose_frontier_is_empty_is_finished(tmp_path: Path) -> None:
    """A record written after a size's last task but before the size was marked done: nothing is left of it."""
    level, path = find_level("Re-Curses"), tmp_path / "p.json"
    solve(level, jobs=1, max_size=2, book=ProgressFile(path, 5000))
    doc = json.loads(path.read_text())
    doc["levels"]["Re-Curses"]["frontier"] = []
    path.write_text(json.dumps(doc))
    sizes: list[int] = []
    again = solve(level, jobs=1, progress=sizes.append, book=load(path, 5000, load_levels()))
    assert sizes[0] == 3 and again.searched_to == 4 and again.size == 5


def test_all_levels_resume_skips_finished_levels(tmp_path: Path) -> None:
    levels = levels_file(tmp_path, ["Cargo 101", "Transporter", "Re-Curses"])
    out = tmp_path / "solve.json"
    code, _, err = solve_cmd("--all", "--jobs", "1", "--levels-file", levels, "--json", out, "--max-size", "4")
    assert code == 0, err
    before = {r["level"]: r for r in json.loads(out.read_text())}
    assert [before[n]["solved"] for n in ("Cargo 101", "Transporter", "Re-Curses")] == [True, True, False]
    assert before["Re-Curses"]["searched_to"] == 4 and before["Re-Curses"]["size"] is None
    code, stdout, err = solve_cmd("--all", "--jobs", "1", "--levels-file", levels, "--json", out, "--resume")
    assert code == 0, err
    assert "resuming Cargo 101: solved" in err and "resuming Re-Curses: sizes up to 4 searched" in err
    after = {r["level"]: r for r in json.loads(out.read_text())}
    for name in ("Cargo 101", "Transporter"):  # taken from the record: same nodes and seconds, no search
        assert {k: after[name][k] for k in ("program", "nodes", "seconds")} == {
            k: before[name][k] for k in ("program", "nodes", "seconds")
        }
    assert (after["Re-Curses"]["size"], after["Re-Curses"]["searched_to"]) == (5, 4)
    assert after["Re-Curses"]["nodes"] == fresh("Re-Curses")[0].nodes
    assert "solved 3/3" in stdout and "proven" in stdout and "searched" in stdout


def test_every_result_states_its_bound_and_method(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    code, stdout, err = solve_cmd("--level", "Inverter", "--jobs", "1", "--max-size", "6", "--json", out)
    assert code == 0, err
    row = json.loads(out.read_text())[0]
    assert (row["solved"], row["searched_to"], row["method"], row["proven_minimal"]) == (False, 6, "exhaustive", False)
    assert (row["best_known"], row["pack"]) == (10, "Tutorial")
    result, _ = fresh("Inverter")
    assert result.to_json()["proven_minimal"] and result.to_json()["searched_to"] == result.size - 1
    assert run_level(find_level("Inverter"), result.program).solved


def test_interrupt_saves_the_record_and_says_how_to_go_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a size is searched: the record written on the way out covers what was left."""
    _interrupt_task(monkeypatch, 10)  # inside size 7, after its first task split (15 tasks in all)
    path = tmp_path / "p.json"
    code, _, err = solve_cmd("--level", LEVEL, "--jobs", "1", "--progress", path)
    assert code == 130 and f"progress saved in {path}: continue with --resume" in err
    monkeypatch.undo()
    rec = load(path, 5000, load_levels()).levels[LEVEL]
    assert rec.frontier is not None and rec.frontier.unfinished()
    again = solve(find_level(LEVEL), jobs=1, book=load(path, 5000, load_levels()))
    result, _ = fresh()
    assert (again.program, again.nodes) == (result.program, result.nodes)


@pytest.mark.parametrize("total", [60.0, 600.0, 3600.0])
def test_the_all_levels_schedule_ends_within_the_total(total: float) -> None:
    """Every level running to its limit and overrunning by half its kept-back time still ends in time."""
    levels, elapsed = load_levels(), 0.0
    for k, lv in enumerate(levels):
        limit = level_time(lv, levels[k:], 600.0, total, elapsed)
        assert limit is not None and limit > 0
        elapsed += limit + LEVEL_OVERHEAD / 2
    assert elapsed <= total + LEVEL_OVERHEAD / 2


def test_sketches_solve_what_the_exhaustive_search_left_and_the_record_says_so(tmp_path: Path) -> None:
    """The fallback of ``solve`` beyond Tutorial-Hard: the sketch search's program becomes the level's record
    (method "sketch", minimality not claimed past the sizes searched), and a resumed run takes it as solved."""
    level, path = find_level("Re-Curses"), tmp_path / "p.json"
    book = ProgressFile(path, 5000)
    stopped = solve(level, jobs=1, max_size=3, book=book)
    assert (stopped.solved, stopped.searched_to) == (False, 3)
    found = Campaign(Plan(jobs=1), book).sketch_after(level, stopped, 120.0)
    assert (found.solved, found.method, found.size, found.searched_to) == (True, "sketch", 5, 3)
    assert not found.proven_minimal and found.to_json()["proven_minimal"] is False
    assert run_level(level, found.program).solved
    again = solve(level, jobs=1, book=load(path, 5000, load_levels()))  # from the record: no search
    assert (again.method, again.program, again.nodes) == ("sketch", found.program, stopped.nodes)


def test_solve_gives_the_sketches_the_rest_of_the_level_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Vertical Sort (Impossible, 18 registers; here with no sweep) in 6 s: the exhaustive search has the first
    half and records only its own seconds; the result counts the sketch search's too. The campaign's clock moves
    a quarter second each time it is read, so the exhaustive search stops after the same tasks on any machine."""
    out, (path, level) = tmp_path / "s.json", unswept(tmp_path)
    campaign_clock(monkeypatch, Ticks(0.25))
    code, _, err = solve_cmd(
        "--levels-file", path, "--level", "Vertical Sort", "--jobs", "1", "--time-limit", "6", "--json", out
    )
    assert code == 0, err
    row = json.loads(out.read_text())[0]
    rec = load(tmp_path / "s.json.progress", 5000, [level]).levels["Vertical Sort"]
    assert not row["solved"] and row["method"] == "exhaustive" and rec.result is None
    assert rec.seconds < 4.5 and row["seconds"] - rec.seconds >= 1.0
    code, _, err = solve_cmd("--level", "Vertical Sort", "--jobs", "1", "--time-limit", "1", "--sketch-share", "0.95")
    assert code == 2 and "--sketch-share" in err
