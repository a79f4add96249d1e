"""The progress file of ``cargobot solve --resume`` is hostile input. Every fault (bytes, JSON, a field
of the wrong type or range, a file made for another levels file, tick cap or search, a planted program) is one
``error:`` line and exit code 2 before any search starts, through the real ``puzzlebots`` entry."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from refusal import refused

from puzzlebots.cli import cli
from puzzlebots.core.jsonio import MAX_BYTES
from puzzlebots.games.cargobot import progress
from puzzlebots.games.cargobot.levels import find_level
from puzzlebots.games.cargobot.progress import MAX_FILE_BYTES

LEVEL = "Re-Curses"  # solved at size 5 in well under a second
TOP = len(find_level(LEVEL).commands) + 1  # the highest option of a frontier's prefix: its commands, end, skip


def resume(path: Path, *extra: object) -> list[object]:
    return ["cargobot", "solve", "--level", LEVEL, "--jobs", "1", "--progress", path, "--resume", *extra]


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real progress file: Re-Curses searched up to size 3 (``--max-size 3``), then solved on resume."""
    path = tmp_path_factory.mktemp("progress") / "p.json"
    result = CliRunner().invoke(
        cli, ["cargobot", "solve", "--level", LEVEL, "--jobs", "1", "--progress", str(path), "--max-size", "3"]
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(path.read_text())
    assert doc["levels"][LEVEL]["searched_to"] == 3 and doc["levels"][LEVEL]["result"] is None
    return doc


def planted(tmp_path: Path, doc: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> Path:
    doc = json.loads(json.dumps(doc))
    change(doc)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    return path


def record(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc["levels"][LEVEL][key] = value

    return change


def test_the_good_file_resumes_and_finishes(tmp_path: Path, good: dict[str, Any]) -> None:
    path = planted(tmp_path, good, lambda doc: None)
    result = CliRunner().invoke(cli, [str(a) for a in resume(path, "--json", tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    assert f"resuming {LEVEL}: sizes up to 3 searched" in result.stderr
    row = json.loads((tmp_path / "out.json").read_text())[0]
    assert (row["size"], row["searched_to"], row["proven_minimal"], row["method"]) == (5, 4, True, "exhaustive")


def _format_1(doc: dict[str, Any]) -> None:
    """The file as format 1 wrote it: no count of sketch searches."""
    doc["format"] = 1
    doc.pop("ruled"), doc.pop("sweeps")
    doc["levels"][LEVEL].pop("sketches")


def test_a_format_1_file_resumes_with_no_sketch_search_started(tmp_path: Path, good: dict[str, Any]) -> None:
    assert good["format"] == 6 and good["levels"][LEVEL]["sketches"] == 0
    path = planted(tmp_path, good, _format_1)
    result = CliRunner().invoke(cli, [str(a) for a in resume(path, "--json", tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out.json").read_text())[0]["size"] == 5
    assert json.loads(path.read_text())["format"] == 6  # written back in this format
    old = planted(tmp_path, good, lambda doc: doc.__setitem__("format", 1) or doc.pop("ruled") or doc.pop("sweeps"))
    line = refused(*resume(old))
    assert "must be an object with frontier, level, nodes, result, search, searched_to, seconds, sizes" in line
    line = refused(*resume(planted(tmp_path, good, lambda doc: doc["levels"][LEVEL].pop("sketches"))))
    assert "sizes, sketches" in line


@pytest.mark.parametrize(
    "data, message",
    [
        (b"\xff\xfe{}", "not UTF-8 text: byte 0xff at offset 0"),
        (b'{"format": 1, "kind": ', "malformed JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "nested deeper than 64 levels"),
        (b"[1, 2]", "is not a cargobot solve progress file"),
        (b'{"kind": "puzzlebots train checkpoint"}', "is not a cargobot solve progress file"),
        (b'{"nodes": 1e400}', "out of range"),
        (b'{"nodes": NaN}', "not a number JSON allows"),
    ],
)
def test_bytes_and_json_that_are_no_progress_file(tmp_path: Path, data: bytes, message: str) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(data)
    line = refused(*resume(path))
    assert message in line and str(path) in line


def test_a_huge_progress_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    with open(path, "wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)
    assert f"is larger than {MAX_FILE_BYTES:,} bytes" in refused(*resume(path))


def test_a_progress_file_past_the_cap_of_other_files_resumes(tmp_path: Path, good: dict[str, Any]) -> None:
    """An hour of ``solve --all`` writes 32 MB, near the 32 MiB other files may have: the progress file has
    its own cap (here the good file, padded past the general cap with whitespace JSON allows)."""
    assert MAX_FILE_BYTES > 3 * MAX_BYTES
    path = planted(tmp_path, good, lambda doc: None)
    with open(path, "a") as fh:
        fh.write(" " * MAX_BYTES)
    result = CliRunner().invoke(cli, [str(a) for a in resume(path, "--json", tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "out.json").read_text())[0]["size"] == 5


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 8), max_size=12), max_size=30))
def test_front_coding_gives_back_the_prefixes(prefixes: list[list[int]]) -> None:
    """A frontier written front-coded (format 5) reads back as the same prefixes in the same order."""
    level = find_level(LEVEL)
    decoded = progress._frontier(progress.front_code(prefixes), "frontier", level, coded=True)
    assert decoded is not None and decoded.unfinished() == prefixes
    coded = progress.front_code(prefixes)
    assert all(e[0] == 0 for e in coded[:1]) and sum(map(len, coded)) <= sum(map(len, prefixes)) + len(prefixes)


@pytest.mark.slow
def test_a_frontier_of_over_a_million_prefixes_is_read_back(tmp_path: Path, good: dict[str, Any]) -> None:
    """The board-rules search of Multi Sort 2 left 418,000 prefixes after its share of an hour; a longer run
    wrote more than the million format 4 allowed, which --resume then refused. Now a frontier may hold as many
    as a file under the cap can."""

    def many(doc: dict[str, Any]) -> None:
        doc["levels"][LEVEL]["frontier"] = [[0, 1, 2]] + [[1, TOP]] * 1_000_000  # one past the old million

    path = planted(tmp_path, good, many)
    book = progress.load(path, 5000, [find_level(LEVEL)])
    frontier = book.levels[LEVEL].frontier
    assert frontier is not None and len(frontier.pending) == 1_000_001 and frontier.pending[-1] == (1, TOP)


def test_a_folder_or_missing_file(tmp_path: Path) -> None:
    assert "no progress file" in refused(*resume(tmp_path / "none.json"))
    assert "is a folder" in refused(*resume(tmp_path))


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc.__setitem__(key, value)


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc.pop(key)


def _level_key(doc: dict[str, Any]) -> None:
    doc["levels"]["No Such Level"] = doc["levels"].pop(LEVEL)


def _other_board(doc: dict[str, Any]) -> None:
    doc["levels"][LEVEL]["level"] = "0" * 32


def _extra_field(doc: dict[str, Any]) -> None:
    doc["levels"][LEVEL]["pickle"] = "cos\nsystem\n"


@pytest.mark.parametrize(
    "change, message",
    [
        (_set("format", 7), "has format 7, this puzzlebots reads 1, 2, 3, 4, 5 and 6"),
        (_set("format", True), "has format True, this puzzlebots reads 1, 2, 3, 4, 5 and 6"),
        (_set("format", 2.0), "has format 2.0, this puzzlebots reads 1, 2, 3, 4, 5 and 6"),
        (_set("format", 3), "fields must be format, kind, levels, tick_cap"),  # format 3 had no ruled records
        (_set("format", 5), "fields must be format, kind, levels, ruled, tick_cap"),  # format 5 had no sweeps
        (_set("tick_cap", 400), "was made with --tick-cap 400, this run has 5000"),
        (_drop("tick_cap"), "fields must be format, kind, levels, ruled, sweeps, tick_cap"),
        (_set("levels", [1]), "levels must be an object"),
        (_level_key, "names level 'No Such Level', which this levels file lacks"),
        (_other_board, "was made for another definition of the level"),
        (_extra_field, "must be an object with frontier, level, nodes"),
        (record("search", "x" * 32), "was searched by another version of the solver"),
        (record("search", 7), "search must be a 32-character digest"),
        (record("searched_to", -1), "searched_to must be a whole number from 0 to 29"),
        (record("searched_to", 10**6), "searched_to must be a whole number from 0 to 29"),
        (record("searched_to", True), "searched_to must be a whole number"),
        (record("searched_to", 4), "sizes must list sizes 1 to searched_to (4) in order"),
        (record("nodes", -5), "nodes must be a whole number from 0"),
        (record("nodes", "many"), "nodes must be a whole number from 0"),
        (record("seconds", -1.0), "seconds must be from 0 to"),
        (record("seconds", "1"), "seconds must be a finite number"),
        (record("sizes", {"size": 1}), "sizes must be a list of at most 29 entries"),
        (record("sizes", [{"size": 1, "nodes": 0}]), "sizes[0] must be an object with size, nodes, seconds"),
        (record("sketches", -1), "sketches must be a whole number from 0"),
        (record("sketches", 2**31), "sketches must be a whole number from 0"),
        (record("sketches", 1.5), "sketches must be a whole number"),
        (record("frontier", "all"), "frontier must be null or a list of at most 25,000,000 option prefixes"),
        (record("frontier", [[0, 1], 3]), "frontier[1] must be a list of at most 1000 options"),
        (record("frontier", [[0, -1]]), "frontier[0] must be a whole number from 0 to"),
        (record("frontier", [[0, 99]]), "frontier[0] must be a whole number from 0 to"),
        (record("frontier", [[0, TOP + 1]]), f"frontier[0] must be a whole number from 0 to {TOP}, got {TOP + 1}"),
        (record("frontier", [[0] * 1002]), "frontier[0] must be a list of at most 1000 options, after the count"),
        (record("frontier", [[]]), "frontier[0] must be a list of at most 1000 options, after the count"),
        (record("frontier", [[1, 2]]), "frontier[0]: options shared must be a whole number from 0 to 0"),
        (record("frontier", [[0, 1, 2], [3, 1]]), "frontier[1]: options shared must be a whole number from 0 to 2"),
        (record("frontier", [[0] + [1] * 1000, [1000, 1]]), "frontier[1] must be a list of at most 1000 options"),
        (record("frontier", [[0, True]]), "frontier[0] must be a whole number"),
        (record("result", "solved"), "result must be an object with method, program, size, ticks"),
    ],
)
def test_fields_checked_one_by_one(tmp_path: Path, good: dict[str, Any], change: Callable, message: str) -> None:
    line = refused(*resume(planted(tmp_path, good, change)))
    assert message in line, line
    assert len(line) < 400


def _result(program: str, size: int, ticks: int, method: str = "exhaustive") -> Callable[[dict[str, Any]], None]:
    return record("result", {"program": program, "size": size, "ticks": ticks, "method": method})


@pytest.mark.parametrize(
    "change, message",
    [
        (_result("claw R claw", 3, 3), "does not win the level as recorded"),  # Cargo 101's program: loses here
        (_result("claw R claw L call1", 5, 999), "does not win the level as recorded"),  # wrong ticks
        (_result("claw R claw L call1", 4, 18), "does not win the level as recorded"),  # wrong size
        (_result("claw R claw L call1 call9", 6, 18), "result:"),  # a call the toolbox lacks
        (_result("claw R claw L call1", 5, 18, "oracle"), "method must be one of exhaustive"),
        (_result("x" * 20_000, 5, 18), "program must be a program text"),
    ],
)
def test_a_planted_result_is_replayed_before_it_is_believed(
    tmp_path: Path, good: dict[str, Any], change: Callable, message: str
) -> None:
    line = refused(*resume(planted(tmp_path, good, change)))
    assert message in line, line


def test_a_recorded_result_that_wins_is_taken_without_searching(tmp_path: Path, good: dict[str, Any]) -> None:
    def solved(doc: dict[str, Any]) -> None:
        _result("claw R claw L call1", 5, 18)(doc)
        doc["levels"][LEVEL]["frontier"] = None

    path = planted(tmp_path, good, solved)
    result = CliRunner().invoke(cli, [str(a) for a in resume(path, "--json", tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    assert f"resuming {LEVEL}: solved" in result.stderr
    row = json.loads((tmp_path / "out.json").read_text())[0]
    assert (row["program"], row["nodes"]) == ("claw R claw L call1", good["levels"][LEVEL]["nodes"])


def test_a_solved_record_with_a_frontier_is_refused(tmp_path: Path, good: dict[str, Any]) -> None:
    def both(doc: dict[str, Any]) -> None:
        _result("claw R claw L call1", 5, 18)(doc)
        doc["levels"][LEVEL]["frontier"] = [[0]]

    assert "a solved level has no frontier" in refused(*resume(planted(tmp_path, good, both)))


SIX = "call2 prog_2 claw R claw L call2"  # wins Re-Curses with 6 registers (best known 5)


@pytest.mark.parametrize("version", [2, 3])
def test_a_provisional_sketch_result_is_searched_on_below_its_size(
    tmp_path: Path, good: dict[str, Any], version: int
) -> None:
    """A sketch program above the best known size with sizes below it left (searched to 3 of 6) is not taken as
    final: the search goes on from the record (format 3: from its frontier, here none left of size 4; format 2
    never wrote one, so size 4 starts afresh) and finds the smaller program."""

    def provisional(doc: dict[str, Any]) -> None:
        doc["format"] = version
        doc.pop("ruled"), doc.pop("sweeps")
        _result(SIX, 6, 19, "sketch")(doc)
        doc["levels"][LEVEL]["frontier"] = [] if version == 3 else None

    path = planted(tmp_path, good, provisional)
    result = CliRunner().invoke(cli, [str(a) for a in resume(path, "--json", tmp_path / "out.json")])
    assert result.exit_code == 0, result.output
    assert (
        f"resuming {LEVEL}: solved by the sketch search at size 6 (best known 5), sizes up to 3 searched"
        in result.stderr
    )
    row = json.loads((tmp_path / "out.json").read_text())[0]
    assert (row["size"], row["method"], row["proven_minimal"]) == (5, "exhaustive", True)
    sizes = json.loads(path.read_text())["levels"][LEVEL]["sizes"]
    assert [s["size"] for s in sizes] == [1, 2, 3, 4]
    assert sizes[3]["nodes"] == 0 if version == 3 else sizes[3]["nodes"] > 0  # the empty frontier: size 4 done


def _beside(
    program: str, size: int, ticks: int, version: int, searched_to: int = 3
) -> Callable[[dict[str, Any]], None]:
    """A sketch result with a frontier beside it, in ``version``, searched to ``searched_to`` (at least 3)."""

    def change(doc: dict[str, Any]) -> None:
        doc["format"] = version
        doc.pop("ruled"), doc.pop("sweeps")
        rec = doc["levels"][LEVEL]
        rec["sizes"] += [{"size": k, "nodes": 0, "seconds": 0.0} for k in range(4, searched_to + 1)]
        rec["searched_to"], rec["frontier"] = searched_to, [[1]]
        _result(program, size, ticks, "sketch")(doc)

    return change


@pytest.mark.parametrize(
    "change",
    [
        _beside(SIX, 6, 19, 2),  # format 2 never wrote one
        _beside("claw R claw L call1", 5, 18, 3, searched_to=4),  # no size left below the sketch program's
    ],
    ids=["format 2", "none below"],
)
def test_a_frontier_beside_a_sketch_result_with_no_size_left_or_in_format_2_is_refused(
    tmp_path: Path, good: dict[str, Any], change: Callable
) -> None:
    assert "a solved level has no frontier" in refused(*resume(planted(tmp_path, good, change)))


def test_a_provisional_result_whose_level_now_has_a_larger_best_known_is_final(
    tmp_path: Path, good: dict[str, Any]
) -> None:
    """The best known size is no part of a level's definition in the file: a levels file raising it to the
    sketch program's size makes the program final (the frontier beside it is read, and left unused)."""
    rows = json.loads(files("puzzlebots.games.cargobot").joinpath("data/levels.json").read_text())
    levels = tmp_path / "levels.json"
    levels.write_text(json.dumps([r | {"best_known": 6} for r in rows if r["name"] == LEVEL]))
    path = planted(tmp_path, good, _beside(SIX, 6, 19, 3))
    out = tmp_path / "out.json"
    result = CliRunner().invoke(cli, [str(a) for a in resume(path, "--json", out, "--levels-file", levels)])
    assert result.exit_code == 0, result.output
    assert f"resuming {LEVEL}: solved, " in result.stderr
    row = json.loads(out.read_text())[0]
    assert (row["size"], row["method"], row["proven_minimal"], row["searched_to"]) == (6, "sketch", False, 3)


def test_resume_needs_a_file_and_a_new_run_does_not_overwrite_one(tmp_path: Path, good: dict[str, Any]) -> None:
    assert "--resume needs the progress file" in refused("cargobot", "solve", "--level", LEVEL, "--resume")
    path = planted(tmp_path, good, lambda doc: None)
    line = refused("cargobot", "solve", "--level", LEVEL, "--jobs", "1", "--progress", path)
    assert "exists: pass --resume to go on from it, or delete it" in line
    beside = tmp_path / "out.json.progress"
    beside.write_text("{}")
    line = refused("cargobot", "solve", "--level", LEVEL, "--jobs", "1", "--json", tmp_path / "out.json", "--resume")
    assert "is not a cargobot solve progress file" in line and "out.json.progress" in line


def test_another_levels_file_is_refused(tmp_path: Path, good: dict[str, Any]) -> None:
    from importlib.resources import files

    levels = json.loads(files("puzzlebots.games.cargobot").joinpath("data/levels.json").read_text())
    for lv in levels:
        if lv["name"] == LEVEL:
            lv["claw"] = 2
    other = tmp_path / "levels.json"
    other.write_text(json.dumps(levels))
    path = planted(tmp_path, good, lambda doc: None)
    line = refused(*resume(path, "--levels-file", other))
    assert "was made for another definition of the level (another levels file)" in line
