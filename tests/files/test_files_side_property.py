"""Properties over what may lie beside an output, for every command that writes one, and
over malformed lines of a ``stats`` partial file.

Beside-the-output: whatever kind of thing is planted at the output or at a name beside it (a regular file of
someone else, a link to a file, a link to a folder, a dangling link, a FIFO, a folder), the command ends (a
FIFO is never opened: an alarm turns a hang into a failure), never changes what a link points to or what a
folder holds, and either writes its output as a regular file or says why in one ``error:`` line (exit 2).

Partial lines: any result line that is not a result of this run (a key missing or unknown, a value of another
kind, out of 64 bits, not finite, not JSON, not UTF-8) is refused in one line before any game is played, and
the file is kept as it was.
"""

from __future__ import annotations

import json
import os
import re
import signal
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from unittest import mock

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from puzzlebots.cli import cli

#: examples per property (fixed, so a run's cost is known); the side property draws a third of its 288 cases, each kind
#: of thing planted is also a deterministic case in test_files_side.py
SIDE_EXAMPLES = 96
LINE_EXAMPLES = 200
SIDE = settings(
    max_examples=SIDE_EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
LINES = settings(
    max_examples=LINE_EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
#: seconds one command may take before it counts as hung (a FIFO opened for reading or writing blocks forever)
HANG = 240
PRECIOUS = "precious\n"
HATRIS = ["--jobs", "1", "--quiet", "--max-actions", "3"]
COMMANDS: dict[str, Callable[[str], list[str]]] = {
    "stats --json": lambda out: ["stats", "hatris", "--bot", "random", "--games", "2", *HATRIS, "--json", out],
    "stats --plot": lambda out: ["stats", "hatris", "--bot", "random", "--games", "2", *HATRIS, "--plot", out],
    "watch --replay": lambda out: [
        "watch",
        "yoshis_cookie",
        "--bot",
        "greedy",
        "--max-actions",
        "2",
        "--delay",
        "0",
        "--replay",
        out,
    ],
    "train --out": lambda out: [
        "train",
        "hatris",
        "--games-per-eval",
        "1",
        "--generations",
        "1",
        "--variants",
        "1",
        "--rounds",
        "1",
        *HATRIS,
        "--out",
        out,
    ],
    "train --plot": lambda out: [
        "train",
        "hatris",
        "--games-per-eval",
        "1",
        "--generations",
        "1",
        "--variants",
        "1",
        "--rounds",
        "1",
        *HATRIS,
        "--out",
        out + ".w.json",
        "--plot",
        out,
    ],
    "versus --json": lambda out: [
        "versus",
        "puyo",
        "--bots",
        "krieg,krieg",
        "--games",
        "1",
        "--max-turns",
        "3",
        "--jobs",
        "1",
        "--json",
        out,
    ],
    "cargobot solve --json": lambda out: ["cargobot", "solve", "--level", "Cargo 101", "--jobs", "1", "--json", out],
    "cargobot sketch --json": lambda out: [
        "cargobot",
        "sketch",
        "--level",
        "Cargo 101",
        "--jobs",
        "1",
        "--time-limit",
        "0.001",  # the output is what is under test: a search that ends at once writes it as a long one does
        "--json",
        out,
    ],
}
SUFFIXES = ["", ".tmp", ".partial", ".ckpt", ".ckpt.tmp", ".progress"]
KINDS = ["regular file", "link to a file", "link to a folder", "dangling link", "FIFO", "folder"]


class Hung(BaseException):
    """The command did not end in ``HANG`` seconds (not an ``Exception``, so nothing on the way catches it)."""


def _hung(signum: int, frame: FrameType | None) -> None:
    raise Hung


@contextmanager
def alarm(seconds: int) -> Iterator[None]:
    old = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def plant(path: Path, kind: str, victim: Path, victim_folder: Path) -> None:
    if kind == "regular file":
        path.write_text(PRECIOUS)
    elif kind == "link to a file":
        path.symlink_to(victim)
    elif kind == "link to a folder":
        path.symlink_to(victim_folder)
    elif kind == "dangling link":
        path.symlink_to(path.parent / "nowhere")
    elif kind == "FIFO":
        os.mkfifo(path)
    else:
        path.mkdir()
        (path / "inside.txt").write_text(PRECIOUS)


def one_error_line(result: Result) -> bool:
    lines = [line for line in result.output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    return len(errors) == 1 and lines[-1] == errors[0] and "Traceback" not in result.output


@pytest.mark.slow
@SIDE
@given(command=st.sampled_from(sorted(COMMANDS)), suffix=st.sampled_from(SUFFIXES), kind=st.sampled_from(KINDS))
def test_nothing_planted_beside_an_output_is_followed_opened_or_written(command: str, suffix: str, kind: str) -> None:
    event(f"{command} / OUT{suffix} / {kind}")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        victim, victim_folder = work / "victim.txt", work / "victim_folder"
        victim.write_text(PRECIOUS)
        victim_folder.mkdir()
        (victim_folder / "kept.txt").write_text(PRECIOUS)
        out = work / ("out.png" if command.endswith("--plot") else "out.json")
        planted = out.with_name(out.name + suffix)
        plant(planted, kind, victim, victim_folder)
        with alarm(HANG):
            result = CliRunner().invoke(cli, COMMANDS[command](str(out)))
        assert victim.read_text() == PRECIOUS
        assert sorted(p.name for p in victim_folder.iterdir()) == ["kept.txt"]
        if suffix and kind == "regular file":
            assert planted.read_text() == PRECIOUS  # someone else's file beside the output is left alone
        if kind == "folder" and planted.is_dir():
            assert (planted / "inside.txt").read_text() == PRECIOUS
        if result.exit_code == 0:
            assert out.is_file() and not out.is_symlink() and out.stat().st_size > 0
            assert not [p.name for p in work.iterdir() if re.search(r"\.[0-9a-f]{12}\.tmp$", p.name)]
        else:
            assert result.exit_code == 2 and one_error_line(result), (result.exit_code, result.output, result.exception)


# ----------------------------------------------------------------- malformed partial-file lines

STATS = ["stats", "hatris", "--bot", "random", "--games", "3", "--max-actions", "5", "--jobs", "1", "--quiet"]
FIRST = {
    "cash": 0,
    "cleared_all": False,
    "decisions": 5,
    "frames": 36,
    "game_over": False,
    "helpers_earned": [0, 0],
    "helpers_used": [0, 0],
    "level": 0,
    "levels_cleared": 0,
    "max_spawns_reached": False,
    "seed": 0,
    "spawns": 6,
    "stacks": 0,
    "truncated": True,
}
COUNTS = [k for k, v in FIRST.items() if type(v) is int]
FLAGS = [k for k, v in FIRST.items() if type(v) is bool]
LISTS = [k for k, v in FIRST.items() if type(v) is list]

huge = st.one_of(
    st.integers(min_value=2**63, max_value=10**99), st.integers(min_value=-(10**99), max_value=-(2**63) - 1)
)
not_int = st.one_of(
    st.booleans(),
    st.text(max_size=4),
    st.floats(allow_nan=False, allow_infinity=False),
    st.none(),
    st.lists(st.integers(0, 9), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
    huge,
)
not_bool = st.one_of(
    st.integers(), st.text(max_size=4), st.none(), st.floats(allow_nan=False), st.lists(st.booleans(), max_size=2)
)
not_pair = st.one_of(
    st.lists(st.integers(0, 9), max_size=5).filter(lambda v: len(v) != 2),
    st.tuples(not_int, st.integers(0, 9)).map(list),
    st.integers(),
    st.text(max_size=3),
    st.none(),
)


def as_line(value: dict) -> str:
    return json.dumps(value, sort_keys=True)


bad_value = st.one_of(
    st.tuples(st.sampled_from(COUNTS), not_int),
    st.tuples(st.sampled_from(FLAGS), not_bool),
    st.tuples(st.sampled_from(LISTS), not_pair),
).map(lambda kv: as_line({**FIRST, kv[0]: kv[1]}))
missing_key = st.sampled_from(sorted(FIRST)).map(lambda k: as_line({x: v for x, v in FIRST.items() if x != k}))
unknown_key = st.text(min_size=1, max_size=8).filter(lambda k: k not in FIRST).map(lambda k: as_line({**FIRST, k: 1}))
cut = st.integers(1, len(as_line(FIRST)) - 1).map(lambda n: as_line(FIRST)[:n])
raw = st.sampled_from(
    [
        as_line(FIRST).replace('"spawns": 6', '"spawns": NaN'),
        as_line(FIRST).replace('"spawns": 6', '"spawns": Infinity'),
        as_line(FIRST).replace('"spawns": 6', '"spawns": 1e400'),
        as_line(FIRST).replace('"spawns": 6', '"spawns": ' + "9" * 5000),
        as_line(FIRST).replace('"seed": 0', '"seed": 99'),
        "[" * 100,
        "null",
        '"a string"',
        "[1, 2]",
    ]
)
bad_line = st.one_of(bad_value, missing_key, unknown_key, cut, raw)


@LINES
@given(line=bad_line, position=st.integers(0, 1), not_utf8=st.booleans())
def test_a_malformed_partial_line_is_refused_before_any_game(line: str, position: int, not_utf8: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out.json"
        head = {
            "game": "hatris",
            "bot": "random",
            "config": config(),
            "seeds": [0, 3],
            "weights": None,
            "max_actions": 5,
        }
        bad = line.encode()
        if not_utf8:
            bad = bad[:1] + b"\xff" + bad[1:]
        lines = [as_line(FIRST).encode()]
        lines.insert(position, bad)
        data = b"\n".join([as_line(head).encode(), *lines]) + b"\n"
        partial = out.with_name("out.json.partial")
        partial.write_bytes(data)
        with mock.patch("puzzlebots.core.batch.evaluate", side_effect=AssertionError("a game was played")):
            result = CliRunner().invoke(cli, [*STATS, "--json", str(out)])
        assert result.exit_code == 2 and one_error_line(result), result.output
        assert len(result.output) < 400 and f"line {position + 2}" in result.output, result.output
        assert partial.read_bytes() == data and not out.exists()


_CONFIG: list[dict] = []


def config() -> dict:
    """The checked default Hatris config (what a partial file's header holds)."""
    if not _CONFIG:
        from puzzlebots.core.registry import get_game

        _CONFIG.append(get_game("hatris").check_config({}))
    return _CONFIG[0]
