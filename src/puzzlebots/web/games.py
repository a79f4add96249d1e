"""What the page learns of each installed game, read from its capabilities and its config schema only.

The shell knows no game by name: a game is watched if it is ``Episodic``, drawn by its ``WebView`` (or as the
text of its ``TerminalView``), gets a tab of its own if it has ``WebControls``, and its page script and files are
served from the folder its ``web_folder()`` returns. The watch form's config fields come from the schema's
web-settable keys, each with its domain (``core.config``).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from ..core import config as config_mod
from ..core.protocols import EngineTable, Episodic, Game, WebControls, WebEngines, WebView
from ..core.registry import game_names, get_game

log = logging.getLogger(__name__)

#: the one script a game's page folder may hold for the shell to load (an ES module exporting ``setup``)
SCRIPT = "view.js"
#: the address under which a game's page files are served
FILES_URL = "/games/{name}/"


def page_folder(game: Game) -> Path | None:
    """The folder of the game's own page files, or None (no web view, or a view without files)."""
    return game.web_folder() if isinstance(game, WebView) else None


def web_settings(game: Game) -> list[dict[str, Any]]:
    """The config keys a page may set, in the schema's order, each with its default and its web domain."""
    defaults = game.default_config()
    allowed = game.web_config_keys()
    fields = []
    for key, spec in config_mod.settings(game.config_schema).items():
        if key not in allowed:
            continue
        item: dict[str, Any] = {"key": key, "help": spec.help, "type": spec.type.__name__, "default": defaults[key]}
        if spec.choices:
            item["choices"] = list(spec.choices)
        if spec.range is not None:
            high = spec.range[1] if spec.web_max is None else min(spec.range[1], spec.web_max)
            item["min"], item["max"] = spec.range[0], high
        elif spec.what:
            item["what"] = spec.what
        fields.append(item)
    return fields


def describe(game: Game, engines: EngineTable | None = None) -> dict[str, Any]:
    """One game as the page sees it: its bots, capabilities, page script and web-settable config, and the bot
    names of the operator's external engines its page controls can play (``WebEngines``)."""
    folder = page_folder(game)
    script = folder is not None and (folder / SCRIPT).is_file()
    return {
        "name": game.name,
        "title": game.title,
        "bots": [
            {"name": b.name, "description": b.description, "faithful": b.faithful, "config_keys": list(b.config_keys)}
            for b in game.bots()
        ],
        "episodic": isinstance(game, Episodic),
        "view": isinstance(game, WebView),
        "controls": list(game.web_ops()) if isinstance(game, WebControls) else [],
        "script": FILES_URL.format(name=game.name) + SCRIPT if script else None,
        "config": web_settings(game),
        "engines": game.web_engine_bots(sorted(engines)) if engines and isinstance(game, WebEngines) else [],
    }


def list_games(engines: EngineTable | None = None) -> list[dict[str, Any]]:
    """Every installed game (a game that fails to load is listed with its error, and offers nothing)."""
    games = []
    for name in game_names():
        try:
            games.append(describe(get_game(name), engines))
        except Exception as exc:  # a broken game must not hide the others
            log.warning("game %s failed to load: %s", name, exc)
            games.append(
                {
                    "name": name,
                    "title": name,
                    "bots": [],
                    "episodic": False,
                    "view": False,
                    "controls": [],
                    "script": None,
                    "config": [],
                    "engines": [],
                    "error": str(exc),
                }
            )
    return games


def page_folders() -> dict[str, Path]:
    """Each game's page folder by game name, for the server's ``/games/<name>/<file>`` route."""
    folders = {}
    for name in game_names():
        try:
            folder = page_folder(get_game(name))
        except Exception as exc:  # listed with its error by ``list_games``
            log.warning("game %s failed to load: %s", name, exc)
            continue
        if folder is not None:
            folders[name] = folder
    return folders
