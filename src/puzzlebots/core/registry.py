"""Finds games through the ``puzzlebots.games`` entry point group, so that core never imports a game."""

from __future__ import annotations

import importlib
import os
from functools import cache
from importlib.metadata import entry_points

from .config import require_dataclass
from .errors import ConfigError
from .jsonio import show
from .protocols import Game

GROUP = "puzzlebots.games"
#: extra games to load in every process, as "module:attribute" separated by commas (for games of your own)
ENV_VAR = "PUZZLEBOTS_GAMES"

#: games registered in this process (your own game, or a test's), besides the installed entry points
_extra: dict[str, Game] = {}


def register(game: Game) -> None:
    """Make ``game`` available by its name in this process (and in worker processes forked from it)."""
    _extra[game.name] = game
    get_game.cache_clear()


def _load_env_games() -> None:
    for spec in filter(None, os.environ.get(ENV_VAR, "").split(",")):
        module, _, attr = spec.strip().partition(":")
        try:
            game = getattr(importlib.import_module(module), attr or "GAME")
        except (ImportError, AttributeError, TypeError) as exc:
            raise ConfigError(f"{ENV_VAR}: cannot load {show(spec)} ({exc})") from exc
        _extra.setdefault(game.name, _checked(game, f"{ENV_VAR} {spec}"))


def game_names() -> list[str]:
    """Names of the installed and registered games, sorted."""
    _load_env_games()
    return sorted({ep.name for ep in entry_points(group=GROUP)} | set(_extra))


@cache
def get_game(name: str) -> Game:
    """The game adapter registered under ``name``; ``ConfigError`` if there is none or it breaks the contract."""
    _load_env_games()
    if name in _extra:
        return _extra[name]
    for ep in entry_points(group=GROUP):
        if ep.name == name:
            try:
                game = ep.load()
            except (ImportError, TypeError) as exc:  # TypeError: e.g. a schema without its decorator
                raise ConfigError(f"game {show(name)} is installed but cannot be loaded ({exc})") from exc
            game = _checked(game, f"entry point {ep.value}")
            if game.name != name:
                raise ConfigError(f"entry point {show(name)} loads game {show(game.name)}: the names must be the same")
            return game
    known = ", ".join(game_names()) or "none installed"
    raise ConfigError(f"unknown game {show(name)} (games: {known})")


def _checked(game: object, source: str) -> Game:
    """``game`` if it meets the :class:`Game` contract, else a one-line ``ConfigError`` naming where it came from."""
    if not isinstance(game, Game):
        raise ConfigError(f"{source} is not a puzzlebots game (see docs/architecture.md, 'Add a game')")
    try:
        require_dataclass(game.config_schema)
    except TypeError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    return game


def loadable_games() -> list[Game]:
    """The games that load, skipping broken installs (so that help and listings still work)."""
    out = []
    for name in game_names():
        try:
            out.append(get_game(name))
        except ConfigError:
            continue
    return out
