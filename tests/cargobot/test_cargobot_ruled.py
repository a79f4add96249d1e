"""The search under board rules (``bots.hints.board_hints``): rules read off the board alone, a search that
starts at the best known size and claims nothing below it, its own record in the progress file (``ruled``,
format 4), and ``solve --all`` handing a level it leaves open to it before the sketches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from solving import campaign_clock, levels_file, solve_cmd, stop_task

from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot.bots import solve as solver
from puzzlebots.games.cargobot.bots.hints import board_hints
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.language import parse_registers
from puzzlebots.games.cargobot.levels import find_level, load_levels
from puzzlebots.games.cargobot.progress import ProgressFile, level_digest, load


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("Genetic Code", "I- G+ I- G+ I-"),  # Elizarov's Simplified 2 has I G I- G+ I-: ours are stricter
        ("Restoring Order", ". . . . I- . . G+"),
        ("Changing Places", ". . I- G+ . . . ."),
    ],
)
def test_board_rules_are_read_off_the_board(name: str, rules: str) -> None:
    hints = board_hints(find_level(name))
    assert hints is not None and hints.method == "ruled"
    assert hints.describe() == {"shape": "8,8", "pile_rules": rules}


@pytest.mark.parametrize("name", ["Palette Swap", "Vertical Sort", "The Swap"])
def test_a_board_whose_piles_all_stay_or_swap_has_none(name: str) -> None:
    assert board_hints(find_level(name)) is None  # every pile empty at both ends or full at both


def test_the_search_starts_at_the_size_it_is_given_and_proves_nothing_below() -> None:
    level = find_level("Mirror 2")  # best known 7
    hints = board_hints(level)
    assert hints is not None
    book = ProgressFile(None, solver.DEFAULT_TICK_CAP)
    found = solver.solve(level, jobs=1, hints=hints, first=7, max_size=7, book=book)
    assert found.solved and found.size == 7 and found.method == "ruled" and not found.proven_minimal
    assert found.program is not None and run_level(level, found.program).solved
    rec = book.levels[level.name]
    assert rec.searched_to == 6 and rec.sizes == [] and rec.result is not None and rec.result.method == "ruled"
    with pytest.raises(ValueError, match="only a hinted search skips sizes"):
        solver.solve(level, jobs=1, first=7, max_size=7)


def test_a_size_exhausted_under_board_rules_is_the_first_line_of_its_record(tmp_path: Path) -> None:
    """Count in Binary (best known 9) has no 8-register program under its board rules (a second of search, where
    size 9 takes minutes): the record lists size 8 alone, and it reads back (a main record listing sizes from 8
    would be refused, and so is a ruled one with a gap)."""
    level = find_level("Count in Binary")
    hints = board_hints(level)
    assert hints is not None
    path = tmp_path / "p.json"
    book = ProgressFile(path, solver.DEFAULT_TICK_CAP)
    found = solver.solve(level, jobs=1, hints=hints, first=8, max_size=8, book=book.ruled_book())
    assert not found.solved and found.searched_to == 8
    doc = json.loads(path.read_text())
    assert doc["format"] == 6 and doc["levels"] == {}
    assert [s["size"] for s in doc["ruled"][level.name]["sizes"]] == [8]
    again = load(path, solver.DEFAULT_TICK_CAP, load_levels(None))
    assert again.ruled[level.name].searched_to == 8 and again.ruled[level.name].sizes[0]["size"] == 8
    doc["levels"] = doc["ruled"]
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match="sizes must list sizes 1 to searched_to"):
        load(path, solver.DEFAULT_TICK_CAP, load_levels(None))
    doc["levels"], doc["ruled"][level.name]["searched_to"] = {}, 9
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match="sizes must list sizes the size its search started at to searched_to"):
        load(path, solver.DEFAULT_TICK_CAP, load_levels(None))


def test_format_3_reads_without_ruled_records_and_format_4_needs_them(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    doc = {"format": 3, "kind": "puzzlebots cargobot solve progress", "tick_cap": 5000, "levels": {}}
    path.write_text(json.dumps(doc))
    assert load(path, 5000, load_levels(None)).ruled == {}
    path.write_text(json.dumps(doc | {"format": 4}))
    with pytest.raises(InputError, match="fields must be format, kind, levels, ruled, tick_cap"):
        load(path, 5000, load_levels(None))


def test_solve_all_hands_an_open_level_to_the_board_rules_and_resumes_it_solved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Merger alone (Crazy pack: past Tutorial-Hard the phases take over; no sweep or driver sketch, whose
    phase would be the only one): its exhaustive search stops short at its 5th task, sizes 1-4 done, as if its
    time ran out there; the search under its board rules finds a 6 (its best known size, in under a second) in
    the time left. The campaign's clock never moves, so that search ends where it finds the program, on any
    machine."""
    levels = levels_file(tmp_path, ["The Merger"])
    out = tmp_path / "s.json"
    with monkeypatch.context() as patch:
        stop_task(patch, "The Merger", (5, TimeoutError))
        campaign_clock(patch)
        code, _, err = solve_cmd("--all", "--levels-file", levels, "--jobs", "1", "--json", out)
    assert code == 0, err
    (row,) = json.loads(out.read_text())
    assert row["solved"] and row["method"] == "ruled" and row["size"] == 6 and not row["proven_minimal"]
    assert row["searched_to"] < 5  # the exhaustive search's, which the board rules do not extend
    assert run_level(find_level("The Merger"), parse_registers(row["program"])).solved
    progress = json.loads((tmp_path / "s.json.progress").read_text())
    assert progress["ruled"]["The Merger"]["result"]["program"] == row["program"]
    again = tmp_path / "again.json"
    code, _, err = solve_cmd(
        "--all",
        "--levels-file",
        levels,
        "--jobs",
        "1",
        "--json",
        again,
        "--progress",
        tmp_path / "s.json.progress",
        "--resume",
    )
    assert code == 0 and "resuming The Merger: solved" in err
    assert json.loads(again.read_text())[0]["program"] == row["program"]


def test_resume_refuses_a_ruled_record_for_a_board_without_rules(tmp_path: Path) -> None:
    levels = levels_file(tmp_path, ["The Swap"])
    path = tmp_path / "p.json"
    record = {
        "level": level_digest(load_levels(str(levels))[0]),
        "search": "0" * 32,
        "searched_to": 6,
        "frontier": None,
        "nodes": 0,
        "seconds": 0.0,
        "sizes": [],
        "sketches": 0,
        "result": None,
    }
    path.write_text(
        json.dumps(
            {
                "format": 4,
                "kind": "puzzlebots cargobot solve progress",
                "tick_cap": 5000,
                "levels": {},
                "ruled": {"The Swap": record},
            }
        )
    )
    code, _, err = solve_cmd("--all", "--levels-file", levels, "--progress", path, "--resume")
    assert code == 2 and "has no board rules, yet a record of a search under them" in err


def test_board_rules_alone_search_the_best_known_size_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    code, _, err = solve_cmd("--level", "Mirror 2", "--board-rules", "--jobs", 1, "--json", out)
    assert code == 0, err
    (row,) = json.loads(out.read_text())
    assert (row["size"], row["method"], row["proven_minimal"], row["searched_to"]) == (7, "ruled", False, 6)
    progress = json.loads((tmp_path / "m.json.progress").read_text())
    assert progress["levels"] == {} and progress["ruled"]["Mirror 2"]["result"]["program"] == row["program"]
    code, _, err = solve_cmd(
        "--level", "Mirror 2", "--board-rules", "--jobs", 1, "--progress", tmp_path / "m.json.progress", "--resume"
    )
    assert code == 0 and "resuming Mirror 2 under board rules: solved" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--level", "Palette Swap"], "--board-rules: Palette Swap has no board rules (no pile gets a rule)"),
        (["--level", "Parting the Sea"], "Parting the Sea has no board rules (it has no best known size to search)"),
        (["--all"], "--board-rules is for one level: not with --all"),
        (["--level", "Mirror 2", "--shape", "4"], "--shape is not for --board-rules"),
        (["--level", "Mirror 2", "--max-size", "9"], "--max-size is not for --board-rules"),
    ],
)
def test_board_rules_refuse_what_they_cannot_do(args: list[str], message: str) -> None:
    code, _, err = solve_cmd(*args, "--board-rules")
    assert code == 2 and err.startswith("error: ") and message in err and len(err.splitlines()) == 1
