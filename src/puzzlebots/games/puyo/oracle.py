"""A slow, obvious pure-Python Tsu resolver: the readable reference the numba kernels are tested against.

It lives in the package (not in the tests) so that the differential tests of every kernel (the grid kernel,
and the bitboard kernel behind ``engine.Field.play``) compare against one definition. It takes the scoring
tables and the link formula from ``rules`` (the tables are checked against hand-worked scores in the tests);
what it checks is the algorithm: groups, pops, garbage, gravity. Field: a list of 6 columns, each a list of
cell values bottom-up (0 never stored).
"""

from __future__ import annotations

from collections.abc import Callable

from .rules import CHILD_DX, COLOUR_LETTERS, GARBAGE, ROWS, VISIBLE_ROWS, WIDTH, link_score


def columns_from_rows(rows: list[str]) -> list[list[int]]:
    """Columns from text rows, top row first (letters ``.RGBYP``, ``o`` garbage)."""
    cols: list[list[int]] = [[] for _ in range(WIDTH)]
    for row in reversed(rows):
        for x, ch in enumerate(row):
            if ch == "o":
                cols[x].append(GARBAGE)
            elif ch != ".":
                cols[x].append(COLOUR_LETTERS.index(ch))
    return cols


def drop(cols: list[list[int]], x: int, r: int, axis: int, child: int) -> None:
    """Drop a pair (x 0-based); puyos that would rest in row 14 vanish."""
    order = [(x, child), (x, axis)] if r == 2 else [(x, axis), (x + CHILD_DX[r], child)]
    for cx, colour in order:
        if len(cols[cx]) < ROWS:
            cols[cx].append(colour)


def resolve(
    cols: list[list[int]], on_link: Callable[[set[tuple[int, int]], list[list[int]]], None] | None = None
) -> tuple[int, int, list[int]]:
    """Resolve chains; return (links, total score, per-link scores). ``on_link(gone, cols)``, if given, sees each
    link's popped cells (x, y) before they go and the columns after gravity (the page's chain animation)."""
    links = 0
    total = 0
    per_link: list[int] = []
    while True:
        cell = {(x, y): c for x, col in enumerate(cols) for y, c in enumerate(col) if y < VISIBLE_ROWS}
        seen: set[tuple[int, int]] = set()
        popping: set[tuple[int, int]] = set()
        colours: set[int] = set()
        sizes: list[int] = []
        for start, colour in cell.items():
            if start in seen or colour == GARBAGE:
                continue
            group = {start}
            todo = [start]
            while todo:
                x, y = todo.pop()
                for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    if n not in group and cell.get(n) == colour:
                        group.add(n)
                        todo.append(n)
            seen |= group
            if len(group) >= 4:
                popping |= group
                colours.add(colour)
                sizes.append(len(group))
        if not popping:
            return links, total, per_link
        links += 1
        pc = len(popping)
        garbage = {
            (x, y)
            for (x, y), c in cell.items()
            if c == GARBAGE and any(n in popping for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))
        }
        score = link_score(links, pc, len(colours), sizes)
        per_link.append(score)
        total += score
        gone = popping | garbage
        for x in range(WIDTH):
            cols[x] = [c for y, c in enumerate(cols[x]) if (x, y) not in gone]
        if on_link is not None:
            on_link(gone, cols)
