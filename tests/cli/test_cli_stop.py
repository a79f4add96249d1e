"""Ctrl-C or SIGTERM stops ``stats``, ``train`` and ``versus`` at once, busy workers and all,
and every game finished before the signal is in the partial file.

The runs are real processes. The nap game (napgame.py) brings each run to a known point on any machine: its
quick games saved, both workers in games that never end; only the stop can end the run then.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
#: this checkout's sources, first on the path of every run (a relative PYTHONPATH would not survive its cwd)
SRC = HERE.parents[1] / "src"
#: how long a run may take to reach its point or to stop before the test fails (a hang, not a slow machine)
PATIENCE = 120.0
#: how long a stopped run may take to exit before the test fails: far above the 2 s a stop takes
STOP_PATIENCE = 30.0


def live_children(pid: int) -> set[int]:
    """Live (not zombie) child processes of ``pid``, from /proc."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] not in "ZX" and int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] not in "ZX"
    except OSError:
        return False


def start(args: list[str], cwd: Path, game: bool = True) -> subprocess.Popen[str]:
    """``puzzlebots ARGS`` in a session of its own (so a test can Ctrl-C its whole process group, as a terminal
    does); with ``game``, the nap game is registered and marks its busy workers in ``cwd/marks``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    if game:
        (cwd / "marks").mkdir()
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), env.get("PYTHONPATH")]))
        env["PUZZLEBOTS_GAMES"] = "napgame:GAME"
        env["NAP_MARKS"] = str(cwd / "marks")
    return subprocess.Popen(
        [sys.executable, "-m", "puzzlebots", *args],
        cwd=cwd,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=default_ctrl_c,
    )


def default_ctrl_c() -> None:
    """Ctrl-C acts as in a terminal, even where the test runs in the background (which ignores SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def wait_until(proc: subprocess.Popen[str], ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not ready():
        if proc.poll() is not None:
            raise AssertionError(f"the run ended before {what}: {proc.communicate()}")
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"the run did not reach {what} in {PATIENCE:g} s")
        time.sleep(0.05)


def busy(cwd: Path, count: int) -> Callable[[], bool]:
    return lambda: len(list((cwd / "marks").iterdir())) >= count


def stop(proc: subprocess.Popen[str], how: str) -> tuple[int, str, float]:
    """Send the stop (``ctrl-c``: SIGINT to the whole group, as a terminal does; ``sigterm``: to the command);
    the exit code, stderr and seconds to exit. Every worker must be gone."""
    workers = live_children(proc.pid)
    began = time.monotonic()
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=STOP_PATIENCE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"still running {STOP_PATIENCE:g} s after the {how}") from None
    took = time.monotonic() - began
    left = [w for w in workers if alive(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert workers and not left, f"workers {workers}, alive after the stop: {left}"
    print(f"{how}: exit after {took:.2f} s")  # the figure for the report (pytest -s); never asserted
    return proc.returncode, err, took


EXIT = {"ctrl-c": (130, "interrupted"), "sigterm": (143, "terminated")}


@pytest.mark.parametrize("how", sorted(EXIT))
def test_a_stopped_stats_keeps_every_finished_game_and_leaves_no_worker(tmp_path: Path, how: str) -> None:
    proc = start(["stats", "nap", "--games", "8", "--jobs", "2", "--quiet", "--json", "out.json"], tmp_path)
    partial = tmp_path / "out.json.partial"

    def quick_games_saved() -> bool:
        return partial.exists() and partial.read_text().count("\n") >= 5  # the header and seeds 0-3

    wait_until(proc, quick_games_saved, "its quick games were saved")
    wait_until(proc, busy(tmp_path, 2), "both workers were busy")
    code, err, _ = stop(proc, how)
    assert (code, err.strip().splitlines()[-1]) == EXIT[how], err
    assert "Traceback" not in err, err
    lines = partial.read_text().splitlines()
    seeds = [json.loads(line)["seed"] for line in lines[1:]]
    assert sorted(seeds) == [0, 1, 2, 3], lines  # each finished game once; none lost, none twice
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("how", sorted(EXIT))
def test_a_stopped_train_leaves_no_worker(tmp_path: Path, how: str) -> None:
    proc = start(
        ["train", "nap", "--games-per-eval", "4", "--generations", "2", "--jobs", "2", "--quiet", "--out", "w.json"],
        tmp_path,
    )
    wait_until(proc, busy(tmp_path, 2), "both workers were busy")
    code, err, _ = stop(proc, how)
    assert (code, err.strip().splitlines()[-1]) == EXIT[how], err
    assert "Traceback" not in err, err


def test_a_stopped_versus_leaves_no_worker(tmp_path: Path) -> None:
    proc = start(["versus", "puyo", "--games", "24", "--jobs", "2"], tmp_path, game=False)
    wait_until(proc, lambda: len(live_children(proc.pid)) >= 2, "its workers started")
    code, err, _ = stop(proc, "sigterm")
    assert (code, err.strip().splitlines()[-1]) == EXIT["sigterm"], err
