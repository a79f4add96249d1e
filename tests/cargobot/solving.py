"""Helpers the solve tests share: a levels file of a few packaged levels, and `cargobot solve` through click."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

from click.testing import CliRunner

from puzzlebots.cli import cli


def levels_file(tmp_path: Path, names: list[str]) -> Path:
    """A levels JSON file holding only the named packaged levels."""
    rows = json.loads(files("puzzlebots.games.cargobot").joinpath("data/levels.json").read_text())
    path = tmp_path / "levels.json"
    path.write_text(json.dumps([r for r in rows if r["name"] in names]))
    return path


def solve_cmd(*args: object) -> tuple[int, str, str]:
    """`puzzlebots cargobot solve ARGS`: (exit code, stdout, stderr)."""
    result = CliRunner().invoke(cli, ["cargobot", "solve", *map(str, args)])
    return result.exit_code, result.stdout, result.stderr
