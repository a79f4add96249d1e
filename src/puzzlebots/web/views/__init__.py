"""Board JSON for the page: one small ``to_view(state) -> dict`` per game, read from the game's public state.

Every view has a ``kind`` that the page knows how to draw (``grid``, ``piles``, ``cargo``, ``text``).
A game without a view of its own is shown as the text of its rich rendering, so the page works for any
installed game.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from typing import Any

from rich.console import Console

from ...core.protocols import Game, State, TerminalView, capability

#: games with a drawn view: name -> module under puzzlebots.web.views defining ``to_view(state)``
VIEW_MODULES: dict[str, str] = {"hatris": "hatris", "puyo": "puyo", "yoshis_cookie": "yoshis_cookie"}


def text_view(game: Game, state: State) -> dict[str, Any]:
    """The game's own rich rendering as plain text."""
    buffer = io.StringIO()
    Console(file=buffer, width=100, color_system=None).print(capability(game, TerminalView).render(state))
    return {"kind": "text", "text": buffer.getvalue()}


def to_view(game: Game, state: State) -> dict[str, Any]:
    """The board JSON for ``state`` of ``game``."""
    module = VIEW_MODULES.get(game.name)
    if module is None:
        return text_view(game, state)
    viewer: Callable[[State], dict[str, Any]] = importlib.import_module(f"{__name__}.{module}").to_view
    return viewer(state)

