"""``puzzlebots puyo play`` on the frame clock: the person against an AI in the terminal, both on
``frame_page.FramePage`` (the same game as the page's frame-clock mode).

The person's pair hovers until dropped (KRIEG3's keys, as in ``human``); it comes in at its frame, so while the
person's chain runs or garbage falls a drop waits. The AI places at its frames whether or not a key is pressed:
the loop reads a key with a timeout and redraws every ``TICK`` seconds. ``run_frame_match`` takes a key reader
(``read(timeout) -> key or None``) and a clock, so tests feed keys and frames directly.
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.live import Live
from rich.text import Text

from .bots.base import target_overlay
from .frame_page import FramePage
from .frame_versus import FramePlayer
from .frames import target_points
from .human import KEYS
from .render import render_field
from .rules import CHILD_DX, ROWS

#: seconds between redraws while no key comes
TICK = 0.05
OUTCOMES = {0: "You won", 1: "The AI won", None: "A draw"}


def side_panel(page: FramePage, side: int, title: str) -> RenderableType:
    p: FramePlayer = page.game.players[side]
    field = p.shown if p.shown is not None else p.field
    falling = None
    ready = page.game.waiting(0)
    if side == 0 and p.shown is None and ready is not None and ready <= page.now() and not page.game.over():
        axis, child = p.current()
        x, r = page.cursor.x, page.cursor.r
        dy = {0: 1, 1: 0, 2: -1, 3: 0}[r]
        falling = {(x, ROWS): axis, (x + CHILD_DX[r], ROWS + dy): child}
    info = {
        "score": p.score,
        "chain": p.chain,
        "longest chain": p.max_chain,
        "garbage": f"{p.fixed} fixed, {p.incoming} incoming",
    }
    overlay = target_overlay(page.ai) if side == 1 else ()
    return render_field(field, p.next_pairs(), overlay, info, title, falling, "GAME OVER" if p.dead else "")


def frame_view(page: FramePage) -> RenderableType:
    now = page.now()
    you = side_panel(page, 0, "you")
    them = side_panel(page, 1, f"AI: {page.name}")
    clock = Text(f"frame {now}   target points {target_points(now, page.game.margin)}", style="cyan")
    help_line = Text("←/→ move  ↓ drop  Z/X/↑ rotate  Q quit", style="dim")
    status = OUTCOMES[page.game.result()["winner"]] + ".  (Q: quit)" if page.game.over() else ""
    return Group(Columns([you, them]), clock, help_line, Text(status, style="bold"))


def final_line(page: FramePage) -> str:
    person, ai = page.game.players
    head = OUTCOMES[page.game.result()["winner"]] if page.game.over() else "You quit"
    return (
        f"{head} at frame {page.game.now}: you {person.score:,} points (longest chain {person.max_chain}), "
        f"AI {page.name} {ai.score:,} points (longest chain {ai.max_chain})."
    )


def run_frame_match(
    page: FramePage, read: Callable[[float], str | None], console: Console, stop: Callable[[], bool] = lambda: False
) -> FramePage:
    """Read keys (``read`` waits at most its timeout), run the clock, redraw, until Q, or ``stop()``."""
    with Live(frame_view(page), console=console, auto_refresh=False) as live:
        while not stop():
            command = KEYS.get(read(TICK) or "")
            if command == "quit":
                break
            if command in ("left", "right", "cw", "ccw", "drop") and not page.game.over():
                page.key(command)
            page.catch_up()
            live.update(frame_view(page), refresh=True)
    console.print(final_line(page))
    return page


@contextmanager
def terminal_reader() -> Iterator[Callable[[float], str | None]]:
    """Key presses from the terminal in cbreak mode, each waited for at most a timeout."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)

    def read(timeout: float) -> str | None:
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return None
        ch = os.read(fd, 1).decode(errors="replace")
        if ch == "\x1b":
            ch += os.read(fd, 2).decode(errors="replace")
        return ch

    try:
        tty.setcbreak(fd)
        yield read
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
