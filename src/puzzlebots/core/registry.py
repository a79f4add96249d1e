"""Finds games through the ``puzzlebots.games`` entry point group, so that core never imports a game."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Any

from .errors import ConfigError

GROUP = "puzzlebots.games"


def game_names() -> list[str]:
    """Names of the installed games, sorted."""
    return sorted(ep.name for ep in entry_points(group=GROUP))


@cache
def get_game(name: str) -> Any:
    """The game adapter registered under ``name``; ``ConfigError`` if there is none."""
    for ep in entry_points(group=GROUP):
        if ep.name == name:
            return ep.load()
    known = ", ".join(game_names()) or "none installed"
    raise ConfigError(f"unknown game {name!r} (games: {known})")
