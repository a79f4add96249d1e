"""Helpers the solve tests share: a levels file of a few packaged levels, `cargobot solve` through click, and a
search stopped at a chosen task."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import puzzlebots.games.cargobot.bots.solve as solver
from puzzlebots.cli import cli


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
