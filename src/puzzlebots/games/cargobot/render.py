"""Terminal pictures of a board, and the frames of a run for ``run --watch``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rich.panel import Panel
from rich.text import Text

from puzzlebots.core.panel import game_panel

from .engine import Rules, Start

MAX_FRAMES = 5_000
_STYLE = {"red": "bold red", "green": "bold green", "blue": "bold blue", "yellow": "bold yellow"}


@dataclass(frozen=True)
class Frame:
    piles: list[list[str]]
    claw: int
    holding: str | None
    step: int


def trace_run(program: str, rules: Rules, start: Start) -> Iterator[Frame]:
    """The board before every step from ``start`` under ``rules`` (at most ``MAX_FRAMES``), from the oracle
    interpreter."""
    frames: list[Frame] = []

    def record(piles: list[list[str]], pos: int, holding: str | None) -> None:
        if len(frames) < MAX_FRAMES:
            frames.append(Frame([list(p) for p in piles], pos, holding, len(frames)))

    rules.model.trace(rules, program, start, MAX_FRAMES, record)
    yield from frames


def _crate(name: str) -> Text:
    return Text(f"[{name[0].upper()}]", style=_STYLE.get(name, "bold"))


def board_text(piles: list[list[str]], claw: int, holding: str | None) -> Text:
    """Piles as columns of ``[R]`` crates under a claw row ``\\_/`` (holding a crate if any)."""
    height = max([len(p) for p in piles] + [1])
    out = Text()
    for p in range(len(piles)):
        out.append(" \\_/ " if p + 1 == claw else "     ")
    out.append("\n")
    for p in range(len(piles)):
        out.append(" ")
        out.append(_crate(holding) if p + 1 == claw and holding else Text("   "))
        out.append(" ")
    out.append("\n")
    for row in range(height - 1, -1, -1):
        for pile in piles:
            out.append(" ")
            out.append(_crate(pile[row]) if row < len(pile) else Text("   "))
            out.append(" ")
        out.append("\n")
    out.append("=" * (5 * len(piles)))
    return out


def board_panel(frame: Frame, goal: list[list[str]] | None) -> Panel:
    """A frame of ``run --watch`` in the frame every game's terminal view uses (core.panel)."""
    body = board_text(frame.piles, frame.claw, frame.holding)
    if goal is not None:
        body.append("\ngoal:\n")
        body.append(board_text(goal, 0, None))
    legend = "\\_/ the claw; [R] red, [G] green, [B] blue, [Y] yellow crate"
    return game_panel(body, "Cargo-Bot", f"step {frame.step}", legend)
