"""Human play in the terminal against an AI, with KRIEG3's keys.

Keys: left/right move, down drops, Z rotates counter-clockwise, X or up rotates clockwise, R resets, Q quits.
The pair hovers at the top until dropped (turn-based, reference Q9); moves and rotations follow the strict
reach rule, with the wall kick and (one press) quick turn of reference section 2.3. The AI's field shows
its target chain as a dim overlay. ``run_match`` takes any iterable of keys, so tests feed keys directly.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.text import Text

from .bots.base import target_overlay
from .engine import Field
from .render import render_field
from .rules import CHILD_DX, PLACEMENT_INDEX, ROWS, SPAWN_X, VISIBLE_ROWS, WIDTH
from .versus import VersusGame

KEYS = {
    "\x1b[D": "left",
    "\x1b[C": "right",
    "\x1b[B": "drop",
    "\x1b[A": "cw",
    "x": "cw",
    "X": "cw",
    "z": "ccw",
    "Z": "ccw",
    "r": "reset",
    "R": "reset",
    "q": "quit",
    "Q": "quit",
}


class PairCursor:
    """The pair under the player's control: axis column ``x`` (0-based) and rotation ``r``."""

    def __init__(self, field: Field) -> None:
        self.field = field
        self.x = SPAWN_X
        self.r = 0

    def _ok(self, x: int, r: int) -> bool:
        cx = x + CHILD_DX[r]
        if not (0 <= x < WIDTH and 0 <= cx < WIDTH):
            return False
        return all(int(self.field.heights[c]) <= self.field.crossable for c in (x, cx))

    def move(self, dx: int) -> None:
        if self._ok(self.x + dx, self.r):
            self.x += dx

    def rotate(self, turn: int) -> None:
        """Rotate by +1 (clockwise) or -1; kick away from a wall or tall column; quick turn if both blocked."""
        r = (self.r + turn) % 4
        if self._ok(self.x, r):
            self.r = r
        elif self._ok(self.x - CHILD_DX[r], r):
            self.x -= CHILD_DX[r]
            self.r = r
        elif self._ok(self.x, (self.r + 2) % 4):
            self.r = (self.r + 2) % 4

    def placement(self) -> int:
        return PLACEMENT_INDEX[(self.x, self.r)]

    def cells(self) -> dict[tuple[int, int], int]:
        """Where the hovering pair is drawn: above the field, axis in row 14, child beside/above/below."""
        y = ROWS
        dy = {0: 1, 1: 0, 2: -1, 3: 0}[self.r]
        return {(self.x, y): 0, (self.x + CHILD_DX[self.r], y + dy): 1}


def reachable_by_keys(field: Field) -> set[tuple[int, int]]:
    """Every (x, r) the cursor can reach from the spawn with moves and rotations (breadth-first)."""
    start = PairCursor(field)
    seen = {(start.x, start.r)}
    todo = [(start.x, start.r)]
    while todo:
        x, r = todo.pop()
        for op in ("l", "r", "cw", "ccw"):
            c = PairCursor(field)
            c.x, c.r = x, r
            if op == "l":
                c.move(-1)
            elif op == "r":
                c.move(1)
            else:
                c.rotate(1 if op == "cw" else -1)
            if (c.x, c.r) not in seen:
                seen.add((c.x, c.r))
                todo.append((c.x, c.r))
    return seen if int(field.heights[SPAWN_X]) <= min(field.crossable, VISIBLE_ROWS - 1) else set()


class HumanMatch:
    """A versus game: the human is player 0, ``ai`` is player 1."""

    def __init__(self, seed: int, config: Mapping[str, Any], ai: Any, max_turns: int = 500) -> None:
        self.seed = seed
        self.config = config
        self.ai = ai
        self.max_turns = max_turns
        self.reset()

    def reset(self) -> None:
        self.game = VersusGame(self.seed, self.config, self.max_turns)
        self.cursor = PairCursor(self.game.players[0].field)

    def press(self, command: str) -> None:
        if command == "left":
            self.cursor.move(-1)
        elif command == "right":
            self.cursor.move(1)
        elif command == "cw":
            self.cursor.rotate(1)
        elif command == "ccw":
            self.cursor.rotate(-1)
        elif command == "reset":
            self.reset()
        elif command == "drop":
            human, bot = self.game.players
            action = (self.cursor.x + 1, self.cursor.r)
            self.game.step([action, self.ai.act(bot)])
            self.cursor = PairCursor(human.field)

    def view(self) -> RenderableType:
        human, bot = self.game.players
        a, c = human.current()
        falling = {cell: (a if which == 0 else c) for cell, which in self.cursor.cells().items()}
        # "now" is the pair hovering over the field (both puyos drawn there), then the next ones
        you = render_field(human.field, human.next_pairs(), (), _info(human), "you", falling, _status(human))
        them = render_field(
            bot.field, bot.next_pairs(), target_overlay(self.ai), _info(bot), f"AI: {self.ai.name}", status=_status(bot)
        )
        help_line = Text("←/→ move  ↓ drop  Z/X/↑ rotate  R reset  Q quit", style="dim")
        status = self.status()
        return Group(Columns([you, them]), help_line, Text(status, style="bold") if status else Text(""))

    def status(self) -> str:
        if not self.game.over():
            return ""
        winner = self.game.result().winner
        return {0: "You win!", 1: "The AI wins.", None: "Draw."}[winner] + "  (R: play again, Q: quit)"

    def final_line(self) -> str:
        """What the person reads after quitting: who won (or that the game was left), the scores and chains."""
        human, bot = self.game.players
        if self.game.over():
            head = {0: "You won", 1: "The AI won", None: "A draw"}[self.game.result().winner]
        else:
            head = "You quit"
        turns = f"{self.game.turn} turn{'' if self.game.turn == 1 else 's'}"
        return (
            f"{head} after {turns}: you {human.score:,} points (longest chain {human.max_chain}), "
            f"AI {self.ai.name} {bot.score:,} points (longest chain {bot.max_chain})."
        )


def _status(p: Any) -> str:
    return "GAME OVER" if p.dead else ""


def _info(p: Any) -> dict[str, Any]:
    return {"score": p.score, "max chain": p.max_chain, "pending": p.pending}


def run_match(match: HumanMatch, keys: Iterable[str], console: Console) -> HumanMatch:
    """Draw, read a key, act, until Q or the keys run out, then print the result. Unknown keys are ignored."""
    console.print(match.view())
    for key in keys:
        command = KEYS.get(key)
        if command == "quit":
            break
        if command is None or (match.game.over() and command != "reset"):
            continue
        match.press(command)
        console.clear()
        console.print(match.view())
    console.print(match.final_line())
    return match


def terminal_keys() -> Iterator[str]:
    """Raw key presses from the terminal (arrow keys as their escape sequences)."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while True:
            ch = sys.stdin.read(1)
            if ch == "\x1b":
                ch += sys.stdin.read(2)
            yield ch
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
