"""Puyo board JSON: the 6 x 13 field (row 13, the hidden row, on top), the next pairs, and optionally a
person's pair hovering in three spare rows above the field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.protocols import State

WIDTH, ROWS = 6, 13
HOVER_ROWS = 3
COLOURS = {1: "#e03c3c", 2: "#3cb44b", 3: "#3264e6", 4: "#f0c828", 5: "#a046c8", 6: "#9a9a9a"}
#: child offset (row, column) from the axis by rotation: 0 above, 1 right, 2 below, 3 left
CHILD_OFFSET = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}


def field_view(
    cells: Any,
    pairs: Sequence[tuple[int, int]],
    piece: tuple[int, int, int, int] | None = None,
    title: str | None = None,
) -> dict[str, Any]:
    """``cells`` is the engine's (column, row) array, row 0 at the bottom; ``piece`` is (x 1-6, r, axis, child)."""
    grid = [[0] * WIDTH for _ in range(HOVER_ROWS)]
    grid += [[int(cells[x, y]) for x in range(WIDTH)] for y in range(ROWS - 1, -1, -1)]
    hover = []
    if piece is not None:
        x, r, axis, child = piece
        dr, dc = CHILD_OFFSET[r]
        hover = [{"r": 1, "c": x - 1, "v": axis}, {"r": 1 + dr, "c": x - 1 + dc, "v": child}]
    return {
        "kind": "grid",
        "title": title,
        "rows": HOVER_ROWS + ROWS,
        "cols": WIDTH,
        "cells": grid,
        "colors": COLOURS,
        "shape": "circle",
        "hidden_rows": HOVER_ROWS + 1,
        "piece": hover,
        "next": [[int(a), int(c)] for a, c in pairs],
    }


def to_view(state: State) -> dict[str, Any]:
    s: Any = state
    return field_view(s.field.cells, s.next_pairs())
