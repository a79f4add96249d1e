"""Yoshi's Cookie board JSON for the page: the matrix, the cursor's row and column, and the falling L-shaped unit
(its row arm drawn above the matrix, its column arm to the right), as the shell's generic ``grid`` drawing."""

from __future__ import annotations

from typing import Any

from puzzlebots.core.protocols import State

from .rules import AREA, CELL_LETTERS

COLOURS = {1: "#e6466e", 2: "#f0c832", 3: "#50aaf0", 4: "#5abe5a", 5: "#f08c32", 6: "#78dc78", 7: "#aa7850"}


def board(state: State) -> dict[str, Any]:
    s: Any = state
    grid = [[int(v) for v in row] for row in s.grid]
    rows, cols = len(grid), len(grid[0]) if grid else 0
    cells = [[0] * (AREA + 1) for _ in range(AREA + 1)]  # row 0: incoming row arm; column AREA: column arm
    for r in range(rows):
        cells[r + 1][:cols] = grid[r]
    inc = s.incoming
    for c, v in enumerate((inc.row_arm or [])[:AREA]):
        cells[0][c] = int(v)
    for r, v in enumerate((inc.col_arm or [])[:AREA]):
        cells[r + 1][AREA] = int(v)
    cr, cc = s.cursor
    marks = [{"r": cr + 1, "c": c} for c in range(cols)] + [{"r": r + 1, "c": cc} for r in range(rows) if r != cr]
    return {
        "kind": "grid",
        "rows": AREA + 1,
        "cols": AREA + 1,
        "cells": cells,
        "colors": COLOURS,
        "labels": dict(enumerate(CELL_LETTERS)),
        "shape": "square",
        "marks": marks,
        "title": f"round {s.round} stage {s.stage}  matrix {rows}x{cols}  frames to contact {s.frames_to_contact()}",
    }
