"""Stage boards: seeded random generation (Q4) and optional board files (Q3)."""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import name_of, read_json, show

from .config import YoshiConfig
from .kernels import matrix as K
from .rules import AREA, CELL_LETTERS, SHELL


def random_board(rng: random.Random, R: int, C: int, types: int, expert: bool, config: YoshiConfig) -> list[list[int]]:
    """A fresh R x C board with ``types`` normal types (and one Shell in expert rounds).

    ``balanced`` (Q4): each type appears floor or ceil of cells/types times, shuffled; boards with a
    complete line are drawn again. Where balanced counts leave no type able to fill a shortest line
    (3 x 3 with 5 types), one random type gets that many and the rest share the others evenly. ``uniform``: cells drawn
    independently (still without complete lines).
    """
    cells = R * C
    grid = np.zeros((AREA, AREA), dtype=np.int8)
    row_code = np.empty(AREA, dtype=np.int64)
    col_code = np.empty(AREA, dtype=np.int64)
    need = min(R, C)
    while True:
        n_normal = cells - 1 if expert else cells
        if config.gen == "balanced":
            cookies = _balanced(rng, n_normal, types, need)
        else:
            cookies = [1 + rng.randrange(types) for _ in range(n_normal)]
        if expert:
            pos = rng.randrange(cells) if config.shell_pos == "random" else 0
            cookies.insert(pos, SHELL)
        board = [cookies[i * C : (i + 1) * C] for i in range(R)]
        grid[:R, :C] = np.array(board, dtype=np.int8)
        if K.find_complete(grid, R, C, config.min_line, row_code, col_code):
            continue
        if max(cookies.count(t) for t in range(1, types + 1)) < need:
            continue
        return board


def _balanced(rng: random.Random, n: int, types: int, need: int) -> list[int]:
    """``n`` cookies of ``types`` types in even counts, at least one type with ``need``; shuffled."""
    counts = [n // types + (1 if t < n % types else 0) for t in range(types)]
    rng.shuffle(counts)
    if max(counts) < need:
        big = rng.randrange(types)
        rest = [t for t in range(types) if t != big]
        counts = [0] * types
        counts[big] = need
        for k, t in enumerate(rest):
            counts[t] = (n - need) // len(rest) + (1 if k < (n - need) % len(rest) else 0)
    cookies = [t + 1 for t in range(types) for _ in range(counts[t])]
    rng.shuffle(cookies)
    return cookies


def parse_board(rows: Any, where: str) -> list[list[int]]:
    """Rows of letters (``rules.CELL_LETTERS``, top row first) to cell codes; ``InputError`` if malformed."""
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise InputError(f"{where}: a board is a non-empty list of row strings")
    if len({len(r) for r in rows}) != 1:
        raise InputError(f"{where}: rows differ in length")
    if len(rows) > AREA - 1 or len(rows[0]) > AREA - 1 or not rows[0]:
        raise InputError(f"{where}: a board is 1 to 7 rows of 1 to 7 cells")
    board = []
    for r in rows:
        bad = [ch for ch in r if ch not in CELL_LETTERS[1:]]
        if bad:
            raise InputError(f"{where}: unknown cell letter {show(bad[0])} (letters: {CELL_LETTERS[1:]})")
        board.append([CELL_LETTERS.index(ch) for ch in r])
    return board


def check_board(board: list[list[int]], min_line: int, where: str) -> None:
    """``InputError`` if the board already holds a complete line or more than one Shell."""
    R, C = len(board), len(board[0])
    grid = np.zeros((AREA, AREA), dtype=np.int8)
    grid[:R, :C] = np.array(board, dtype=np.int8)
    if K.find_complete(grid, R, C, min_line, np.empty(AREA, np.int64), np.empty(AREA, np.int64)):
        raise InputError(f"{where}: the board already holds a complete line")
    if sum(row.count(SHELL) for row in board) > 1:
        raise InputError(f"{where}: a board holds at most one Shell")


def load_board_file(path: str, min_line: int = 2) -> dict[tuple[int, int], list[list[int]]]:
    """A JSON object ``{"ROUND-STAGE": ["row", ...]}``: fixed boards for those stages (Q3's data hook)."""
    name = f"board file {name_of(path)}"
    data = read_json(path, "board file")
    if not isinstance(data, dict):
        raise InputError(f'{name}: expected an object of "ROUND-STAGE": [rows]')
    boards = {}
    for key, rows in data.items():
        match = re.fullmatch(r"([0-9]{1,3})-([0-9]{1,3})", key)
        if match is None:
            raise InputError(f"{name}: bad key {show(key)} (expected ROUND-STAGE, e.g. 1-1)")
        where = f"{name}, {key}"
        boards[(int(match[1]), int(match[2]))] = board = parse_board(rows, where)
        check_board(board, min_line, where)
    return boards
