"""Puyo on the page: a field as the shell's generic ``grid`` (row 13, the hidden row, on top; the next pairs in a
column beside it; KRIEG3's target chain as dim cells), and a person against an AI with the keyboard.

The person's game is the terminal's ``HumanMatch`` (versus mode, garbage exchanged under the Tsu rules, KRIEG3's
keys and wall kicks); ``web/view.js`` draws its two fields side by side (the ``versus`` drawing) and sends keys.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.core.messages import field_of, seed_field
from puzzlebots.core.protocols import JSON, Bot, State
from puzzlebots.core.seeds import bot_seed

from . import oracle
from .bots.base import target_overlay
from .human import HumanMatch
from .rules import DEATH_X, DEATH_Y, ROWS, WIDTH

if TYPE_CHECKING:
    from .game import PuyoGame

#: spare rows above the field where a person's pair hovers
HOVER_ROWS = 3
COLOURS = {1: "#e03c3c", 2: "#3cb44b", 3: "#3264e6", 4: "#f0c828", 5: "#a046c8", 6: "#9a9a9a"}
#: child offset (row, column) from the axis by rotation: 0 above, 1 right, 2 below, 3 left
CHILD_OFFSET = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
#: the column, right of the well, where the current and next pairs are shown (child above axis)
PAIRS_COLUMN = WIDTH + 0.5

KEYS = ("left", "right", "cw", "ccw", "drop")
OUTCOMES = {0: "you win!", 1: "the AI wins", None: "a draw"}


def field_view(
    cells: Any,
    pairs: Sequence[tuple[int, int]],
    piece: tuple[int, int, int, int] | None = None,
    title: str | None = None,
    target: Sequence[tuple[int, int, int]] = (),
) -> dict[str, Any]:
    """``cells`` is the engine's (column, row) array, row 0 at the bottom; ``piece`` is (x 1-6, r, axis, child);
    ``target`` the (x, y, colour) cells of a bot's chain, shown where the field is still empty."""
    grid = [[0] * WIDTH for _ in range(HOVER_ROWS)]
    grid += [[int(cells[x, y]) for x in range(WIDTH)] for y in range(ROWS - 1, -1, -1)]
    hover = []
    if piece is not None:
        x, r, axis, child = piece
        dr, dc = CHILD_OFFSET[r]
        hover = [{"r": 1, "c": x - 1, "v": axis}, {"r": 1 + dr, "c": x - 1 + dc, "v": child}]
    aside = []
    for i, (axis, child) in enumerate(pairs):
        aside += [{"r": 3 * i, "c": PAIRS_COLUMN, "v": int(child)}, {"r": 3 * i + 1, "c": PAIRS_COLUMN, "v": int(axis)}]
    ghosts = [
        {"r": HOVER_ROWS + ROWS - 1 - y, "c": x, "v": int(c)} for x, y, c in target if y < ROWS and not cells[x, y]
    ]
    return {
        "kind": "grid",
        "title": title,
        "rows": HOVER_ROWS + ROWS,
        "cols": WIDTH,
        "cells": grid,
        "colors": COLOURS,
        "shape": "circle",
        "open_rows": HOVER_ROWS,
        "hidden_rows": 1,
        "crosses": [{"r": HOVER_ROWS + ROWS - 1 - DEATH_Y, "c": DEATH_X, "title": "a puyo here ends the game"}],
        "piece": hover,
        "aside": aside,
        "ghosts": ghosts,
    }


def landing(heights: Any, x: int, r: int, colours: tuple[int, int]) -> list[dict[str, int]]:
    """Where the hovering pair (axis column ``x`` 0-based, rotation ``r``) comes to rest, as grid cells with the
    colour and ``k`` (0 axis, 1 child; the piece's own order): the ghost of the real-time page (a puyo that would
    rest in row 14 vanishes and has no cell)."""
    cx = x + CHILD_OFFSET[r][1]
    if r == 0:
        rows = [int(heights[x]), int(heights[x]) + 1]
    elif r == 2:
        rows = [int(heights[x]) + 1, int(heights[x])]
    else:
        rows = [int(heights[x]), int(heights[cx])]
    cells = zip(rows, (x, cx), colours, strict=True)
    return [
        {"r": HOVER_ROWS + ROWS - 1 - y, "c": c, "v": int(v), "k": k} for k, (y, c, v) in enumerate(cells) if y < ROWS
    ]


def board(state: State, bot: Bot | None = None) -> dict[str, Any]:
    """A solo game's field with its next pairs, the bot's target chain, and the score and chain counter."""
    s: Any = state
    view = field_view(s.field.cells, s.next_pairs(), target=target_overlay(bot))
    view["panel"] = [
        ["score", s.score],
        ["chain", f"{s.last.links} links" if s.last.links else "-"],
        ["longest chain", max(s.chains, default=0)],
        ["pairs", f"{s.index} of {s.n_pairs}"],
        ["game over", "yes: cell (3, 12) filled" if s.dead else "no"],
    ]
    if view["ghosts"]:
        view["panel"].append(["target chain", f"{len(view['ghosts'])} puyos to place (dim)"])
    return view


class VersusPage:
    """One page's game against an AI: ``versus`` starts one (``bot``, ``seed``), ``key`` presses a key."""

    def __init__(self, game: PuyoGame) -> None:
        self.game = game
        self.match: HumanMatch | None = None
        self.bot_name = ""
        self.message = ""
        #: the person's field as their last pair dropped, link by link (views of the person's field)
        self.steps: list[dict[str, Any]] = []

    def handle(self, op: str, msg: Mapping[str, JSON]) -> dict[str, JSON]:
        if op == "versus":
            self.start(field_of(msg, "bot", str), seed_field(msg))
        else:
            self.key(field_of(msg, "key", str))
        return self.frame()

    def start(self, bot_name: str, seed: int) -> None:
        config = self.game.check_config({})
        self.match = HumanMatch(seed, config, self.game.make_bot(bot_name, config, None, bot_seed(seed)))
        self.bot_name = bot_name
        self.message = "your move"

    def playing(self) -> HumanMatch:
        if self.match is None:
            raise InputError("no Puyo game against an AI: start one first")
        return self.match

    def key(self, key: str) -> None:
        match = self.playing()
        if key not in KEYS:
            raise IllegalActionError(f"unknown key {key!r} (keys: {', '.join(KEYS)})")
        self.steps = []
        if match.game.over():
            return
        person = match.game.players[0]
        before = (person.field.copy(), person.current(), person.next_pairs()[1:], (match.cursor.x + 1, match.cursor.r))
        try:
            match.press(key)
        except IllegalActionError:
            self.message = "that placement cannot be reached: the columns in the way are too tall"
            return
        self.message = OUTCOMES[match.game.result().winner] if match.game.over() else "your move"
        if key == "drop":
            self.steps = chain_views(*before)

    def frame(self) -> dict[str, JSON]:
        match = self.playing()
        done = bool(match.game.over())
        person, ai = match.game.players
        cursor = match.cursor
        axis, child = person.current()
        piece = None if done else (cursor.x + 1, cursor.r, axis, child)

        def title(who: str, p: Any) -> str:
            return f"{who}: {p.score} (chain {p.max_chain}, garbage pending {p.pending})"

        you = field_view(person.field.cells, person.next_pairs(), piece, title("you", person))
        if piece is not None:
            you["ghosts"] = landing(person.field.heights, cursor.x, cursor.r, (axis, child))
        boards = [
            you,
            field_view(ai.field.cells, ai.next_pairs(), None, title(self.bot_name, ai), target_overlay(match.ai)),
        ]
        steps = [{"kind": "versus", "boards": [view, boards[1]], "link": view.get("link")} for view in self.steps]
        return {
            "view": {"kind": "versus", "boards": boards},
            "steps": steps,
            "piece": {"x": cursor.x + 1, "r": cursor.r},
            "garbage": {"you": person.pending, "ai": ai.pending},
            "turn": match.game.turn,
            "done": done,
            "status": self.message,
        }


def _cells(cols: list[list[int]]) -> Any:
    """The engine's (column, row) array of oracle columns."""
    cells = np.zeros((WIDTH, ROWS), dtype=np.uint8)
    for x, col in enumerate(cols):
        cells[x, : len(col)] = col
    return cells


def animation(state: State, action: Any) -> list[dict[str, Any]]:
    """The views between ``state`` and the state after ``action`` (a solo game's move)."""
    s: Any = state
    return chain_views(s.field, s.current(), s.next_pairs()[1:], action)


def chain_views(field: Any, pair: tuple[int, int], pairs: list[tuple[int, int]], action: Any) -> list[dict[str, Any]]:
    """The views of ``field`` as ``pair`` is dropped at ``action`` (x 1-6, r), for the page to play one after
    another: the pair over its column, the pair landed, then per chain link the popping puyos framed and the
    field after they fall (titled with the link count). Computed with the readable oracle."""
    axis, child = pair
    x, r = action
    cols = [[int(v) for v in field.cells[c, : int(field.heights[c])]] for c in range(WIDTH)]
    views = [field_view(_cells(cols), pairs, (int(x), int(r), axis, child))]
    oracle.drop(cols, int(x) - 1, int(r), axis, child)
    views.append(field_view(_cells(cols), pairs))
    before = [list(col) for col in cols]

    def on_link(gone: set[tuple[int, int]], after: list[list[int]]) -> None:
        nonlocal before
        link = len(views) // 2
        popping = field_view(_cells(before), pairs, title=f"{link}-chain!")
        popping["marks"] = [{"r": HOVER_ROWS + ROWS - 1 - y, "c": gx} for gx, y in sorted(gone)]
        popping["link"] = link
        fallen = field_view(_cells(after), pairs, title=f"{link}-chain!")
        fallen["link"] = link
        views.extend([popping, fallen])
        before = [list(col) for col in after]

    oracle.resolve(cols, on_link)
    return views
