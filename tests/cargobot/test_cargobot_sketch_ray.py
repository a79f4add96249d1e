"""``sketch`` with its restarts as Ray tasks, on a real local Ray instance (never mocked): it finds and verifies
the programs one process finds, a round of repairs on Ray takes the one-process repair, ``solve --executor ray``
runs its sketch phase on Ray workers, and Ctrl-C stops the tasks and leaves no process of the run behind."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from solving import SKETCH_CASES, campaign_clock, levels_file, sketch_as_one_process

import puzzlebots.games.cargobot.campaign as campaign
import puzzlebots.games.cargobot.cli as solve_cli
from puzzlebots.core.ray_executor import RayExecutor
from puzzlebots.games.cargobot.bots import sketch as sketch_module
from puzzlebots.games.cargobot.bots.solve import SolveResult, setup_search
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.language import parse_registers
from puzzlebots.games.cargobot.levels import find_level
from puzzlebots.games.cargobot.progress import ProgressFile

#: CPU a Ray worker spends past taking its task before it counts as inside the restart (clock ticks: a third of a
#: second at Linux's 100 a second; counted work, so a busy machine waits longer, never interrupts sooner)
WORKING = os.sysconf("SC_CLK_TCK") // 3
STARTUP = 600.0  # seconds to wait for the command's Ray tasks to start (a fresh copy compiles the kernels first)


@pytest.mark.slow
def test_ray_finds_and_verifies_what_one_process_finds(ray_cluster: RayExecutor) -> None:
    """The cheaper of the process pool's two cases: the restarts go through Ray's tasks as through the pool's (the
    pool's test also runs Re-Curses, ten times as many Ray tasks for the same code)."""
    name, seed, program, found_size = SKETCH_CASES[1]
    sketch_as_one_process(name, seed, program, found_size, jobs=2, executor="ray")


def test_cancelled_restarts_free_their_workers(ray_cluster: RayExecutor) -> None:
    """What the search's stop on Ray rests on: both CPUs busy with Vertical Sort restarts of 10^9 programs (an
    hour each by their own limit), both cancelled as after a win: a new call gets a worker, the cancelled futures
    say so, and the workers that ran the restarts end (killed, not left to their hour; the waits are hang guards
    far below that hour)."""
    prep = sketch_module.prepare(find_level("Vertical Sort"))
    totals = sketch_module._totals(prep, None)
    busy = [ray_cluster.submit(sketch_module._pooled_restart, prep, 0, 400, 10**9, 3600.0, k, totals) for k in (0, 1)]
    start = time.monotonic()
    while sum("ray::_call" in _name(p) for p in _tree(os.getpid())) < 2:  # both are running
        assert time.monotonic() - start < STARTUP
        time.sleep(0.1)
    running = [p for p in _tree(os.getpid()) if "ray::_call" in _name(p)]
    for future in busy:
        ray_cluster.cancel(future)
    assert ray_cluster.submit(abs, -3).result(timeout=STARTUP / 2) == 3
    assert all(future.cancelled() for future in busy)
    while any(_alive(p) for p in running):  # the restarts' workers end: they do not run on to their hour
        assert time.monotonic() - start < STARTUP
        time.sleep(0.1)


def test_a_round_of_repairs_on_ray_takes_what_one_process_takes(ray_cluster: RayExecutor) -> None:
    """As the process-pool test: the lowest register whose repair wins, and the attempts counted, are one
    process's (a success at register 2, at register 1, and none)."""
    cases = [
        ("Re-Curses", "claw R claw R L L call1", 13),
        ("Transporter", "claw R claw L R call1", 12),
        ("Re-Curses", "claw R claw L call1", 15),
    ]
    for name, text, attempts in cases:
        prep = sketch_module.prepare(find_level(name))
        program = sketch_module.encode(prep, parse_registers(text))
        here = sketch_module._Search(prep, 5, 400, 1, math.inf, repair_runs=300)  # no deadline: the runs end it
        one, counted = sketch_module._repairs_here(here, program, 10)
        mark = sketch_module._Mark()
        two, counted2 = sketch_module._repairs_on_pool(here, ray_cluster, mark, program, 10)
        assert counted == counted2 == attempts and mark.value == sketch_module.NO_STOP
        if one is None:
            assert two is None and name == "Re-Curses"
        else:
            assert two is not None and np.array_equal(one.op, two.op) and np.array_equal(one.cond, two.cond)


def test_solve_on_ray_runs_its_sketch_phase_as_ray_tasks(
    ray_cluster: RayExecutor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Transporter moved to the Crazy pack (outside Tutorial-Hard) with F1 alone (so no sweep: ``bots.sweep``
    needs a helper function), its exhaustive search stubbed out of time at
    once: ``solve --executor ray`` solves it by the sketch search, whose restarts log, from inside the process
    that runs them, that it is a Ray worker (a wrapper sent to Ray by value; the real restart runs in it)."""
    log = tmp_path / "restarts.log"

    def exhaustive(lv: Any, book: ProgressFile, **kwargs: Any) -> SolveResult:
        book.entry(lv, setup_search(lv).digest)
        return SolveResult(level=lv.name, solved=False, seconds=0.1, nodes=7, searched_to=0)

    def logged(*args: Any) -> Any:
        import importlib
        import os

        import ray

        with open(log, "a") as out:
            out.write(f"{os.getpid()} {ray.is_initialized() and ray.get_runtime_context().get_task_id()}\n")
        return importlib.import_module("puzzlebots.games.cargobot.bots.sketch")._pooled_restart(*args)

    monkeypatch.setattr(campaign, "run_solve", exhaustive)
    monkeypatch.setattr(sketch_module, "_pooled_restart", logged)
    path = levels_file(
        tmp_path,
        ["Transporter"],
        {"Transporter": {"pack": "Crazy", "functions": [8], "commands": ["right", "pickup", "left", "f1"]}},
    )
    out = tmp_path / "solve.json"
    campaign_clock(monkeypatch)  # no share runs out: the sketch search stops at the best known size, 4
    result = solve_cli.solve.main(
        ["--level", "Transporter", "--executor", "ray", "--levels-file", str(path), "--json", str(out)],
        standalone_mode=False,
    )
    assert result is None
    (row,) = json.loads(out.read_text())
    assert row["solved"] and row["method"] == "sketch" and row["size"] == 4
    assert run_level(find_level("Transporter"), parse_registers(row["program"])).solved
    rows = [line.split() for line in log.read_text().splitlines()]
    assert rows and all(int(pid) != os.getpid() and task not in ("False", "None") for pid, task in rows)


def _tree(pid: int) -> list[int]:
    """Every descendant of ``pid`` (Ray's processes and its workers included)."""
    found, todo = [], [pid]
    while todo:
        tasks = Path(f"/proc/{todo.pop()}/task")
        for task in tasks.iterdir() if tasks.is_dir() else ():
            try:
                kids = [int(x) for x in (task / "children").read_text().split()]
            except OSError:
                continue
            found += kids
            todo += kids
    return found


def _name(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def _cpu_ticks(pid: int) -> int:
    """The CPU time ``pid`` has used, user and system, in clock ticks (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("how", ["ctrl-c", "ctrl-c-group", "kill"])
def test_an_interrupted_sketch_on_ray_leaves_no_process(how: str) -> None:
    """Ctrl-C to the command (or its process group, as a terminal sends it), or ``kill`` (SIGTERM, whose handler
    ``ray.init`` would replace with an immediate exit), while two Ray tasks run restarts that would each take the
    whole time limit: the command cancels them, prints the best program so far (none here), shuts its Ray
    instance down, and no process it started (Ray's included) outlives it."""
    cmd = [
        sys.executable,
        "-m",
        "puzzlebots",
        "cargobot",
        "sketch",
        "--level",
        "Vertical Sort",
        "--executor",
        "ray",
        "--jobs",
        "2",
        "--time-limit",
        "600",
        "--iterations",
        "1000000000",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        start = time.monotonic()
        while len(workers := [p for p in _tree(proc.pid) if "ray::_call" in _name(p)]) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() - start < STARTUP
            time.sleep(0.1)
        taken = {p: _cpu_ticks(p) for p in workers}
        while any(_cpu_ticks(p) < ticks + WORKING for p, ticks in taken.items()):  # inside their first restarts
            assert proc.poll() is None and all(map(_alive, workers)), proc.communicate()
            time.sleep(0.05)
        started = _tree(proc.pid)
        if how == "ctrl-c-group":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT if how == "ctrl-c" else signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert "interrupted: the best program found so far" in err and "no program found" in out
        deadline = time.monotonic() + 30
        while any(map(_alive, started)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [_name(p) for p in started if _alive(p)], "orphan processes"
    finally:  # a failed run leaves nothing behind either: its session is this command and what it started
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
