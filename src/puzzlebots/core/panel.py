"""One frame for every game's terminal view, so ``watch`` and ``replay`` look the same whatever the game.

The game draws its board and figures; this puts them in a rounded frame as wide as the content (never the whole
terminal), with the game's name and its state in the title (``GAME OVER`` in red) and a dim legend underneath.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
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


class ByColour:
    """A drawing whose colours carry meaning: ``draw(letters)`` gives it with colours on a console that shows
    them, and with a letter per colour on one that does not (a pipe, a log file, ``NO_COLOR``)."""

    def __init__(self, draw: Callable[[bool], RenderableType]) -> None:
        self.draw = draw

    def _drawing(self, console: Console) -> RenderableType:
        return self.draw(console.no_color or console.color_system is None)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[RenderableType]:
        yield self._drawing(console)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._drawing(console))
