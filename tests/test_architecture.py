"""The layering the design promises, checked on the source: edges and core know no game, games know no other game,
and no package reaches into another package's private module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "puzzlebots"
GAMES = sorted(p.name for p in (SRC / "games").iterdir() if (p / "__init__.py").exists())
MODULES = sorted(SRC.rglob("*.py"))


def package_of(path: Path) -> tuple[str, ...]:
    """('games', 'puyo') for a file in a game, ('web',) for the web layer, () for top-level modules."""
    parts = path.relative_to(SRC).parts[:-1]
    return parts[:2] if parts[:1] == ("games",) else parts[:1]


def imported(path: Path) -> list[str]:
    """Absolute dotted names of everything ``path`` imports (relative imports resolved)."""
    here = ("puzzlebots", *path.relative_to(SRC).with_suffix("").parts)
    if path.name == "__init__.py":
        here = here[:-1] + ("__init__",)
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[: len(here) - node.level]) if node.level else ""
            module = ".".join(filter(None, [base, node.module or ""]))
            names += [module] + [f"{module}.{a.name}" for a in node.names]
    return [n for n in names if n.startswith("puzzlebots")]


def owner(name: str) -> tuple[str, ...]:
    parts = name.split(".")[1:]
    return tuple(parts[:2]) if parts[:1] == ["games"] else tuple(parts[:1])


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_layers(path: Path) -> None:
    mine = package_of(path)
    for name in imported(path):
        theirs = owner(name)
        if theirs[:1] == ("games",) and len(theirs) == 2 and theirs[1] in GAMES:
            assert mine[:1] == ("games",), f"{mine or 'puzzlebots'} imports the game module {name}"
            assert mine == theirs, f"game {mine[1]} imports another game: {name}"
        private = [p for p in name.split(".")[1:] if p.startswith("_") and not p.startswith("__")]
        where = path.relative_to(SRC)
        assert not private or theirs == mine, f"{where} imports another package's private module: {name}"


def test_every_game_has_the_same_shape() -> None:
    required = {"game.py", "config.py", "rules.py", "engine.py", "bots", "kernels", "oracle.py"}
    for game in GAMES:
        have = {p.name for p in (SRC / "games" / game).iterdir()}
        assert required <= have, f"games/{game} lacks {sorted(required - have)}"


def test_no_function_over_150_lines() -> None:
    long = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > 150:
                    long.append(f"{path.relative_to(SRC)}:{node.name} ({size} lines)")
    assert not long, long
