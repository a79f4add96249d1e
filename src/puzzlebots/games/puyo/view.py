"""Puyo on the page: a field as the shell's generic ``grid`` (row 13, the hidden row, on top; the next pairs in a
column beside it; a bot's target chain as dim cells, and for ``builder`` the puyos it pops framed and numbered
by link), a chain link by link, and the landing ghost of the Play
Puyo tab (whose session is ``versus_page.py``; ``web/view.js`` draws its two fields side by side, the ``versus``
drawing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from puzzlebots.core.protocols import Bot, State

from . import oracle
from .bots.base import target_overlay
from .rules import DEATH_X, DEATH_Y, ROWS, WIDTH

#: spare rows above the field where a person's pair hovers
HOVER_ROWS = 3
COLOURS = {1: "#e03c3c", 2: "#3cb44b", 3: "#3264e6", 4: "#f0c828", 5: "#a046c8", 6: "#9a9a9a"}
#: child offset (row, column) from the axis by rotation: 0 above, 1 right, 2 below, 3 left
CHILD_OFFSET = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
#: the column, right of the well, where the current and next pairs are shown (child above axis)
PAIRS_COLUMN = WIDTH + 0.5
#: the colours drawn joined to a like neighbour (not garbage, which never connects)
JOINING = [1, 2, 3, 4, 5]


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
        "aside_title": "next",
        "ghosts": ghosts,
        "join": JOINING,
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
    if s.last.links >= 2:  # a chain counter, as the game shows it: a single pop is no chain
        view["badge"] = f"{s.last.links}-chain"
    view["panel"] = [
        ["score", s.score],
        ["chain", f"{s.last.links} links" if s.last.links else "-"],
        ["max_chain", max(s.chains, default=0)],
        ["pairs", f"{s.index} of {s.n_pairs}"],
        ["dead", "yes: cell (3, 12) filled" if s.dead else "no"],
    ]
    pops = target_pops(bot)
    if pops:
        view["marks"] = [{"r": HOVER_ROWS + ROWS - 1 - y, "c": x, "n": link} for x, y, link in pops]
    if view["ghosts"]:
        placed = "; the puyos it pops framed, numbered by link" if pops else ""
        count = len(view["ghosts"])
        view["panel"].append(["target chain", f"{count} puyo{'' if count == 1 else 's'} to place (dim){placed}"])
    return view


def target_pops(bot: Bot | None) -> list[tuple[int, int, int]]:
    """The puyos a bot's target chain pops, (x, y, link) 0-based, where the bot knows them (``builder``)."""
    pops = getattr(bot, "target_pops", None)
    return pops() if callable(pops) else []


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
        if link >= 2:  # the chain counter, from the second link as in the game
            popping["badge"] = fallen["badge"] = f"{link}-chain!"
        views.extend([popping, fallen])
        before = [list(col) for col in after]

    oracle.resolve(cols, on_link)
    return views
