"""Helpers the solve tests share: the best known programs of the Tutorial-Hard levels, `_needed_ops` of a plain level, a
levels file of a few packaged levels (and of a level with no sweep), `cargobot solve` through click, clocks for the
solve campaign (one that never moves, one that moves as it is read), a search stopped at a chosen task, and the check
that a sketch search on workers finds what one process finds."""

from __future__ import annotations

import json
from functools import partial
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

import puzzlebots.games.cargobot.bots.solve as solver
import puzzlebots.games.cargobot.campaign as campaign
from puzzlebots.cli import cli
from puzzlebots.games.cargobot.bots.sketch import SketchResult, sketch
from puzzlebots.games.cargobot.engine import run_level
from puzzlebots.games.cargobot.language import parse_registers
from puzzlebots.games.cargobot.levels import Level, find_level, load_levels

#: ``tests/data/cargobot/solutions.jsonl``: a row (level, size, ticks, program) per Tutorial-Hard level
SOLUTIONS = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data/cargobot/solutions.jsonl").read_text().splitlines()
    if line
]

#: (level, seed, the program a sketch search of that seed finds, its size when first found)
SKETCH_CASES = [("Re-Curses", 1, "claw R claw L call1", 7), ("Transporter", 2, "claw R claw call1", 5)]


def needed_ops(level: Level) -> np.ndarray:
    """``bots.solve._needed_ops`` of a plain level's one board."""
    return solver._needed_ops(level.stacks, level.goal, level.claw - 1)


#: Vertical Sort with its claw on pile 4, right of piles that must change: an 18-register level with no sweep
#: sub-problem (``bots.sweep``) and no board rules, so the sketch search takes over from the exhaustive one
UNSWEPT = {"Vertical Sort": {"claw": 4}}


def unswept(tmp_path: Path) -> tuple[Path, Level]:
    """A levels file of ``UNSWEPT``'s Vertical Sort, and that level."""
    path = levels_file(tmp_path, ["Vertical Sort"], UNSWEPT)
    return path, load_levels(path)[0]


def levels_file(tmp_path: Path, names: list[str], changes: dict[str, dict[str, Any]] | None = None) -> Path:
    """A levels JSON file holding only the named packaged levels, with ``changes[name]``'s fields set."""
    rows = json.loads(files("puzzlebots.games.cargobot").joinpath("data/levels.json").read_text())
    path = tmp_path / "levels.json"
    path.write_text(json.dumps([r | (changes or {}).get(r["name"], {}) for r in rows if r["name"] in names]))
    return path


def solve_cmd(*args: object) -> tuple[int, str, str]:
    """`puzzlebots cargobot solve ARGS`: (exit code, stdout, stderr)."""
    result = CliRunner().invoke(cli, ["cargobot", "solve", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr


class Ticks:
    """A clock for the solve campaign that moves ``step`` seconds each time it is read (0: never moves). With one
    job the searches read it a fixed number of times per task, so time runs out after the same tasks on any
    machine."""

    def __init__(self, step: float = 0.0) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def campaign_clock(monkeypatch: pytest.MonkeyPatch, clock: Ticks | None = None) -> Ticks:
    """Every solve campaign of the test (the CLI's too) on ``clock`` (default one that never moves: no time limit
    runs out, so a search ends only where the test stops it, ``stop_task``, or where it is done)."""
    clock = clock or Ticks()
    monkeypatch.setattr(campaign, "Plan", partial(campaign.Plan, clock=clock))
    return clock


def stop_task(monkeypatch: pytest.MonkeyPatch, level: str, *stops: tuple[int, type[BaseException]]) -> list[int]:
    """``level``'s search raises each (n, exception) as its n-th task starts: ``TimeoutError`` is its time limit
    running out there (the task stays in the frontier, as a task cut off by the deadline), ``KeyboardInterrupt``
    is Ctrl-C. Returns the budgets of the tasks that ran."""
    real, budgets, at = solver.run_task, [], dict(stops)

    def stopping(setup: solver.Setup, budget: int, *args: Any, **kwargs: Any) -> tuple:
        if setup.name != level:
            return real(setup, budget, *args, **kwargs)
        if len(budgets) + 1 in at:
            raise at.pop(len(budgets) + 1)
        budgets.append(budget)
        return real(setup, budget, *args, **kwargs)

    monkeypatch.setattr(solver, "run_task", stopping)
    return budgets


def sketch_as_one_process(
    name: str, seed: int, program: str, found_size: int, **workers: Any
) -> tuple[SketchResult, SketchResult]:
    """A sketch search of ``seed`` on ``workers`` (``jobs``, ``executor``) checked against one process's: the
    expected program, verified in game semantics, found at the same size, shape and restart. Both results. The
    searches' clock never moves: they end at the best known size, never at a time limit (a worker's restart keeps
    the seconds of its own clock, 300, a guard against a hang only)."""
    level = find_level(name)
    one = sketch(level, seed=seed, iterations=20_000, jobs=1, clock=Ticks())
    many = sketch(level, seed=seed, iterations=20_000, clock=Ticks(), **workers)
    assert many.program is not None and run_level(level, many.program).solved
    assert (many.program, many.found_size, many.interrupted) == (parse_registers(program), found_size, False)
    found = [(r.solved, r.program, r.size, r.found_size, r.shape, r.restarts) for r in (one, many)]
    assert found[0] == found[1]
    return one, many
