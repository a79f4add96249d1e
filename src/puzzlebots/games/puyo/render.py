"""Rich drawings of a field, with the next pairs and an optional target-chain overlay (KRIEG3's view)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from puzzlebots.core.panel import ByColour, game_panel
from puzzlebots.core.protocols import Bot

from .bots.base import target_overlay
from .engine import Field, Pair, SoloState
from .rules import COLOUR_LETTERS, DEATH_X, DEATH_Y, GARBAGE, ROWS, WIDTH

STYLES = {1: "bold red", 2: "bold green", 3: "bold blue", 4: "bold yellow", 5: "bold magenta", GARBAGE: "white"}
OVERLAY_STYLES = {1: "dim red", 2: "dim green", 3: "dim blue", 4: "dim yellow", 5: "dim magenta"}


def field_text(
    field: Field,
    overlay: Sequence[tuple[int, int, int]] = (),
    falling: Mapping[tuple[int, int], int] | None = None,
    letters: bool = False,
) -> Text:
    """The field as text, row 13 on top: ``●`` puyos, ``○`` garbage, ``·`` overlay cells still to fill,
    ``x`` the empty death cell, ``X`` the filled one (the game is lost); ``falling`` maps (x, y) -> colour for
    a pair hovering above the field (the rows above the field are drawn only for it, both of its puyos).
    With ``letters`` (no colours to show) a puyo is its colour's letter, a falling or overlay one in lower case."""
    want = {(x, y): c for x, y, c in overlay}
    text = Text()
    top = max([y for _, y in falling or ()] + [ROWS - 1])
    for y in range(top, -1, -1):
        label = f"{y + 1:>2} " if y < ROWS else "   "
        text.append(label, style="dim")
        for x in range(WIDTH):
            if falling and (x, y) in falling:
                c = falling[(x, y)]
                text.append(f"{COLOUR_LETTERS[c].lower() if letters else '◉'} ", style=STYLES[c])
                continue
            if y >= ROWS:
                text.append("  ")
                continue
            c = int(field.cells[x, y])
            if c and (x, y) == (DEATH_X, DEATH_Y):
                text.append("X ", style="bold red reverse")
            elif c == GARBAGE:
                text.append("○ ", style=STYLES[GARBAGE])
            elif c:
                text.append(f"{COLOUR_LETTERS[c] if letters else '●'} ", style=STYLES[c])
            elif (x, y) in want:
                text.append(
                    f"{COLOUR_LETTERS[want[(x, y)]].lower() if letters else '·'} ", style=OVERLAY_STYLES[want[(x, y)]]
                )
            elif (x, y) == (DEATH_X, DEATH_Y):
                text.append("x ", style="dim red")
            else:
                text.append(". " if y < ROWS - 1 else "- ", style="dim")
        text.append("\n")
    text.append("   " + " ".join(str(x + 1) for x in range(WIDTH)), style="dim")
    return text


def pairs_text(pairs: Sequence[Pair]) -> Text:
    """The current pair and the visible next pairs (child on top)."""
    text = Text()
    for i, (a, c) in enumerate(pairs):
        text.append("now " if i == 0 else "next", style="dim")
        text.append(" ")
        text.append("●", style=STYLES[c])
        text.append(COLOUR_LETTERS[c], style=STYLES[c])
        text.append(" ")
        text.append("●", style=STYLES[a])
        text.append(COLOUR_LETTERS[a], style=STYLES[a])
        text.append("\n")
    return text


def render_field(
    field: Field,
    pairs: Sequence[Pair],
    overlay: Sequence[tuple[int, int, int]] = (),
    info: Mapping[str, Any] | None = None,
    title: str = "puyo",
    falling: Mapping[tuple[int, int], int] | None = None,
    status: str = "",
) -> RenderableType:
    """The field beside the pairs and figures, in the shared game frame; ``status`` ends the title."""
    side: list[RenderableType] = [pairs_text(pairs)]
    if info:
        side.append(Text("\n".join(f"{k}: {v}" for k, v in info.items()), style="cyan"))
    layout = Table.grid(padding=(0, 2))
    layout.add_row(ByColour(lambda letters: field_text(field, overlay, falling, letters)), Group(*side))
    legend = "● puyo (R G B Y P)  ○ garbage  x death cell\nX death cell filled: game over"
    if overlay:
        legend += "\n· the chain the AI is building (r g b y p)"
    return game_panel(layout, title, status, legend)


def render_solo(state: SoloState, bot: Bot | None = None) -> RenderableType:
    """A solo game: the field with the bot's target chain, the current and next pairs, and the figures."""
    result = state.result()
    if result["dead"]:
        status = f"GAME OVER after {result['pairs_played']} pairs"
    else:
        status = "done" if state.is_terminal() else "playing"
    info = {k.replace("_", " "): v for k, v in result.items() if k != "dead"}
    pairs = [] if state.is_terminal() else state.next_pairs()
    return render_field(state.field, pairs, target_overlay(bot), info, "Puyo Puyo Tsu", status=status)
