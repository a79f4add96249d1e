"""With a real process: a sketch program above the level's best known size is in the progress file the
moment it is taken, with the exhaustive search's frontier beside it, so ``kill -9`` right then loses neither;
``--resume`` (a plain run, nothing stubbed but its clock, which never moves: the run ends where its search is
done, never on a busy machine's time) goes on from that frontier and finds the smaller program.

The killed run is the real command in a process of its own, with five things changed by a small driver: its
campaign runs on a clock that never moves, the exhaustive search of Come Together 2 (best known 7, moved to the
Crazy pack so the sketch search runs) stops at its 10th task as if its time ran out, the search under board rules
is off, the sketch search hands back a 9-register winning program at once, and the process sends itself SIGKILL as
soon as that program is adopted."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from solving import levels_file

from puzzlebots.games.cargobot.bots.solve import solve
from puzzlebots.games.cargobot.levels import find_level
from puzzlebots.games.cargobot.progress import ProgressFile

LEVEL = "Come Together 2"
NINE = "call2 call1 prog_2 claw R claw call2_yellow L R_none L_none"
STARTUP = 600.0  # seconds a run may take (a fresh copy compiles the kernels first)
DRIVER = f"""
import os, signal, sys
from functools import partial
import puzzlebots.games.cargobot.bots.solve as solver
import puzzlebots.games.cargobot.campaign as campaign
from puzzlebots.cli import cli
from puzzlebots.games.cargobot.bots.sketch import SketchResult
from puzzlebots.games.cargobot.language import parse_registers, register_count

real_task, real_adopt, started = solver.run_task, campaign.adopt, [0]

def run_task(*args, **kwargs):
    started[0] += 1
    if started[0] == 10:
        raise TimeoutError
    return real_task(*args, **kwargs)

def run_sketch(level, seed, time_limit, **kwargs):
    found = parse_registers({NINE!r})
    size = register_count(found)
    return SketchResult(level.name, seed, True, found, size, size, None, None, 0.5, 1, 100, None)

def adopt(*args, **kwargs):
    real_adopt(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGKILL)

solver.run_task, campaign.run_sketch, campaign.adopt = run_task, run_sketch, adopt
campaign.board_hints = lambda level: None  # the search under board rules, which would come first, is off
campaign.Plan = partial(campaign.Plan, clock=lambda: 0.0)  # no time runs out: the search stops at its 10th task
cli(sys.argv[1:])
"""

#: the resumed run: the real command on a campaign clock that never moves (``--total-time`` never runs out)
RESUME = """
import sys
from functools import partial
import puzzlebots.games.cargobot.campaign as campaign
from puzzlebots.cli import cli
campaign.Plan = partial(campaign.Plan, clock=lambda: 0.0)
cli(sys.argv[1:])
"""


def test_killed_as_the_sketch_program_is_taken_resumes_from_the_frontier(tmp_path: Path) -> None:
    levels = levels_file(tmp_path, [LEVEL], {LEVEL: {"pack": "Crazy"}})
    args = [
        "cargobot",
        "solve",
        "--all",
        "--levels-file",
        str(levels),
        "--jobs",
        "1",
        "--total-time",
        "300",
        "--json",
        str(tmp_path / "s.json"),
    ]
    killed = subprocess.run([sys.executable, "-c", DRIVER, *args], capture_output=True, text=True, timeout=STARTUP)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    rec = json.loads((tmp_path / "s.json.progress").read_text())["levels"][LEVEL]
    assert rec["result"]["program"] == NINE and rec["result"]["method"] == "sketch"
    assert rec["searched_to"] == 6 and rec["frontier"] and rec["sketches"] == 1
    done = subprocess.run(
        [sys.executable, "-c", RESUME, *args, "--resume"], capture_output=True, text=True, timeout=STARTUP
    )
    assert done.returncode == 0, done.stderr
    assert f"resuming {LEVEL}: solved by the sketch search at size 9 (best known 7), sizes up to 6" in done.stderr
    row = json.loads((tmp_path / "s.json").read_text())[0]
    fresh = solve(find_level(LEVEL), jobs=1, book=ProgressFile(None, 5000))
    assert (row["size"], row["method"], row["proven_minimal"], row["pass"]) == (7, "exhaustive", True, 1)
    # the resumed search went on from the frontier: the nodes of one uninterrupted search, no task counted twice
    assert (row["program"], row["nodes"]) == (fresh.to_json()["program"], fresh.nodes)
