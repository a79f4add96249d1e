"""Hatris board JSON for the page: six piles of hats, each hat at its base height in pixels (nesting included),
the falling pair where it spawns, the next pair, and the level/cash/helpers panel, as the ``piles`` drawing of
``web/view.js`` (which draws each hat with its sprite from ``web/hats.svg``)."""

from __future__ import annotations

from typing import Any

from puzzlebots.core.protocols import State

from .rules import BAR_FULL, CASH, HAT_NAMES, HEIGHT, HELPER_NAMES, SPAWN_COLUMNS, SPAWN_Y, STACK, STAGES_PER_SHOP

COLOURS = {1: "#eeeeee", 2: "#c83cc8", 3: "#ebc828", 4: "#3cc8dc", 5: "#dc3c3c", 6: "#46b446"}


def pile_hats(pile: list[int], nest: Any) -> list[dict[str, int]]:
    """Each hat of a pile with its base height: a hat rests its nesting offset above the one below."""
    hats, base = [], 0
    for k, hat in enumerate(pile):
        if k:
            base += nest[pile[k - 1]][hat]
        hats.append({"type": hat, "y": base, "h": HEIGHT[hat]})
    return hats


def panel(s: Any) -> list[list[Any]]:
    """The figures beside the well, as (label, value) rows."""
    shop, stage = divmod(s.level, STAGES_PER_SHOP)
    bars = "  ".join(f"{HELPER_NAMES[i]} {s.bars[i]}/{BAR_FULL}" for i in range(len(HELPER_NAMES)))
    pool = ", ".join(HELPER_NAMES[h] for h in reversed(s.pool)) or "none"
    return [
        ["level", f"{s.level} (shop {shop + 1}, stage {stage + 1})"],
        ["stacks", f"{s.stacks_level} of {s.quota}"],
        ["cash", f"${s.cash}"],
        ["helper bars", bars],
        ["helpers (next first)", pool],
    ]


def board(state: State) -> dict[str, Any]:
    s: Any = state
    falling = []
    if s.current is not None:
        pair = zip(SPAWN_COLUMNS, s.current, strict=True)
        falling = [{"col": c, "type": t, "y": SPAWN_Y, "h": HEIGHT[t]} for c, t in pair]
    return {
        "kind": "piles",
        "columns": [pile_hats(pile, s.rules.nest) for pile in s.piles],
        "height": max(s.rules.top_px, SPAWN_Y) + max(HEIGHT),
        "top": s.rules.top_px,
        "colors": COLOURS,
        "names": dict(enumerate(HAT_NAMES)),
        "cash": dict(enumerate(CASH)),
        "heights": dict(enumerate(HEIGHT)),
        "falling": falling,
        "next": list(s.next),
        "panel": panel(s),
        "over": bool(s.game_over),
    }


def animation(state: State, action: Any) -> list[dict[str, Any]]:
    """The views within a placement, from the state before it: the pair over its piles at the spawn height,
    falling in three steps, then landed with any 5-run of one type marked as vanishing (the frame's own view
    follows, after the vanish). A helper's use is not animated."""
    s: Any = state
    if s.current is None or not action or action[0] != "place":
        return []
    a, b = s.current
    cols = (action[1], action[2]) if a != b else (min(action[1:3]), max(action[1:3]))
    piles = [list(p) for p in s.piles]
    landed = []
    for col, hat in sorted(((cols[0], a), (cols[1], b))):
        piles[col].append(hat)
        hats = pile_hats(piles[col], s.rules.nest)
        landed.append({"col": col, **hats[-1]})
    views = []
    for frac in (0.0, 0.35, 0.7):
        view = board(s)
        view["falling"] = [{**h, "y": round(SPAWN_Y + (h["y"] - SPAWN_Y) * frac)} for h in landed]
        views.append(view)
    view = board(s)
    view["columns"] = [pile_hats(p, s.rules.nest) for p in piles]
    view["falling"] = []
    for col, pile in enumerate(piles):
        if len(pile) >= STACK and len(set(pile[-STACK:])) == 1:
            for hat in view["columns"][col][-STACK:]:
                hat["vanish"] = True
    views.append(view)
    return views
