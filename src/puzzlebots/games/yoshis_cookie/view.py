"""Yoshi's Cookie board JSON for the page: the matrix, the cursor, the falling L-shaped unit at its true distance
from the matrix's edges (row arm above, column arm to the right, corner between), the Yoshi meters and the
figures, as the ``cookies`` drawing of ``web/view.js`` (each cookie drawn with its sprite from
``web/cookies.svg``); and, within one plan, each clear of complete lines (``animation``)."""

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
    target = s.rules.meter_target
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


def animation(state: State, action: Any) -> list[dict[str, Any]]:
    """The views within a plan, from the state before it: one per clear of complete lines (a chain's links in
    turn), the matrix as the lines are found with their cells (and the incoming cells aligned with them, when
    those go too) listed in ``clearing``; the frame's own view, after the matrix closed, follows. Played on a
    clone through the engine's ``on_clear`` hook, so the game itself is untouched."""
    s: Any = state.clone()
    views: list[dict[str, Any]] = []

    def on_clear(now: Any, rows: list[int], cols: list[int]) -> None:
        view = board(now)
        R, C = len(view["cells"]), len(view["cells"][0]) if view["cells"] else 0
        cells = {(r, c) for r in rows for c in range(C)} | {(r, c) for c in cols for r in range(R)}
        view["clearing"] = [{"r": r, "c": c} for r, c in sorted(cells)]
        inc = view["incoming"]
        if inc is not None and now.rules.clear_incoming_aligned:
            view["clearing_incoming"] = {
                "row_arm": [c for c in cols if inc["row_arm"] and c < len(inc["row_arm"])],
                "col_arm": [r for r in rows if inc["col_arm"] and r < len(inc["col_arm"])],
            }
        view["lines"] = len(rows) + len(cols)
        views.append(view)

    s.on_clear = on_clear
    s.apply(action)
    return views
