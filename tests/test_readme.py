"""The README's bot table stays in step with the installed games: every bot a game registers is named in its row,
in the right column (the article's bots beside ours), so a new bot cannot ship without the README knowing it."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlebots.core.registry import game_names, get_game

README = Path(__file__).resolve().parents[1] / "README.md"


def _row(game: str) -> list[str]:
    """The cells of the README table row whose guide is ``docs/<game>.md``."""
    for line in README.read_text().splitlines():
        if line.startswith("|") and f"(docs/{game}.md)" in line:
            return [cell.strip() for cell in line.strip("|").split("|")]
    raise AssertionError(f"README has no bot table row for {game}")


@pytest.mark.parametrize("game", game_names())
def test_every_bot_is_in_its_readme_row(game: str) -> None:
    _, article, ours, *_ = _row(game)
    for bot in get_game(game).bots():
        assert f"`{bot.name}`" in (article if bot.faithful else ours), f"{game}: {bot.name}"
