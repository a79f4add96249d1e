"""The page's line-clear animation: the engine's ``on_clear`` hook reports each clear of complete lines and
changes nothing, and ``view.animation`` turns a plan's clears into views with the clearing cells."""

from __future__ import annotations

from typing import Any

import pytest

from puzzlebots.core.registry import get_game
from puzzlebots.games.yoshis_cookie import view

GAME = get_game("yoshis_cookie")


def states(seed: int) -> tuple[Any, Any, Any]:
    config = GAME.check_config({"max_stages": 2})
    return GAME.new_state(seed, config), GAME.new_state(seed, config), GAME.make_bot("greedy", config, None, seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_hook_reports_every_cleared_line_and_changes_nothing(seed: int) -> None:
    watched, plain, bot = states(seed)
    seen: list[tuple[list[int], list[int]]] = []
    watched.on_clear = lambda state, rows, cols: seen.append((rows, cols))
    clears = 0
    while not plain.is_terminal():
        action = bot.act(plain)
        lines = watched.counters.lines
        seen.clear()
        watched.apply(action)
        plain.apply(action)
        assert watched.state_hash() == plain.state_hash() and watched.result() == plain.result()
        assert sum(len(rows) + len(cols) for rows, cols in seen) == watched.counters.lines - lines
        clears += len(seen)
    assert clears > 0
    assert watched.clone().on_clear is None  # a clone (a bot's search) never calls the page's hook


def test_the_animation_shows_each_clear_with_its_cells_and_leaves_the_state_alone() -> None:
    state, _, bot = states(4)
    found = 0
    while not state.is_terminal():
        action = bot.act(state)
        before = state.state_hash()
        lines = state.counters.lines
        views = view.animation(state, action)
        assert state.state_hash() == before
        state.apply(action)
        assert sum(v["lines"] for v in views) == state.counters.lines - lines
        for v in views:
            rows, cols = len(v["cells"]), len(v["cells"][0])
            cleared = {(c["r"], c["c"]) for c in v["clearing"]}
            assert cleared and all(0 <= r < rows and 0 <= c < cols for r, c in cleared)
            full_rows = {r for r in range(rows) if all((r, c) in cleared for c in range(cols))}
            full_cols = {c for c in range(cols) if all((r, c) in cleared for r in range(rows))}
            assert len(full_rows) + len(full_cols) >= 1  # whole lines, not stray cells
            assert cleared == {(r, c) for r in full_rows for c in range(cols)} | {
                (r, c) for c in full_cols for r in range(rows)
            }
        found += len(views)
    assert found > 0
