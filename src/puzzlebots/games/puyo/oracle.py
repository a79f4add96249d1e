"""A slow, obvious pure-Python Tsu resolver: the readable reference the numba kernels are tested against.

It lives in the package (not in the tests) so that the differential tests and any later kernel (bitboards)
compare against one definition. Field: a list of 6 columns, each a list of cell values bottom-up (0 never
stored), 6 = garbage.
"""

from __future__ import annotations

CP = [0, 0, 8, 16, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 480, 512]
CB = [0, 0, 3, 6, 12, 24, 48]
GB = [0, 0, 0, 0, 0, 2, 3, 4, 5, 6, 7, 10]
GARBAGE = 6


def columns_from_rows(rows: list[str]) -> list[list[int]]:
    letters = ".RGBYP"
    cols: list[list[int]] = [[] for _ in range(6)]
    for row in reversed(rows):
        for x, ch in enumerate(row):
            if ch == "o":
                cols[x].append(GARBAGE)
            elif ch != ".":
                cols[x].append(letters.index(ch))
    return cols


def drop(cols: list[list[int]], x: int, r: int, axis: int, child: int) -> None:
    """Drop a pair (x 0-based); puyos that would rest in row 14 vanish."""
    dx = [0, 1, 0, -1][r]
    order = [(x, child), (x, axis)] if r == 2 else [(x, axis), (x + dx, child)]
    for cx, colour in order:
        if len(cols[cx]) < 13:
            cols[cx].append(colour)


def resolve(cols: list[list[int]]) -> tuple[int, int, list[int]]:
    """Resolve chains; return (links, total score, per-link scores)."""
    links = 0
    total = 0
    per_link: list[int] = []
    while True:
        cell = {(x, y): c for x, col in enumerate(cols) for y, c in enumerate(col) if y < 12}
        seen: set[tuple[int, int]] = set()
        popping: set[tuple[int, int]] = set()
        colours: set[int] = set()
        bonus_groups = 0
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
                bonus_groups += GB[min(len(group), 11)]
        if not popping:
            return links, total, per_link
        links += 1
        pc = len(popping)
        garbage = {
            (x, y)
            for (x, y), c in cell.items()
            if c == GARBAGE and any(n in popping for n in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)))
        }
        power = CP[links] if links <= 19 else 512 + 32 * (links - 19)
        score = 10 * pc * min(max(power + CB[len(colours)] + bonus_groups, 1), 999)
        per_link.append(score)
        total += score
        gone = popping | garbage
        for x in range(6):
            cols[x] = [c for y, c in enumerate(cols[x]) if (x, y) not in gone]
