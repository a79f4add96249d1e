"""``sketch`` on several worker processes: it finds the programs one process finds (restarts numbered, each
drawn from (seed, number)), workers draw different restarts, ``solve`` hands its ``--jobs`` to its sketch
phase, a later sketch search of ``solve`` draws no restart an earlier one drew, and Ctrl-C or ``kill -9``
leaves no worker behind."""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from solving import SKETCH_CASES, campaign_clock, sketch_as_one_process, unswept

import puzzlebots.games.cargobot.campaign as campaign
from puzzlebots.cli import cli
from puzzlebots.core.batch import WorkerPool
from puzzlebots.core.workers import default_jobs
from puzzlebots.games.cargobot.bots import sketch as sketch_module
from puzzlebots.games.cargobot.bots.sketch import SketchResult, sketch
from puzzlebots.games.cargobot.bots.solve import SolveResult, setup_search
from puzzlebots.games.cargobot.campaign import Campaign, Plan
from puzzlebots.games.cargobot.language import parse_registers
from puzzlebots.games.cargobot.levels import find_level
from puzzlebots.games.cargobot.progress import ProgressFile, level_digest
from puzzlebots.games.cargobot.records import LevelProgress

STARTUP = 600.0  # seconds to wait for a fresh process (a fresh copy compiles the kernels first)


@pytest.mark.parametrize("name, seed, program, found_size", SKETCH_CASES)
def test_two_workers_find_and_verify_what_one_process_finds(
    name: str, seed: int, program: str, found_size: int
) -> None:
    one, two = sketch_as_one_process(name, seed, program, found_size, jobs=2)
    assert two.evaluations >= one.evaluations  # the other worker's restart ran too, then stopped


class _Draws:
    """Every restart's first program and seed as a worker draws it, logged to a file by ``_Search.improve``
    (the pool forks this process, Linux's way, so the patch holds in the workers); the parent's own calls
    (shrink) are left out."""

    def __init__(self, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.path, self.parent = path, os.getpid()
        improve = sketch_module._Search.improve

        def logged(search: Any, program: Any, free: np.ndarray, functions: int, seed: int, total: int) -> Any:
            if os.getpid() != self.parent:
                with path.open("a") as log:
                    log.write(
                        f"{os.getpid()} {search.seed} {program.op.tobytes().hex()} "
                        f"{program.cond.tobytes().hex()} {seed}\n"
                    )
            return improve(search, program, free, functions, seed, total)

        monkeypatch.setattr(sketch_module._Search, "improve", logged)

    def read(self) -> list[tuple[int, int, str]]:
        rows = [line.split() for line in self.path.read_text().splitlines()] if self.path.exists() else []
        return [(int(pid), int(seed), " ".join(rest)) for pid, seed, *rest in rows]

    def clock(self, workers: int, draws: int, seed: int | None = None) -> Callable[[], float]:
        """A search clock that stands still until ``workers`` processes have drawn ``draws`` restarts in all (of
        ``seed``'s search, if given), then jumps past any time limit: the search ends after what the test needs,
        however busy the machine."""

        def now() -> float:
            rows = [row for row in self.read() if seed is None or row[1] == seed]
            return 0.0 if len(rows) < draws or len({pid for pid, _, _ in rows}) < workers else math.inf

        return now


def test_workers_draw_different_restarts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Vertical Sort (18 registers) is not solved in seconds: both workers run restarts, no draw twice. The
    search's time runs out once both workers have drawn and four restarts are drawn."""
    draws = _Draws(tmp_path / "draws", monkeypatch)
    result = sketch(
        find_level("Vertical Sort"), seed=3, time_limit=8, iterations=3_000, jobs=2, clock=draws.clock(2, 4)
    )
    assert not result.solved and result.restarts >= 2
    rows = draws.read()
    assert len({pid for pid, _, _ in rows}) == 2, "both workers ran restarts"
    assert len({draw for _, _, draw in rows}) == len(rows) >= 2
    first = {pid: draw for pid, _, draw in reversed(rows)}  # each worker's first restart
    assert len(set(first.values())) == 2


def test_a_later_sketch_search_of_solve_replays_no_restart_with_two_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sketch searches of one level (two passes of ``solve``, or a resumed run) on two workers each: the
    record's count gives them seeds 0 and 1, and no restart of the second draws what one of the first drew."""
    draws = _Draws(tmp_path / "draws", monkeypatch)
    level, book = find_level("Vertical Sort"), ProgressFile(tmp_path / "p.json", 5000)
    stopped = SolveResult(level=level.name, solved=False, seconds=1.0, nodes=7, searched_to=0)
    book.levels[level.name] = LevelProgress(level.name, level_digest(level), "0" * 32)
    for seed in range(2):  # each search's time runs out once both its workers have drawn
        plan = Plan(jobs=2, clock=draws.clock(2, 2, seed))
        assert not Campaign(plan, book).sketch_after(level, stopped, 4.0).solved
    assert book.levels[level.name].sketches == 2
    rows = draws.read()
    by_seed = {seed: {draw for _, s, draw in rows if s == seed} for seed in (0, 1)}
    assert by_seed[0] and by_seed[1] and not by_seed[0] & by_seed[1]
    assert {s for _, s, _ in rows} == {0, 1} and len({pid for pid, _, _ in rows}) == 4


def _sketch_cmd(*extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "puzzlebots",
        "cargobot",
        "sketch",
        "--level",
        "Vertical Sort",
        "--jobs",
        "2",
        "--time-limit",
        "600",
        "--iterations",
        "1000000000",
        *extra,
    ]


def _children(pid: int) -> list[int]:
    """The child processes of ``pid``'s threads, from /proc; a thread that ends while it is read is passed over."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("how", ["ctrl-c", "ctrl-c-group", "kill-9"])
def test_an_interrupted_sketch_leaves_no_worker(how: str) -> None:
    """Ctrl-C to the command (or to its whole process group, as a terminal sends it) stops both workers and
    ends with the best program so far (none here); ``kill -9`` takes the workers with it. Each restart would
    run for the whole time limit (10^9 programs), so only the stop ends it within the two minutes allowed."""
    proc = subprocess.Popen(
        _sketch_cmd(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        _interrupt(proc, how)
    finally:  # a failed run leaves nothing behind either: its session is this command and its workers
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _interrupt(proc: subprocess.Popen[str], how: str) -> None:
    start = time.monotonic()
    while len(workers := _children(proc.pid)) < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() - start < STARTUP
        time.sleep(0.05)
    time.sleep(2.0)  # the workers are inside their first restarts
    if how == "ctrl-c":
        proc.send_signal(signal.SIGINT)
    elif how == "ctrl-c-group":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    if how == "kill-9":
        assert proc.returncode == -signal.SIGKILL
    else:
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert "interrupted: the best program found so far" in err and "no program found" in out
    deadline = time.monotonic() + 30
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if _alive(w)], "orphan workers"


@pytest.mark.parametrize("given, jobs", [(["--jobs", "2"], 2), (["--jobs", "1"], 1), ([], default_jobs())])
def test_solve_hands_its_jobs_to_the_sketch_phase(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, given: list[str], jobs: int
) -> None:
    """The exhaustive search (stubbed: out of time at once) leaves Vertical Sort (with no sweep) unsolved; the
    sketch search that takes over runs on as many workers as ``solve --jobs`` (default: one per usable core)."""
    seen: list[int] = []

    def exhaustive(lv: Any, jobs: int | None, book: ProgressFile, **kwargs: Any) -> SolveResult:
        book.entry(lv, setup_search(lv).digest)
        return SolveResult(level=lv.name, solved=False, seconds=0.1, nodes=7, searched_to=8)

    def sketching(lv: Any, seed: int, time_limit: float, jobs: int, **kwargs: Any) -> SketchResult:
        seen.append(jobs)
        return SketchResult(lv.name, seed, False, None, None, None, None, None, 0.1, 1, 9, None)

    monkeypatch.setattr(campaign, "run_solve", exhaustive)
    monkeypatch.setattr(campaign, "run_sketch", sketching)
    campaign_clock(monkeypatch)
    args = ["cargobot", "solve", "--levels-file", str(unswept(tmp_path)[0]), "--level", "Vertical Sort"]
    result = CliRunner().invoke(cli, [*args, "--time-limit", "4", *given])
    assert result.exit_code == 0, result.stderr
    assert seen == [jobs]


def test_a_round_of_repairs_on_two_workers_takes_what_one_process_takes() -> None:
    """The shrink's repairs (each register removed, the rest searched 300 programs) on a pool of two: the lowest
    register whose repair wins, and the attempts counted, are one process's; here the first success is at
    register 2 (Re-Curses), at register 1 (Transporter), and none is (Re-Curses' 5-register program)."""
    cases = [
        ("Re-Curses", "claw R claw R L L call1", 13),
        ("Transporter", "claw R claw L R call1", 12),
        ("Re-Curses", "claw R claw L call1", 15),
    ]
    mark = multiprocessing.get_context().RawValue("q", sketch_module.NO_STOP)
    pool = WorkerPool(2, sketch_module._worker_start, (mark,))
    try:
        for name, text, attempts in cases:
            prep = sketch_module.prepare(find_level(name))
            program = sketch_module.encode(prep, parse_registers(text))
            here = sketch_module._Search(prep, 5, 400, 1, math.inf, repair_runs=300)  # no deadline: the runs end it
            one, counted = sketch_module._repairs_here(here, program, 10)
            two, counted2 = sketch_module._repairs_on_pool(here, pool, mark, program, 10)
            assert counted == counted2 == attempts and mark.value == sketch_module.NO_STOP
            if one is None:
                assert two is None and name == "Re-Curses"
            else:
                assert two is not None and np.array_equal(one.op, two.op) and np.array_equal(one.cond, two.cond)
                assert sketch_module.wins(prep, two, 400) and two.size() < program.size()
    finally:
        pool.shutdown(wait=True)
