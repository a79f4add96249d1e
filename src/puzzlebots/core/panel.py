"""One frame for every game's terminal view, so ``watch`` and ``replay`` look the same whatever the game.

The game draws its board and figures; this puts them in a rounded frame as wide as the content (never the whole
terminal), with the game's name and its state in the title (``GAME OVER`` in red) and a dim legend underneath.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

#: state words drawn in red in a title: the game ended badly
BAD = ("GAME OVER", "stuck")


def game_panel(body: RenderableType, title: str, status: str = "", legend: str = "") -> Panel:
    """``body`` framed, titled ``title - status``, with ``legend`` (what the symbols mean) under it."""
    head = Text(title, style="bold")
    if status:
        head.append(" - ")
        head.append(status, style="bold red" if any(w in status for w in BAD) else "green")
    parts: list[RenderableType] = [body]
    if legend:
        parts.append(Text(legend, style="dim"))
    return Panel(Group(*parts), title=head, title_align="left", box=box.ROUNDED, expand=False, padding=(0, 1))
