"""The terminal view (``watch``, ``replay``, playthroughs): the board in the frame every game shares."""

from __future__ import annotations

from rich.panel import Panel
from rich.text import Text

from puzzlebots.core.panel import game_panel

from .engine import LightsOutState


def render(state: LightsOutState) -> Panel:
    """The lights as ``#`` (on) and ``.`` (off), the last press in brackets, and the figures under them."""
    board = Text()
    for row in range(state.size):
        for col in range(state.size):
            light = row * state.size + col
            mark = "#" if state.lights[light] else "."
            board.append(f"[{mark}]" if light == state.last else f" {mark} ", style="bold yellow" * state.lights[light])
        board.append("\n")
    board.append(f"presses {state.presses}, lights on {sum(state.lights)}")
    status = "solved" if not any(state.lights) else "GAME OVER" if state.is_terminal() else "playing"
    return game_panel(board, "Lights Out", status, legend="# on  . off  [ ] last press")
