"""A killed run takes its workers along, and a progress file it left empty blocks nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlebots.cli import cli


def children(pid: int) -> set[int]:
    """Live child processes of ``pid``, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) ": state, ppid, ...
            if int(fields[1]) == pid and fields[0] not in "ZX":
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Running (a killed worker nobody reaps stays a zombie: that is dead)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] not in "ZX"


#: seconds after which a wait for something that must happen gives up (it happens in well under a second idle)
HANG_GUARD = 120

RUNS = {
    "stats": ["stats", "hatris", "--games", "400", "--jobs", "2", "--quiet", "--json", "s.json"],
    "train": [
        "train",
        "hatris",
        "--games-per-eval",
        "40",
        "--generations",
        "50",
        "--jobs",
        "2",
        "--quiet",
        "--out",
        "w.json",
    ],
}


@pytest.mark.parametrize("command", sorted(RUNS))
def test_kill_9_mid_run_leaves_no_worker_alive(tmp_path: Path, command: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "puzzlebots", *RUNS[command]],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + HANG_GUARD
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            assert proc.poll() is None, "the run ended before it could be killed"
            workers = children(proc.pid)
            time.sleep(0.1)
        assert len(workers) == 2, f"workers seen: {workers}"
        time.sleep(1.0)  # mid-run: the workers are playing
        # train starts a pool per rating round: take the ones alive now, waiting out a gap between two pools
        workers = children(proc.pid)
        while not workers and time.monotonic() < deadline:
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.01)
            workers = children(proc.pid)
        assert workers, "no live worker to kill with the run"  # children() lists live ones only
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    # the workers go by themselves: wait for that (a hang guard, not a budget: a busy machine only takes longer)
    deadline = time.monotonic() + HANG_GUARD
    while any(alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    survivors = [w for w in workers if alive(w)]
    for w in survivors:  # do not leave them behind for the next test
        os.kill(w, signal.SIGKILL)
    assert survivors == [], f"workers alive {HANG_GUARD} s after kill -9 of their parent: {survivors}"


def stats(tmp_path: Path) -> tuple[int, str, str]:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(
            cli,
            [
                "stats",
                "puyo",
                "--bot",
                "krieg",
                "--games",
                "4",
                "--pairs",
                "5",
                "--jobs",
                "1",
                "--quiet",
                "--json",
                "e.json",
            ],
        )
    finally:
        os.chdir(here)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("content", [b"", b"\n", b'{"game": "puyo", "bo'])
def test_an_empty_or_unreadable_partial_file_is_no_progress(tmp_path: Path, content: bytes) -> None:
    code, _, err = stats(tmp_path)
    assert code == 0, err
    fresh = (tmp_path / "e.json").read_bytes()
    (tmp_path / "e.json").unlink()
    partial = tmp_path / "e.json.partial"
    partial.write_bytes(content)  # a run killed between creating the file and writing its header
    code, _, err = stats(tmp_path)
    assert code == 0, err
    notices = [line for line in err.splitlines() if line.strip()]
    assert len(notices) == 1 and notices[0].startswith("notice: ") and "starting over" in notices[0], err
    assert (tmp_path / "e.json").read_bytes() == fresh
    assert not partial.exists()


def test_a_partial_file_of_other_arguments_still_stops_the_run(tmp_path: Path) -> None:
    partial = tmp_path / "e.json.partial"
    partial.write_text(json.dumps({"game": "puyo", "bot": "beam"}) + "\n")
    code, _, err = stats(tmp_path)
    assert code == 2 and err.startswith("error: e.json.partial holds a run with other arguments"), err
    assert partial.exists()  # kept for the run it belongs to


@pytest.mark.parametrize("content", [b"\xff\xfe not utf-8\n", b"[[[[[[\n", b'"just a string"\n'])
def test_a_partial_file_with_a_header_that_is_no_run_stops_the_run(tmp_path: Path, content: bytes) -> None:
    partial = tmp_path / "e.json.partial"
    partial.write_bytes(content)
    code, _, err = stats(tmp_path)
    assert code == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1, err
    assert partial.read_bytes() == content  # kept as it was: the user decides


def test_a_partial_file_resumes_its_results_and_refuses_any_line_that_is_not_one(tmp_path: Path) -> None:
    code, _, err = stats(tmp_path)
    full = json.loads((tmp_path / "e.json").read_text())
    (tmp_path / "e.json").unlink()
    head = {
        "game": "puyo",
        "bot": "krieg",
        "config": full["config"],
        "seeds": [0, 4],
        "weights": None,
        "max_actions": None,
    }
    kept = dict(full["games"][1], score=-7)
    lines = [json.dumps(head, sort_keys=True), json.dumps(kept)]
    for junk in [
        json.dumps(dict(full["games"][2], seed=99)),
        json.dumps(dict(full["games"][3], seed="3")),
        "[1, 2]",
        "[" * 100_000,
    ]:
        (tmp_path / "e.json.partial").write_text("\n".join([*lines, junk, ""]))
        code, _, err = stats(tmp_path)
        assert code == 2 and err.startswith("error: ") and len(err.strip().splitlines()) == 1, err
        assert not (tmp_path / "e.json").exists()
    (tmp_path / "e.json.partial").write_text("\n".join([*lines, '{"seed": 2, "sco']))  # cut short by a kill
    code, _, err = stats(tmp_path)
    assert code == 0, err
    doc = json.loads((tmp_path / "e.json").read_text())
    assert doc["games"][1]["score"] == -7  # resumed from the partial file
    assert [g["seed"] for g in doc["games"]] == [0, 1, 2, 3]
    assert doc["games"][2:] == full["games"][2:]  # the line cut short was played again, not trusted
