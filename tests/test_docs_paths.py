"""docs/architecture.md names only files and folders that exist: each path it quotes is found in the checkout,
under ``src/puzzlebots``, in a shipped game's folder or its page folder, or in the example game."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "src" / "puzzlebots"
EXAMPLE = ROOT / "examples" / "lightsout"
#: a quoted file or folder: a path with a slash, or a name with a file suffix
PATH = re.compile(r"^[\w.<>-]+(/[\w.<>-]*)+$|^[\w-]+\.(py|md|toml|js|css|svg|json|txt)$")


def quoted_paths() -> list[str]:
    return sorted({q for q in re.findall(r"`([^`\s]+)`", DOC.read_text()) if PATH.match(q)})


def exists(path: str) -> bool:
    games = [p for p in (PACKAGE / "games").iterdir() if (p / "game.py").exists()]
    if path.startswith("games/<game>/"):  # the shape every game has: at least one game has each part
        return any((game / path.removeprefix("games/<game>/")).exists() for game in games)
    if "<" in path or re.search(r"-v\d+$", path):  # a pattern (/games/<name>/) or a Gym id, not a path
        return True
    bases = [ROOT, PACKAGE, PACKAGE / "core", EXAMPLE, *games, *(game / "web" for game in games)]
    return any((base / path.strip("/")).exists() for base in bases)


def test_every_quoted_path_exists() -> None:
    paths = quoted_paths()
    assert "examples/lightsout" in paths and "lightsout/game.py" in paths
    assert [p for p in paths if not exists(p)] == []
