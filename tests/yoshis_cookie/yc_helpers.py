"""Shared helpers of the Yoshi's Cookie tests: static states and a pure-Python clear oracle."""

from __future__ import annotations

from typing import Any

from puzzlebots.games.yoshis_cookie.engine import YoshiState
from puzzlebots.games.yoshis_cookie.game import GAME

SHELL, YOSHI = 7, 6
#: nothing falls while a test plays its plans
STILL = {"start_delay": 100_000}


def state_with(rows: list[str], cursor: tuple[int, int] = (0, 0), delay: int | None = None,
               **config: Any) -> YoshiState:
    cfg = GAME.check_config({**STILL, **config})
    state = YoshiState(cfg, seed=0)
    state.set_matrix(rows, cursor, delay)
    return state


def oracle_line(cells: list[int], min_line: int = 2) -> int:
    """-1 incomplete, 0 all Yoshi, the normal type, or SHELL for {Shell, Yoshi}: written from the rules."""
    if len(cells) < min_line or 0 in cells:
        return -1
    normal = {v for v in cells if v not in (YOSHI, SHELL)}
    if SHELL in cells:
        return SHELL if len(cells) == 2 and cells.count(YOSHI) == 1 else -1
    if len(normal) > 1:
        return -1
    return normal.pop() if normal else 0


def oracle_resolve(rows: list[list[int]], sc: int = 10, sy: int = 100) -> tuple[list[list[int]], int, int, int]:
    """Clear all complete lines at once, contract, repeat (Q10, Q11). Returns (rows, points, lines, chain)."""
    points = lines = chain = 0
    while rows and rows[0]:
        full_rows = [i for i, r in enumerate(rows) if oracle_line(r) >= 0]
        full_cols = [j for j in range(len(rows[0])) if oracle_line([r[j] for r in rows]) >= 0]
        n = len(full_rows) + len(full_cols)
        if n == 0:
            break
        chain += 1
        removed = [rows[i][j] for i in range(len(rows)) for j in range(len(rows[0]))
                   if i in full_rows or j in full_cols]
        points += sc * len(removed) * n * chain + sy * removed.count(YOSHI)
        lines += n
        rows = [[v for j, v in enumerate(r) if j not in full_cols] for i, r in enumerate(rows) if i not in full_rows]
        if not rows or not rows[0]:
            rows = []
    return rows, points, lines, chain
