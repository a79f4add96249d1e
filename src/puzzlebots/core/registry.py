"""Finds games through the ``puzzlebots.games`` entry point group, so that core never imports a game.

The group is read from the installed distributions' ``entry_points.txt`` files (the packaging spec's format) by
``_entry_points``, not through ``importlib.metadata``: importing that module (email, csv, zipfile, ...) is a tenth
of ``puzzlebots --help``'s time, and the help only needs the group's names.
"""

from __future__ import annotations

import configparser
import importlib
import os
import re
import sys
from functools import cache
from typing import Any

from .config import require_dataclass
from .errors import ConfigError
from .jsonio import show
from .protocols import Game

GROUP = "puzzlebots.games"
#: extra games to load in every process, as "module:attribute" separated by commas (for games of your own)
ENV_VAR = "PUZZLEBOTS_GAMES"

#: games registered in this process (your own game, or a test's), besides the installed entry points
_extra: dict[str, Game] = {}


@cache
def _entry_points(group: str) -> dict[str, str]:
    """The group's entries, name -> "module:attribute", from each distribution's ``entry_points.txt`` on
    ``sys.path``; a distribution found again further along the path is skipped, as ``importlib.metadata`` does."""
    seen: set[str] = set()
    found: dict[str, str] = {}
    for folder in sys.path:
        try:
            names = sorted(os.listdir(folder or "."))
        except OSError:
            continue
        for name in names:
            stem, dot, kind = name.rpartition(".")
            if kind not in ("dist-info", "egg-info") or not dot:
                continue
            distribution = re.sub(r"[-_.]+", "_", stem.partition("-")[0]).lower()
            if distribution in seen:
                continue
            seen.add(distribution)
            try:
                with open(os.path.join(folder or ".", name, "entry_points.txt"), encoding="utf-8") as file:
                    text = file.read()
            except (OSError, UnicodeDecodeError):
                continue
            if f"[{group}]" not in text:  # most distributions: no need to parse
                continue
            parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
            parser.optionxform = str  # type: ignore[assignment,method-assign]
            try:
                parser.read_string(text)
            except configparser.Error:
                continue
            for key, value in parser.items(group):
                found.setdefault(key, value)
    return found


def _load(value: str) -> Any:
    """The object an entry point's "module:attribute.path [extras]" names."""
    module, _, attribute = value.split("[")[0].strip().partition(":")
    target: Any = importlib.import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        target = getattr(target, part)
    return target


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
    return sorted(set(_entry_points(GROUP)) | set(_extra))


@cache
def get_game(name: str) -> Game:
    """The game adapter registered under ``name``; ``ConfigError`` if there is none or it breaks the contract."""
    _load_env_games()
    if name in _extra:
        return _extra[name]
    value = _entry_points(GROUP).get(name)
    if value is not None:
        try:
            game = _load(value)
        except (ImportError, AttributeError, TypeError) as exc:  # TypeError: e.g. a schema without its decorator
            raise ConfigError(f"game {show(name)} is installed but cannot be loaded ({exc})") from exc
        game = _checked(game, f"entry point {value}")
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
