"""Hatris board JSON for the page: six piles of hats, each hat at its base height in pixels (nesting included),
the falling and next pairs, the helper pool and the level, as the ``piles`` drawing of ``web/view.js``."""

from __future__ import annotations

from typing import Any

from puzzlebots.core.protocols import State

from .rules import HAT_NAMES, HEIGHT, HELPER_NAMES

COLOURS = {1: "#eeeeee", 2: "#c83cc8", 3: "#ebc828", 4: "#3cc8dc", 5: "#dc3c3c", 6: "#46b446"}


def board(state: State) -> dict[str, Any]:
    s: Any = state
    nest = s.rules.nest
    columns = []
    for pile in s.piles:
        hats, base = [], 0
        for k, hat in enumerate(pile):
            if k:
                base += nest[pile[k - 1]][hat]  # a hat rests its nesting offset above the one below
            hats.append({"type": hat, "y": base, "h": HEIGHT[hat]})
        columns.append(hats)
    pool = ", ".join(HELPER_NAMES[h] for h in reversed(s.pool)) or "none"
    falling = "-".join(HAT_NAMES[h] for h in s.current) if s.current is not None else "none"
    return {
        "kind": "piles",
        "columns": columns,
        "height": s.rules.top_px + max(HEIGHT),
        "top": s.rules.top_px,
        "colors": COLOURS,
        "names": dict(enumerate(HAT_NAMES)),
        "next": [list(s.current) if s.current is not None else [], list(s.next)],
        "caption": f"level {s.level}  falling {falling}  next {'-'.join(HAT_NAMES[h] for h in s.next)}  "
        f"helpers (next first): {pool}",
    }
