"""Every hostile file or JSON text given to the real ``puzzlebots`` entry is one
``error:`` line and exit code 2, never a traceback, and a planted checkpoint never runs code."""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from refusal import refused

from puzzlebots.cli import cli
from puzzlebots.core.registry import get_game

BAD_UTF8 = b'{"weights": [1, 2]}\n\xff\xfe\xc3('
DEEP = "[" * 100_000 + "]" * 100_000
TRAIN = [
    "train",
    "hatris",
    "--method",
    "cma",
    "--popsize",
    "4",
    "--games-per-eval",
    "1",
    "--max-actions",
    "3",
    "--jobs",
    "1",
    "--quiet",
]


def replay_text(**header: object) -> str:
    """A Yoshi's Cookie replay of zero actions; header fields can be overridden, or removed with None."""
    head = {
        "type": "header",
        "format": 1,
        "game": "yoshis_cookie",
        "config": {},
        "seed": 0,
        "bot": "greedy",
        "rules_version": get_game("yoshis_cookie").rules_version,
        "hash_every": 10,
    } | header
    head = {k: v for k, v in head.items() if v is not None}
    return json.dumps(head) + "\n" + json.dumps({"type": "end", "decisions": 0, "result": {}}) + "\n"


def packaged_levels() -> list[dict]:
    from importlib.resources import files

    return json.loads(files("puzzlebots.games.cargobot").joinpath("data/levels.json").read_text())


# ----------------------------------------------------------------- item 7: bytes that are not UTF-8 (11 readers)


def _replay(f: Path) -> list[object]:
    return ["replay", f, "--no-show"]


READERS: dict[str, Callable[[Path], list[object]]] = {
    "replay": _replay,
    "levels": lambda f: ["cargobot", "levels", "--levels-file", f],
    "run --levels-file": lambda f: ["cargobot", "run", "--levels-file", f, "--level", "Cargo 101", "--program", "R"],
    "solve --levels-file": lambda f: ["cargobot", "solve", "--levels-file", f, "--all", "--jobs", "1"],
    "climb --levels-file": lambda f: ["cargobot", "climb", "--levels-file", f, "--level", "Cargo 101"],
    "stats --templates": lambda f: [
        "stats",
        "puyo",
        "--bot",
        "krieg3",
        "--templates",
        f,
        "--games",
        "1",
        "--jobs",
        "1",
        "--quiet",
        "--pairs",
        "3",
    ],
    "watch --templates": lambda f: [
        "watch",
        "puyo",
        "--bot",
        "krieg3",
        "--templates",
        f,
        "--delay",
        "0",
        "--pairs",
        "3",
    ],
    "stats --weights": lambda f: ["stats", "hatris", "--weights", f, "--games", "1", "--jobs", "1", "--quiet"],
    "watch --weights": lambda f: ["watch", "hatris", "--weights", f, "--delay", "0", "--max-actions", "2"],
    "board file": lambda f: [
        "stats",
        "yoshis_cookie",
        "--board-file",
        f,
        "--games",
        "1",
        "--jobs",
        "1",
        "--quiet",
        "--max-stages",
        "1",
    ],
    "train --resume": lambda f: [*TRAIN, "--generations", "2", "--out", f.with_suffix(""), "--resume"],
    "match --tuned": lambda f: ["puyo", "match", "--bots", "duelist,krieg3", "--tuned", f, "--games", "2"],
}


def hostile_file(tmp_path: Path, reader: str, data: bytes) -> Path:
    # the checkpoint of `train --out X` is X.ckpt
    path = tmp_path / ("w.ckpt" if reader == "train --resume" else "input.txt")
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("reader", list(READERS))
def test_non_utf8_bytes_name_the_file_and_offset(tmp_path: Path, reader: str):
    path = hostile_file(tmp_path, reader, BAD_UTF8)
    line = refused(*READERS[reader](path))
    # a replay is named by its file name alone (what a page's list may show), the others by the path given
    assert (path.name if reader == "replay" else str(path)) in line
    assert "not UTF-8 text: byte 0xff at offset 20" in line


# ----------------------------------------------------------------- item 7: nesting 100,000 deep (8 readers)

DEEP_JSON_READERS = ["replay", "levels", "stats --weights", "board file", "train --resume", "match --tuned"]


@pytest.mark.parametrize("reader", DEEP_JSON_READERS)
def test_deeply_nested_json_files_are_refused_before_parsing(tmp_path: Path, reader: str):
    # a replay line is at most 64 KiB (longer is refused first): its nesting stays within one line
    data = DEEP if reader != "replay" else '{"a": ' + "[" * 20_000 + "]" * 20_000 + "}"
    path = hostile_file(tmp_path, reader, data.encode())
    line = refused(*READERS[reader](path))
    # a checkpoint larger than its settings allow is refused on its size, earlier still
    assert "nested deeper than 64 levels" in line or (
        reader == "train --resume" and "more than a checkpoint of at most 2 generations can be" in line
    )


@pytest.mark.parametrize("option", ["--stacks", "--goal", "--program"])
def test_deeply_nested_json_arguments_are_refused(option: str):
    args = {"--stacks": '[["red"], []]', "--goal": "[[], []]", "--program": "R"} | {option: DEEP}
    line = refused("cargobot", "run", *[x for kv in args.items() for x in kv])
    assert line.startswith(f"error: {option.lstrip('-')}" if option == "--program" else f"error: {option}")
    assert "nested deeper than 64 levels" in line


# ----------------------------------------------------------------- item 7: wrong types and numbers out of range


def test_replay_header_game_that_is_not_a_string(tmp_path: Path):
    path = tmp_path / "r.jsonl"
    path.write_text(replay_text(game=[1]))
    assert "game must be a non-empty string, got [1]" in refused("replay", path, "--no-show")


@pytest.mark.parametrize("links", ["²", "1" * 5000, "0", "-3", "3.0"])
def test_template_links_must_be_a_small_ascii_whole_number(tmp_path: Path, links: str):
    path = tmp_path / "t.txt"
    path.write_text(f"template L\nlinks {links}\ncolours 1=R 2=G\nrows\nT . .\n1 2 .\n1 1 .\n2 2 2\nend\n")
    line = refused(*READERS["stats --templates"](path))
    assert f"{path}:2: links must be a whole number from 1 to 999" in line and len(line) < 200


@pytest.mark.parametrize("weight", ["1e400", "1" + "0" * 400, "-1e400", "NaN", "Infinity", "true", '"5"'])
def test_weights_out_of_range_or_not_numbers(tmp_path: Path, weight: str):
    path = tmp_path / "w.json"
    path.write_text('{"weights": [' + ", ".join([weight] + ["1"] * 7) + "]}")
    line = refused(*READERS["stats --weights"](path))
    assert "out of range" in line or "not a number JSON allows" in line or "must be a finite number" in line


def test_levels_file_with_a_string_best_known_is_refused_before_solving(tmp_path: Path):
    levels = packaged_levels()
    levels[30]["best_known"] = "abc"
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(levels))
    line = refused("cargobot", "solve", "--all", "--levels-file", path, "--jobs", "1", "--time-limit", "60")
    assert "level #31: best_known must be a whole number from 1 to 1000, got 'abc'" in line


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("claw", 1.5, "claw must be a whole number"),
        ("claw", True, "claw must be a whole number"),
        ("number", "1" * 5000, "number must be a whole number"),
        ("stars", [3, 3, "x"], "stars must be a whole number"),
        ("functions", [8, 8, 8, 10**30], "functions must be a whole number"),
        ("name", ["x"], "name must be a non-empty string"),
        ("hint", 5, "hint must be a non-empty string"),
        ("commands", "right", "commands must be a list of names"),
    ],
)
def test_levels_file_fields_of_the_wrong_type(tmp_path: Path, field: str, value: object, message: str):
    levels = packaged_levels()[:1]
    levels[0][field] = value
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(levels))
    assert message in refused("cargobot", "levels", "--levels-file", path)


def test_forty_thousand_crate_colours(tmp_path: Path):
    stacks = json.dumps([[f"c{i}" for i in range(40_000)], []])
    line = refused("cargobot", "run", "--stacks", stacks, "--goal", "[[], []]", "--program", "R")
    assert "at most 32767 distinct colours" in line


# ----------------------------------------------------------------- item 8: the replay format


@pytest.mark.parametrize(
    "fmt, message",
    [
        (99, "format 99 is not supported (this puzzlebots reads 1)"),
        (None, "header has no format"),
        ("1", "format '1' is not supported"),
        (True, "format True is not supported"),
    ],
)
def test_replay_format_is_checked(tmp_path: Path, fmt: object, message: str):
    path = tmp_path / "r.jsonl"
    path.write_text(replay_text(format=fmt))
    assert message in refused("replay", path, "--no-show")


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("bot", 3, "bot must be a non-empty string"),
        ("seed", "7", "seed must be a whole number"),
        ("seed", -1, "seed must be a whole number"),
        ("seed", 2**64, "seed must be a whole number"),
        ("config", [], "config must be an object"),
        ("rules_version", None, "header lacks rules_version"),
        ("hash_every", 0, "hash_every must be a whole number from 1"),
    ],
)
def test_replay_header_fields_are_checked(tmp_path: Path, field: str, value: object, message: str):
    path = tmp_path / "r.jsonl"
    path.write_text(replay_text(**{field: value}))
    assert message in refused("replay", path, "--no-show")


def test_a_well_formed_replay_still_replays(tmp_path: Path):
    path = tmp_path / "r.jsonl"
    path.write_text(replay_text())
    result = CliRunner().invoke(cli, ["replay", str(path), "--no-show"])
    assert result.exit_code == 0 and "hashes match" in result.output


# ----------------------------------------------------------------- item 6: planted checkpoints never run code


class Planted:
    """Unpickling this runs a shell command that creates ``marker``."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return os.system, (f"touch {self.marker}",)


@pytest.mark.parametrize("protocol", [0, pickle.HIGHEST_PROTOCOL])
def test_a_planted_pickle_checkpoint_is_refused_and_never_run(tmp_path: Path, protocol: int):
    control = tmp_path / "control"
    pickle.loads(pickle.dumps(Planted(control), protocol=protocol))
    assert control.exists()  # the plant is real: unpickling it does run the command
    marker = tmp_path / "pwned"
    out = tmp_path / "w.json"
    (tmp_path / "w.json.ckpt").write_bytes(pickle.dumps({"format": 1, "state": Planted(marker)}, protocol=protocol))
    line = refused(*TRAIN, "--generations", "2", "--out", out, "--resume")
    assert "checkpoint" in line and "delete it, or start over with --force instead of --resume" in line
    assert not marker.exists() and not out.exists()


@pytest.fixture(scope="module")
def real_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The checkpoint of one CMA-ES generation of Hatris, as train writes it."""
    out = tmp_path_factory.mktemp("ckpt") / "w.json"
    result = CliRunner().invoke(cli, [*TRAIN, "--generations", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads(Path(f"{out}.ckpt").read_text())


def _set(doc: dict, path: str, value: object) -> dict:
    doc = json.loads(json.dumps(doc))
    *heads, last = path.split(".")
    target = doc
    for key in heads:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if value is KeyError:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return doc


ODD_CHECKPOINTS = [
    ("format", 1, "has format 1, this puzzlebots reads 3"),
    ("kind", "os.system", "is not a puzzlebots train checkpoint"),
    ("py/object", "os.system", "fields must be"),
    ("settings.__reduce__", ["os.system", "touch x"], "settings must be an object with"),
    ("settings.game", {"py/function": "os.system"}, "was made with other settings: game={'py/function'"),
    ("weights", [1e308] * 8, "does not lead to its weights"),
    ("weights", [1, 2], "weights must be a list of 8 numbers"),
    ("generation", 2, "history must hold one entry per generation (2)"),
    ("generation", True, "generation must be a whole number"),
    ("rating", "high", "rating must be a finite number"),
    ("history.0.weights", "x", "history entry 1: weights must be a list of 8 numbers"),
    ("cma", None, "cma must be an object with x0 and told"),
    ("cma.told.0", [1, 2, 3], "cma.told[1] must be a list of 4 numbers"),
    ("cma.told.0", [3, 2, 1, 0], "does not lead to its weights"),
    ("cma.x0", [-1, 101, 0, 0, 0, 0, 0, 0], "cma.x0 must be non-negative weights summing to 100"),
    ("history", KeyError, "fields must be"),
]


@pytest.mark.parametrize("path, value, message", ODD_CHECKPOINTS, ids=[c[0] for c in ODD_CHECKPOINTS])
def test_odd_json_checkpoints_are_refused(
    tmp_path: Path, real_checkpoint: dict, path: str, value: object, message: str
):
    (tmp_path / "w.json.ckpt").write_text(json.dumps(_set(real_checkpoint, path, value)))
    line = refused(*TRAIN, "--generations", "2", "--out", tmp_path / "w.json", "--resume")
    assert message in line and not (tmp_path / "w.json").exists()


def test_a_real_checkpoint_resumes(tmp_path: Path, real_checkpoint: dict):
    (tmp_path / "w.json.ckpt").write_text(json.dumps(real_checkpoint))
    result = CliRunner().invoke(cli, [*TRAIN, "--generations", "2", "--out", str(tmp_path / "w.json"), "--resume"])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "w.json").read_text())["trained_with"]["generations_done"] == 2


# ----------------------------------------------------------------- item 16: resume settings and overwriting


def test_resume_with_other_settings_says_which_and_refuses(tmp_path: Path, real_checkpoint: dict):
    (tmp_path / "w.json.ckpt").write_text(json.dumps(real_checkpoint))
    args = [a for a in TRAIN if a not in ("--popsize", "4")]
    line = refused(
        *args,
        "--popsize",
        "6",
        "--sigma",
        "0.5",
        "--seed",
        "3",
        "--generations",
        "2",
        "--out",
        tmp_path / "w.json",
        "--resume",
    )
    for part in ("seed=0 (now 3)", "sigma=0.3 (now 0.5)", "popsize=4 (now 6)", "--force"):
        assert part in line


def test_train_does_not_overwrite_a_run_unless_forced(tmp_path: Path, real_checkpoint: dict):
    out = tmp_path / "w.json"
    out.write_text("{}")
    assert "w.json already exists: pass --resume" in refused(*TRAIN, "--generations", "1", "--out", out)
    assert out.read_text() == "{}"
    (tmp_path / "w.json.ckpt").write_text(json.dumps(real_checkpoint))
    assert "and" in refused(*TRAIN, "--generations", "1", "--out", out)
    assert "give one of them" in refused(*TRAIN, "--generations", "1", "--out", out, "--resume", "--force")
    result = CliRunner().invoke(cli, [*TRAIN, "--generations", "1", "--out", str(out), "--force"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["trained_with"]["generations_done"] == 1


# ----------------------------------------------------------------- the one reader's bounds


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path):
    fifo = tmp_path / "levels.json"
    os.mkfifo(fifo)
    assert "is not a regular file" in refused(*READERS["levels"](fifo))


def test_a_file_over_the_size_cap_is_refused_unread(tmp_path: Path):
    from puzzlebots.core.jsonio import MAX_BYTES

    big = tmp_path / "r.jsonl"
    with open(big, "wb") as fh:
        fh.truncate(MAX_BYTES + 1)
    assert f"is larger than {MAX_BYTES:,} bytes" in refused("replay", big, "--no-show")


def test_a_lone_surrogate_escape_is_refused(tmp_path: Path):
    path = tmp_path / "levels.json"
    levels = packaged_levels()[:1]
    levels[0]["name"] = "\ud800"  # json.dumps writes it as the escape \ud800
    path.write_text(json.dumps(levels))
    assert "half a surrogate pair" in refused("cargobot", "levels", "--levels-file", path)
