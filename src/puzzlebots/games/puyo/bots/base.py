"""What every Puyo bot is, and the one way a view learns what a bot is building.

A bot decides with ``act(state)``, where ``state`` is a solo ``engine.SoloState`` or a versus
``versus.Player``: both offer ``field``, ``current()``, ``next_pairs()``, ``remaining()`` and ``pending``.
"""

from __future__ import annotations

from typing import Any

Cell = tuple[int, int, int]


class PuyoBot:
    """A Puyo bot: ``name``, ``act``, and the overlay a view draws (none unless the bot overrides it)."""

    name = ""

    def act(self, state: Any) -> tuple[int, int]:
        """The placement ``(x, r)`` for the current pair of ``state``."""
        raise NotImplementedError

    def target_cells(self) -> list[Cell]:
        """The cells ``(x, y, colour)`` (0-based) the bot is building towards, for a view to draw dim; [] for none.

        The terminal view and the page read it through :func:`target_overlay`, and only so.
        """
        return []


def target_overlay(bot: Any) -> list[Cell]:
    """The chain a Puyo bot is building (:meth:`PuyoBot.target_cells`); none for no bot or another game's."""
    return bot.target_cells() if isinstance(bot, PuyoBot) else []
