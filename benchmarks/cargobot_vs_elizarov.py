"""Cargo-Bot's ``solve`` side by side with Roman Elizarov's Java CargoBotSolver (issue 11, acceptance item 2).

One level at a time, his solver pinned to one core and ours to the other, both started together, so that the
machine's state is the same for both; the table gives each whole command's wall and user CPU seconds (start-up,
JVM warm-up and numba's cache load included) and the ratio of ours to his. Run numba's cache warm first (any
``solve`` once) so that ours is not charged a compile.

His solver is not part of the project and is never imported: give a checkout of ``elizarov/CargoBotSolver``; it is
built with ``javac`` into a temporary folder and run on his own ``CargoBotSolver.txt`` with only the level switched
on (``-`` to ``+``). A JDK (``javac``, ``java``) and two usable cores are needed.

    python benchmarks/cargobot_vs_elizarov.py --java-solver DIR [--level NAME ...] [--timeout 600]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from rich.console import Console
from rich.table import Table

from puzzlebots.core.errors import PuzzlebotsError
from puzzlebots.games.cargobot.levels import find_level

#: acceptance item 2's levels
LEVELS = ("Fill The Blanks", "Count in Binary", "Divide by two", "Even the Odds", "Changing Places")
HIS_CORE, OUR_CORE = 0, 1
#: seconds ours may run past ``--timeout`` (given as its ``--time-limit``) to stop by itself and write its record
GRACE = 30.0


class Run(NamedTuple):
    """One command's outcome: the program size it printed (None: none within the timeout), wall and user CPU s."""

    size: int | None
    wall: float
    user: float
    note: str


def build(checkout: Path, into: Path) -> Path:
    """His classes compiled into ``into`` (every ``src/solver`` file but the test)."""
    sources = sorted(str(p) for p in (checkout / "src" / "solver").glob("*.java") if not p.stem.endswith("Test"))
    out = into / "classes"
    subprocess.run(["javac", "-nowarn", "-d", str(out), *sources], check=True, capture_output=True)
    return out


def his_level_file(text: str, name: str) -> str:
    """His levels file with only ``name`` switched on (his header lines: ``-Pack Name`` off, ``+Pack Name`` on)."""
    lines, found = [], 0
    for line in text.splitlines():
        head = re.match(r"^[+-](\S+) (.+?)\s*$", line)
        if head:
            on = head.group(2).lower() == name.lower()
            found += on
            line = ("+" if on else "-") + line[1:]
        lines.append(line)
    if found != 1:
        raise PuzzlebotsError(f"--level {name!r}: {found} levels of that name in his CargoBotSolver.txt")
    return "\n".join(lines) + "\n"


def _pinned(core: int):
    return lambda: os.sched_setaffinity(0, {core})


def _start(argv: list[str], core: int, cwd: Path, out: Path) -> subprocess.Popen:
    with out.open("w") as sink:
        return subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            preexec_fn=_pinned(core),
            start_new_session=True,
        )


def race(commands: dict[str, tuple[list[str], int, Path, float]]) -> dict[str, tuple[float, float, bool]]:
    """Start every command at once (name: argv, core, output file, deadline in seconds) and wait for all: each
    one's wall and user CPU seconds and whether it was killed at its deadline. Ctrl-C or a kill of this script
    stops them all (their whole process groups)."""
    start = time.monotonic()
    procs = {name: _start(argv, core, out.parent, out) for name, (argv, core, out, _) in commands.items()}
    done: dict[str, tuple[float, float, bool]] = {}
    try:
        while len(done) < len(procs):
            for name, proc in procs.items():
                if name in done:
                    continue
                pid, _status, usage = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    proc.returncode = 0  # reaped here; Popen must not wait for it again
                    done[name] = (time.monotonic() - start, usage.ru_utime, False)
                elif time.monotonic() - start > commands[name][3]:
                    os.killpg(proc.pid, signal.SIGKILL)
                    _pid, _status, usage = os.wait4(proc.pid, 0)
                    proc.returncode = -9
                    done[name] = (time.monotonic() - start, usage.ru_utime, True)
            time.sleep(0.02)
    finally:
        for name, proc in procs.items():
            if name not in done:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    return done


def side_by_side(name: str, his_file: str, work: Path, classes: Path, timeout: float) -> tuple[Run, Run, dict]:
    """His run (on ``his_file``, his levels file with the level switched on) and ours on one level, at the same
    time, and our ``--json`` row."""
    folder = work / re.sub(r"\W+", "_", name)
    folder.mkdir()
    (folder / "one.txt").write_text(his_file)
    ours_json = folder / "ours.json"
    commands = {
        "his": (
            ["java", "-cp", str(classes), "solver.CargoBotSolver", "solve", "one.txt"],
            HIS_CORE,
            folder / "his.out",
            timeout,
        ),
        "ours": (
            [
                sys.executable,
                "-m",
                "puzzlebots",
                "cargobot",
                "solve",
                "--level",
                name,
                "--jobs",
                "1",
                "--time-limit",
                str(timeout),
                "--sketch-share",
                "0",
                "--json",
                str(ours_json),
            ],
            OUR_CORE,
            folder / "ours.out",
            timeout + GRACE,
        ),
    }
    times = race(commands)
    his_text = (folder / "his.out").read_text()
    found = re.search(r"^Solution of size (\d+)", his_text, re.M)
    his_size = int(found.group(1)) if found and not times["his"][2] else None
    bound = re.findall(r"Analyzed solutions up to size (\d+)", his_text)
    his = Run(his_size, times["his"][0], times["his"][1], f"sizes <= {bound[-1]}" if bound else "")
    row = json.loads(ours_json.read_text())[0] if ours_json.exists() and not times["ours"][2] else {}
    searched = f"sizes <= {row['searched_to']}" if row else "killed"
    ours = Run(row.get("size") if row.get("solved") else None, times["ours"][0], times["ours"][1], searched)
    return his, ours, row


def _cell(run: Run, timeout: float) -> str:
    if run.size is None:
        return f"not solved in {timeout:.0f} s ({run.note})" if run.note else f"not solved in {timeout:.0f} s"
    return f"{run.size}, {run.wall:.1f} s ({run.user:.1f} s)"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--java-solver", type=Path, required=True, help="a checkout of elizarov/CargoBotSolver")
    parser.add_argument("--level", action="append", help="a level (repeatable; default: item 2's five)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds either solver may take per level")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so that ``race`` stops both solvers on kill too
    try:
        if not (args.java_solver / "src" / "solver" / "CargoBotSolver.java").is_file():
            raise PuzzlebotsError(f"--java-solver {args.java_solver}: no src/solver/CargoBotSolver.java there")
        if not 10 <= args.timeout <= 86_400:
            raise PuzzlebotsError("--timeout takes seconds from 10 to 86400")
        if len(os.sched_getaffinity(0)) < 2 or not {HIS_CORE, OUR_CORE} <= os.sched_getaffinity(0):
            raise PuzzlebotsError(f"cores {HIS_CORE} and {OUR_CORE} must be usable, one for each solver")
        for tool in ("javac", "java"):
            if shutil.which(tool) is None:
                raise PuzzlebotsError(f"{tool} is not on PATH (a JDK is needed to build his solver)")
        names = [find_level(name).name for name in (args.level or LEVELS)]
        text = (args.java_solver / "CargoBotSolver.txt").read_text()
        his_files = {name: his_level_file(text, name) for name in names}
    except (PuzzlebotsError, OSError) as exc:
        parser.exit(2, f"error: {exc}\n")
    table = Table(title=f"solve side by side with Elizarov's Java solver (one core each, timeout {args.timeout:.0f} s)")
    for col in (
        "level",
        "his: size, wall s (user s)",
        "ours: size, wall s (user s)",
        "ours proven minimal",
        "ours / his wall",
    ):
        table.add_column(col)
    console = Console(width=200)
    with tempfile.TemporaryDirectory(prefix="vs-elizarov-") as tmp:
        classes = build(args.java_solver, Path(tmp))
        for name, his_file in his_files.items():
            his, ours, row = side_by_side(name, his_file, Path(tmp), classes, args.timeout)
            ratio = (
                f"{ours.wall / his.wall:.2f}"
                if his.size is not None and ours.size is not None
                else (f"< {ours.wall / his.wall:.2f}" if ours.size is not None else "-")
            )
            table.add_row(
                name,
                _cell(his, args.timeout),
                _cell(ours, args.timeout),
                "yes" if row.get("proven_minimal") else "no",
                ratio,
            )
            console.print(f"{name}: his {_cell(his, args.timeout)}, ours {_cell(ours, args.timeout)}")
    console.print(table)


if __name__ == "__main__":
    main()
