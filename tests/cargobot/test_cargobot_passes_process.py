"""With a real process: ``cargobot solve --all`` killed (``kill -9``) in its second pass leaves a progress file that
holds what both passes did, and ``--resume`` goes on from it without redoing a finished size. Genetic Code (best
known 12) is not solved in seconds, so its passes end by their time; Cargo 101, solved at once, leaves the first
pass's rest of the total for the second. The command runs through a small driver that puts its campaign on a
clock moving ``STEP`` seconds each time it is read (with one job, a fixed number of reads per task), so every pass
ends after the same tasks on any machine."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from importlib.resources import files
from pathlib import Path
from typing import Any

LEVEL = "Genetic Code"
STARTUP = 600.0  # seconds to wait for the second pass (a fresh copy compiles the kernels first)
STEP = 0.04  # campaign seconds per read of its clock: a level's 4 s are about 100 reads, some 50 tasks
DRIVER = f"""
import sys
from functools import partial

import puzzlebots.games.cargobot.campaign as campaign
from puzzlebots.cli import cli

class Ticks:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += {STEP}
        return self.now

campaign.Plan = partial(campaign.Plan, clock=Ticks())
cli(sys.argv[1:])
"""


def _cmd(tmp: Path, *extra: str) -> list[str]:
    rows = json.loads(files("puzzlebots.games.cargobot").joinpath("data/levels.json").read_text())
    levels = tmp / "levels.json"
    levels.write_text(json.dumps([r for r in rows if r["name"] in (LEVEL, "Cargo 101")]))
    return [
        sys.executable,
        "-c",
        DRIVER,
        "cargobot",
        "solve",
        "--all",
        "--levels-file",
        str(levels),
        "--jobs",
        "1",
        "--time-limit",
        "4",
        "--json",
        str(tmp / "s.json"),
        *extra,
    ]


def _record(tmp: Path) -> dict[str, Any]:
    rec: dict[str, Any] = json.loads((tmp / "s.json.progress").read_text())["levels"][LEVEL]
    return rec


def test_killed_in_the_second_pass_resumes_without_redoing_sizes(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        _cmd(tmp_path, "--total-time", "60"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stderr or []), daemon=True)
    reader.start()
    start = time.monotonic()
    while not any(line.startswith("pass 2: 1 unsolved level gets the") for line in lines):
        assert proc.poll() is None, f"the run ended before its second pass: {lines}"
        assert time.monotonic() - start < STARTUP
        time.sleep(0.05)
    first = _record(tmp_path)  # the first pass's record: written (forced) before its sketch search
    while _record(tmp_path)["nodes"] == first["nodes"]:  # the second pass's search writes its record
        assert proc.poll() is None and time.monotonic() - start < STARTUP
        time.sleep(0.02)
    proc.kill()
    proc.wait(timeout=60)
    left = _record(tmp_path)
    assert left["result"] is None and left["searched_to"] >= first["searched_to"] >= 5
    assert left["nodes"] > first["nodes"] and left["seconds"] > first["seconds"]
    assert left["sizes"][: first["searched_to"]] == first["sizes"]
    done = subprocess.run(
        _cmd(tmp_path, "--total-time", "12", "--resume"), capture_output=True, text=True, timeout=STARTUP
    )
    assert done.returncode == 0, done.stderr
    assert f"resuming {LEVEL}: sizes up to {left['searched_to']} searched" in done.stderr
    assert "resuming Cargo 101: solved" in done.stderr
    final = _record(tmp_path)
    # the sizes finished before the kill are kept as they were, and the search went on past them
    assert final["sizes"][: left["searched_to"]] == left["sizes"]
    assert final["nodes"] > left["nodes"] and final["searched_to"] >= left["searched_to"]
    row = {r["level"]: r for r in json.loads((tmp_path / "s.json").read_text())}[LEVEL]
    assert row["searched_to"] == final["searched_to"] and not row["solved"]
