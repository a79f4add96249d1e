"""Yoshi's Cookie board JSON for the page: the matrix, the cursor, the falling L-shaped unit at its true distance
from the matrix's edges (row arm above, column arm to the right, corner between), the Yoshi meters and the
figures, as the ``cookies`` drawing of ``web/view.js`` (each cookie drawn with its sprite from
``web/cookies.svg``)."""

from __future__ import annotations

from typing import Any

from puzzlebots.core.protocols import State

from .rules import AREA, NORMAL_NAMES, NORMAL_TYPES, SHELL, UNITS_PER_CELL, YOSHI

NAMES = {**NORMAL_NAMES, YOSHI: "yoshi", SHELL: "shell"}


def incoming(s: Any) -> dict[str, Any] | None:
    """The falling unit: each arm's cells and its leading edge in cells from the matrix's bottom-left corner."""
    inc = s.incoming
    if inc.row_arm is None and inc.col_arm is None:
        return None
    return {
        "row_arm": [int(v) for v in inc.row_arm] if inc.row_arm is not None else None,
        "col_arm": [int(v) for v in inc.col_arm] if inc.col_arm is not None else None,
        "corner": int(inc.corner),
        "y": inc.y / UNITS_PER_CELL,
        "x": inc.x / UNITS_PER_CELL,
    }


def board(state: State) -> dict[str, Any]:
    s: Any = state
    grid = [[int(v) for v in row] for row in s.grid]
    cr, cc = s.cursor
    target = s.config["meter_target"]
    return {
        "kind": "cookies",
        "area": AREA,
        "cells": grid,
        "cursor": {"r": cr, "c": cc},
        "incoming": incoming(s),
        "names": NAMES,
        "meters": [{"type": t, "name": NAMES[t], "count": s.meters[t], "target": target} for t in NORMAL_TYPES],
        "panel": [
            ["round", f"{s.round}{' (expert)' if s.expert else ''}"],
            ["stage", s.stage],
            ["score", s.counters.score],
            ["lines", s.counters.lines],
            ["Yoshis earned", s.counters.yoshis_earned],
            ["frames to contact", s.frames_to_contact()],
        ],
        "over": ("stuck: no line can be made" if s.stuck else "all stages played") if s.done else None,
    }
