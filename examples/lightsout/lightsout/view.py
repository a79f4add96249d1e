"""The web view: the board as the page's generic ``grid`` (no page files of its own)."""

from __future__ import annotations

from typing import Any

from .engine import LightsOutState

#: cell value -> fill: 1 a light that is on, 2 one that is off (0 would not be drawn at all)
COLORS = {1: "#ffd84a", 2: "#39414f"}


def web_view(state: LightsOutState) -> dict[str, Any]:
    size = state.size
    cells = [[2 - state.lights[row * size + col] for col in range(size)] for row in range(size)]
    view: dict[str, Any] = {
        "kind": "grid",
        "rows": size,
        "cols": size,
        "cells": cells,
        "colors": COLORS,
        "title": f"presses {state.presses}",
        "panel": [["lights on", sum(state.lights)], ["presses", state.presses]],
    }
    if state.last is not None:
        view["marks"] = [{"r": state.last // size, "c": state.last % size}]
    return view
