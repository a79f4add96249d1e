"""Output that reads the same in a terminal, a pipe and a log file.

On a terminal a run redraws its board in place; anywhere else (stdout piped or redirected) nothing is redrawn:
the last board is printed once, as whole lines, when the run ends, so a caption never runs into the JSON that
follows it. Tables are printed wide enough to keep every word whole: rich would cut a word it cannot fit at 80
columns (``Tutor…``), so a table that cannot fit is widened instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console, RenderableType
from rich.live import Live
from rich.measure import Measurement

#: a width no table reaches, to measure one unconstrained
UNBOUNDED = 100_000


@contextmanager
def live_view(console: Console) -> Iterator[Callable[[RenderableType], None]]:
    """A function that shows each frame: drawn in place on a terminal; elsewhere kept, and the last frame
    printed once on leaving the block."""
    if console.is_terminal:
        with Live(console=console, auto_refresh=False) as live:
            yield lambda frame: live.update(frame, refresh=True)
        return
    last: list[RenderableType] = []

    def keep(frame: RenderableType) -> None:
        last[:] = [frame]

    yield keep
    if last:
        console.print(last[0])


def print_fitted(console: Console, renderable: RenderableType) -> None:
    """``renderable`` (a table) printed whole: on a terminal at its width; elsewhere, where a word would not fit,
    at the table's natural width."""
    if console.is_terminal:
        console.print(renderable)
        return
    need = Measurement.get(console, console.options.update_width(UNBOUNDED), renderable)
    width = console.width
    if need.minimum > width:  # some word cannot fit: the table's natural width, every cell on one line
        console.width = need.maximum  # ``print(width=...)`` cannot go past the console's own width
    try:
        console.print(renderable)
    finally:
        console.width = width
