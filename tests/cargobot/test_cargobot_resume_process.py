"""With a real process: ``cargobot solve`` killed (Ctrl-C, ``kill``, or ``kill -9``) after its
progress file shows a finished size goes on with ``--resume`` without redoing those sizes, and finds the program
an uninterrupted run finds; no worker outlives a killed run."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

LEVEL = "Walking Piles"  # size 8; sizes 1-6 take a fraction of a second, size 7 about 1.5 s of one core
KILL_AFTER = 6  # signal the run once its progress file says every size up to this one is searched
STARTUP = 600.0  # seconds to wait for the first sizes (a fresh copy compiles the kernel first)
#: the signals that stop a run cleanly (progress saved, workers stopped), and the run's last line
STOPS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}


def solve_cmd(tmp: Path, name: str, *extra: str, jobs: int = 1) -> list[str]:
    return [
        sys.executable,
        "-m",
        "puzzlebots",
        "cargobot",
        "solve",
        "--level",
        LEVEL,
        "--jobs",
        str(jobs),
        "--progress",
        str(tmp / f"{name}.progress"),
        "--json",
        str(tmp / f"{name}.json"),
        *extra,
    ]


def finish(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=STARTUP)
    assert done.returncode == 0, done.stderr
    return done


def record(path: Path) -> dict[str, Any] | None:
    try:
        return json.loads(path.read_text())["levels"].get(LEVEL)
    except (OSError, ValueError):
        return None


def interrupted(tmp: Path, name: str, sig: int, jobs: int = 1) -> tuple[dict[str, Any], list[int]]:
    """Start a solve, send ``sig`` once sizes up to ``KILL_AFTER`` are searched; the record left, the workers."""
    proc = subprocess.Popen(solve_cmd(tmp, name, jobs=jobs), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    path, start = tmp / f"{name}.progress", time.monotonic()
    while True:
        rec = record(path)
        if rec is not None and rec["searched_to"] >= KILL_AFTER:
            break
        assert proc.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() - start < STARTUP
        time.sleep(0.005)
    workers = _children(proc.pid)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    assert rec["result"] is None, "the run finished before the signal"
    if sig in STOPS:
        assert proc.returncode == 128 + sig and f"progress saved in {path}: continue with --resume" in err, err
        assert err.rstrip().endswith(STOPS[sig]) and "Traceback" not in err, err
    else:
        assert proc.returncode == -sig
    left = record(path)
    assert left is not None and left["result"] is None and left["searched_to"] >= KILL_AFTER
    return left, workers


def _children(pid: int) -> list[int]:
    """The child processes of ``pid``'s threads, from /proc; a thread that ends while it is read is passed over."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """An uninterrupted run: its result row and its progress record."""
    tmp = tmp_path_factory.mktemp("fresh")
    finish(solve_cmd(tmp, "fresh"))
    row = json.loads((tmp / "fresh.json").read_text())[0]
    assert row["solved"] and row["size"] == 8
    rec = record(tmp / "fresh.progress")
    assert rec is not None
    return row, rec


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=["ctrl-c", "kill", "kill-9"])
def test_killed_solve_resumes_without_redoing_sizes(tmp_path: Path, fresh: tuple[dict, dict], sig: int) -> None:
    row, fresh_rec = fresh
    left, _ = interrupted(tmp_path, "run", sig)
    k = left["searched_to"]
    done = finish(solve_cmd(tmp_path, "run", "--resume"))
    assert f"resuming {LEVEL}: sizes up to {k} searched" in done.stderr
    resumed = json.loads((tmp_path / "run.json").read_text())[0]
    assert (resumed["program"], resumed["size"], resumed["searched_to"]) == (row["program"], 8, 7)
    final = record(tmp_path / "run.progress")
    assert final is not None
    # the sizes finished before the kill are the same records, not searched again ...
    assert final["sizes"][:k] == left["sizes"][:k]
    assert [s["nodes"] for s in final["sizes"][:k]] == [s["nodes"] for s in fresh_rec["sizes"][:k]]
    # ... and the nodes add up to the uninterrupted run's exactly: with one worker the tasks run in the same
    # order, the record's count covers the tasks finished before it was written and its frontier the others,
    # so a resumed run that searched any finished size (or task) again would count more
    assert left["nodes"] < final["nodes"] == fresh_rec["nodes"]
    assert [s["size"] for s in final["sizes"]] == list(range(1, 8))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["kill", "kill-9"])
def test_killed_parallel_solve_leaves_no_worker_and_resumes(tmp_path: Path, sig: int) -> None:
    left, workers = interrupted(tmp_path, "par", sig, jobs=2)
    assert workers, "a --jobs 2 run has worker processes"
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{w}").exists() and _state(w) != "Z" for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if Path(f"/proc/{w}").exists() and _state(w) != "Z"], "orphan workers"
    done = finish(solve_cmd(tmp_path, "par", "--resume", jobs=2))
    assert f"resuming {LEVEL}: sizes up to {left['searched_to']} searched" in done.stderr
    resumed = json.loads((tmp_path / "par.json").read_text())[0]
    assert (resumed["solved"], resumed["size"], resumed["proven_minimal"]) == (True, 8, True)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
