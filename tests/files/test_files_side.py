"""Files written beside an output (``OUT.partial``, temporary files, ``OUT.ckpt``,
``OUT.progress``) are never followed, opened as a FIFO or written through a link; a partial file is used only
when every line is a result of this run; an output name too long for the file system is one error line.

Where a hang would be the failure (a FIFO), the command runs as a real process with a generous timeout, so a
regression fails instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from refusal import refused

import puzzlebots
from puzzlebots.cli import cli
from puzzlebots.core import files
from puzzlebots.core.errors import InputError

VICTIM = "precious\n"
STATS = ["stats", "hatris", "--bot", "random", "--games", "3", "--max-actions", "5", "--jobs", "1", "--quiet"]
WATCH = ["watch", "yoshis_cookie", "--bot", "greedy", "--max-actions", "2", "--delay", "0"]
TRAIN = [
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
    "--max-actions",
    "3",
    "--jobs",
    "1",
    "--quiet",
]
#: far more than any of these runs takes on a loaded machine (and less than pytest's own timeout): reaching it
#: means the command hung
HANG = 300
#: the package under test, for the processes started from another working directory
SOURCE = str(Path(puzzlebots.__file__).parents[1])


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real ``puzzlebots`` process (a FIFO that is opened would hang it: the timeout fails the test)."""
    return subprocess.run(
        [sys.executable, "-m", "puzzlebots", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=HANG,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": SOURCE},
    )


def one_error(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    return lines[0]


def temporaries(folder: Path) -> list[str]:
    """Temporary files ``core.files`` left behind (none after a finished run)."""
    return [p.name for p in folder.iterdir() if re.search(r"\.[0-9a-f]{12}\.tmp$", p.name)]


# ----------------------------------------------------------------- item 1: a link planted beside the output


@pytest.mark.parametrize("side", ["out.json.partial", "out.json.tmp"])
def test_stats_never_writes_through_a_link_beside_its_output(tmp_path: Path, side: str) -> None:
    (tmp_path / "victim.txt").write_text(VICTIM)
    (tmp_path / side).symlink_to("victim.txt")
    result = CliRunner().invoke(cli, [*STATS, "--json", str(tmp_path / "out.json")])
    assert (tmp_path / "victim.txt").read_text() == VICTIM
    assert (tmp_path / side).is_symlink()  # left as it was
    if side.endswith(".partial"):  # read as progress: refused, before any game
        assert result.exit_code == 2 and "is a symbolic link" in result.output, result.output
        assert not (tmp_path / "out.json").exists()
    else:  # temporary names are random: the planted one is never touched
        assert result.exit_code == 0, result.output
        out = tmp_path / "out.json"
        assert not out.is_symlink() and json.loads(out.read_text())["summary"]["games"] == 3
    assert temporaries(tmp_path) == []


@pytest.mark.parametrize("command", ["stats", "watch", "train"])
def test_a_link_at_the_output_is_replaced_not_written_through(tmp_path: Path, command: str) -> None:
    (tmp_path / "victim.txt").write_text(VICTIM)
    out = tmp_path / "out.json"
    out.symlink_to("victim.txt")
    args = {
        "stats": [*STATS, "--json", out],
        "watch": [*WATCH, "--replay", out],
        "train": [*TRAIN, "--out", out, "--force"],
    }[command]
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "victim.txt").read_text() == VICTIM
    assert not out.is_symlink() and out.stat().st_size > 0


def test_a_plot_never_writes_through_a_link(tmp_path: Path) -> None:
    (tmp_path / "victim.png").write_text(VICTIM)
    (tmp_path / "h.png").symlink_to("victim.png")
    result = CliRunner().invoke(cli, [*STATS, "--plot", str(tmp_path / "h.png")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "victim.png").read_text() == VICTIM
    assert (tmp_path / "h.png").read_bytes().startswith(b"\x89PNG")


# ----------------------------------------------------------------- item 3: FIFOs, folders, devices (real processes)


def test_a_fifo_at_the_partial_is_refused_before_any_work_without_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "out.json.partial")
    line = one_error(run([*STATS, "--json", "out.json"], tmp_path))
    assert "out.json.partial is a FIFO" in line
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("kind", ["FIFO", "folder"])
@pytest.mark.parametrize(("command", "out"), [("stats", "out.json"), ("watch", "rep.jsonl"), ("train", "w.json")])
def test_fifos_and_folders_at_the_old_temporary_names_do_not_stop_a_run(
    tmp_path: Path, command: str, out: str, kind: str
) -> None:
    if kind == "FIFO":
        os.mkfifo(tmp_path / f"{out}.tmp")
    else:
        (tmp_path / f"{out}.tmp").mkdir()
    (tmp_path / f"{out}.ckpt.tmp").mkdir()
    args = {"stats": [*STATS, "--json", out], "watch": [*WATCH, "--replay", out], "train": [*TRAIN, "--out", out]}
    proc = run(args[command], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / out).is_file() and (tmp_path / out).stat().st_size > 0
    assert (tmp_path / f"{out}.ckpt.tmp").is_dir() and temporaries(tmp_path) == []


@pytest.mark.parametrize("kind", ["folder", "dangling link", "link to /dev/zero"])
def test_a_partial_that_is_no_regular_file_is_one_error_line(tmp_path: Path, kind: str) -> None:
    partial = tmp_path / "out.json.partial"
    if kind == "folder":
        partial.mkdir()
    else:
        partial.symlink_to("/dev/zero" if "zero" in kind else "nowhere")
    line = refused(*STATS, "--json", tmp_path / "out.json")
    assert ("is a folder" if kind == "folder" else "is a symbolic link") in line
    assert not (tmp_path / "out.json").exists()


def test_a_folder_planted_at_the_output_after_the_check_keeps_the_results(tmp_path: Path) -> None:
    text = "the results\n"
    (tmp_path / "out.json").mkdir()
    with pytest.raises(InputError, match="what was to be written is in") as caught:
        files.write_atomic(tmp_path / "out.json", text)
    kept = [p for p in tmp_path.iterdir() if p.name != "out.json"]
    assert len(kept) == 1 and kept[0].read_text() == text and kept[0].name in str(caught.value)


def test_a_partial_of_another_user_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    partial = tmp_path / "p.partial"
    partial.write_text("x\n")
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(partial).st_uid + 1)
    with pytest.raises(InputError, match="a file of another user"):
        files.read_regular(partial, "partial file", 100)


# ----------------------------------------------------------------- item 9: every line of a partial checked first


def partial_lines(tmp_path: Path) -> tuple[list[str], Path]:
    """A finished run's header and result lines, as the partial file of the same run holds them."""
    out = tmp_path / "out.json"
    result = CliRunner().invoke(cli, [*STATS, "--json", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    out.unlink()
    head = {
        "game": "hatris",
        "bot": "random",
        "config": doc["config"],
        "seeds": [0, 3],
        "weights": None,
        "max_actions": 5,
    }
    return [json.dumps(head, sort_keys=True), *(json.dumps(r, sort_keys=True) for r in doc["games"])], out


BIG = "9" * 5000
BAD_RESULTS = {
    "5,000-digit integer": lambda r: r.replace('"spawns": 6', f'"spawns": {BIG}'),
    "seed only": lambda r: '{"seed": 0}',
    "NaN": lambda r: r.replace('"spawns": 6', '"spawns": NaN'),
    "string for a count": lambda r: r.replace('"spawns": 6', '"spawns": "6"'),
    "bool for a count": lambda r: r.replace('"spawns": 6', '"spawns": true'),
    "count for a bool": lambda r: r.replace('"game_over": false', '"game_over": 0'),
    "list too short": lambda r: r.replace('"helpers_used": [0, 0]', '"helpers_used": [0]'),
    "2**64": lambda r: r.replace('"spawns": 6', f'"spawns": {2**64}'),
    "unknown key": lambda r: r.replace("{", '{"extra": 1, ', 1),
    "seed of another run": lambda r: r.replace('"seed": 0', '"seed": 7'),
    "not an object": lambda r: "[1, 2]",
}


@pytest.mark.parametrize("case", list(BAD_RESULTS))
def test_a_bad_result_line_is_refused_before_any_game(
    tmp_path: Path, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, out = partial_lines(tmp_path)
    text = "\n".join([lines[0], BAD_RESULTS[case](lines[1]), lines[2], ""])
    partial = files.beside(out, ".partial")
    partial.write_text(text)
    monkeypatch.setattr("puzzlebots.core.batch.evaluate", lambda *a, **k: pytest.fail("a game was played"))
    line = refused(*STATS, "--json", out)
    assert "line 2" in line and len(line) < 300, line
    assert partial.read_text() == text and not out.exists()  # kept as it was, nothing half used


def test_a_5000_digit_integer_in_the_header_is_one_error_line(tmp_path: Path) -> None:
    lines, out = partial_lines(tmp_path)
    files.beside(out, ".partial").write_text(lines[0].replace('"max_actions": 5', f'"max_actions": {BIG}') + "\n")
    line = refused(*STATS, "--json", out)
    assert "line 1" in line and "digits" in line and len(line) < 300, line


def test_good_lines_resume_and_the_line_cut_by_a_kill_is_played_again(tmp_path: Path) -> None:
    lines, out = partial_lines(tmp_path)
    marked = lines[1].replace('"frames": 36', '"frames": 12345')
    files.beside(out, ".partial").write_text("\n".join([lines[0], marked, lines[2][:20]]))
    result = CliRunner().invoke(cli, [*STATS, "--json", str(out)])
    assert result.exit_code == 0, result.output
    games = json.loads(out.read_text())["games"]
    assert games[0]["frames"] == 12345 and [g["seed"] for g in games] == [0, 1, 2]
    assert not files.beside(out, ".partial").exists()


# ----------------------------------------------------------------- item 10: names the file system cannot hold

LONG = "a" * 300
OUTPUT_OPTIONS = {
    "stats --json": lambda f: [*STATS, "--json", f],
    "stats --plot": lambda f: [*STATS, "--plot", f + ".png"],
    "watch --replay": lambda f: [*WATCH, "--replay", f],
    "train --out": lambda f: [*TRAIN, "--out", f],
    "versus --json": lambda f: ["versus", "puyo", "--json", f],
    "cargobot solve --json": lambda f: ["cargobot", "solve", "--level", "Cargo 101", "--json", f],
    "cargobot solve --progress": lambda f: ["cargobot", "solve", "--level", "Cargo 101", "--progress", f],
    "cargobot sketch --json": lambda f: ["cargobot", "sketch", "--level", "Cargo 101", "--json", f],
}


@pytest.mark.parametrize("option", list(OUTPUT_OPTIONS))
@pytest.mark.parametrize("name", [LONG, f"{LONG}/x.json", "a" * 250])
def test_an_output_name_too_long_is_one_error_line(tmp_path: Path, option: str, name: str) -> None:
    line = refused(*OUTPUT_OPTIONS[option](str(tmp_path / name)))
    assert "bytes" in line and len(line) < 400, line
    assert list(tmp_path.iterdir()) == []
