"""Plain-Python references the numba kernels are tested against, written from the rules text.

They work on lists of cell codes (top row first) and share no code with ``kernels``: ``line_code`` (which
line clears), ``resolve`` (the clears and chains of Q10, Q11) and ``build_row`` (the article's greedy builder,
rules A18-A20).
"""

from __future__ import annotations

from .rules import SHELL, YOSHI


def line_code(cells: list[int], min_line: int = 2) -> int:
    """-1 incomplete, 0 all Yoshi, the normal type, or SHELL for {Shell, Yoshi}: written from the rules."""
    if len(cells) < min_line or 0 in cells:
        return -1
    normal = {v for v in cells if v not in (YOSHI, SHELL)}
    if SHELL in cells:
        return SHELL if len(cells) == 2 and cells.count(YOSHI) == 1 else -1
    if len(normal) > 1:
        return -1
    return normal.pop() if normal else 0


def resolve(rows: list[list[int]], sc: int = 10, sy: int = 100) -> tuple[list[list[int]], int, int, int]:
    """Clear all complete lines at once, contract, repeat (Q10, Q11). Returns (rows, points, lines, chain)."""
    points = lines = chain = 0
    while rows and rows[0]:
        full_rows = [i for i, r in enumerate(rows) if line_code(r) >= 0]
        full_cols = [j for j in range(len(rows[0])) if line_code([r[j] for r in rows]) >= 0]
        n = len(full_rows) + len(full_cols)
        if n == 0:
            break
        chain += 1
        removed = [
            rows[i][j] for i in range(len(rows)) for j in range(len(rows[0])) if i in full_rows or j in full_cols
        ]
        points += sc * len(removed) * n * chain + sy * removed.count(YOSHI)
        lines += n
        rows = [[v for j, v in enumerate(r) if j not in full_cols] for i, r in enumerate(rows) if i not in full_rows]
        if not rows or not rows[0]:
            rows = []
    return rows, points, lines, chain


def _shift(a: int, b: int, n: int) -> int:
    """Shortest signed way from a to b on a cycle of n; exactly half way goes negative (up/left)."""
    d = (b - a) % n
    return d if d < n - d else -(n - d) if d else 0


def _dist(a: int, b: int, n: int) -> int:
    return abs(_shift(a, b, n))


def _walk(plan: list[str], a: int, b: int, n: int, forward: str, back: str) -> int:
    """Move the cursor from a to b on a cycle of n the shorter way: its presses onto ``plan``, its steps (two a
    press) returned."""
    s = _shift(a, b, n)
    plan.append((forward if s > 0 else back) * abs(s))
    return 2 * abs(s)


def build_row(
    rows: list[list[int]], cursor: tuple[int, int], r: int, t: int, follows: bool
) -> tuple[int, int, str] | None:
    """The article's greedy builder for row r of type t, written plainly from its prose (rules A18-A20).

    Returns (points, steps, plan) when the build clears something, None when it cannot finish.
    """
    g = [list(row) for row in rows]
    R, C = len(g), len(g[0])
    cr, cc = cursor
    plan: list[str] = []
    steps = 0

    def cost(i: int, j: int, p: int) -> int:
        if j == p:
            return 2 + 2 * _dist(i, r, R)
        extra = 2 * _dist(p, j, C) if follows else 0
        return 2 * _dist(cr, i, R) + extra + 2 + 2 * _dist(j, p, C) + 2 + 2 * _dist(i, r, R)

    def rotate(kind: str, index: int, step: int) -> int | None:
        nonlocal cr, cc, g
        if kind == "col":
            col = [g[i][index] for i in range(R)]
            for i in range(R):
                g[(i + step) % R][index] = col[i]
            cr = (cr + step) % R if follows else cr
            plan.append("d" if step > 0 else "u")
        else:
            row = list(g[index])
            for j in range(C):
                g[index][(j + step) % C] = row[j]
            cc = (cc + step) % C if follows else cc
            plan.append("r" if step > 0 else "l")
        _, points, lines, _ = resolve(g)
        return points if lines else None

    def turn(kind: str, index: int, k: int) -> int | None:
        """Hold A and shift line ``index`` by k, a cell at a time: the points of the first clear, None if none."""
        nonlocal steps
        steps += 2
        for _k in range(abs(k)):
            steps += 2
            points = rotate(kind, index, 1 if k > 0 else -1)
            if points is not None:
                return points
        return None

    for _ in range(C + 1):
        spaces = [j for j in range(C) if g[r][j] not in (t, YOSHI)]
        if not spaces:
            return None
        p = min(spaces, key=lambda j: (_dist(cc, j, C), j))
        steps += _walk(plan, cc, p, C, "R", "L")
        cc = p
        found = None
        for want in (t, YOSHI):
            cells = [(cost(i, j, p), i, j) for i in range(R) for j in range(C) if i != r and g[i][j] == want]
            if cells:
                found = min(cells)
                break
        if found is None:
            return None
        _, i, j = found
        if j != p:
            steps += _walk(plan, cr, i, R, "D", "U")
            cr = i
            if follows:
                steps += _walk(plan, p, j, C, "R", "L")
                cc = j
            points = turn("row", i, _shift(j, p, C))
            if points is not None:
                return points, steps, "".join(plan)
        points = turn("col", p, _shift(i, r, R))
        if points is not None:
            return points, steps, "".join(plan)
    return None
