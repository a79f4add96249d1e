"""Numba beam search for the ``beam`` bot: chain-potential evaluation and one beam over a pair queue."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import GARBAGE, N_PLACEMENTS, ROWS, SPAWN_X, VISIBLE_ROWS, WIDTH
from .field import column_heights, group_size, resolve
from .placements import placement_mask, play_pair

NEG = -1.0e18

#: evaluation weights (index -> meaning); tuned by hand on seeds outside the golden/acceptance sets
W_LINKS = 0  # per link of the best chain a few more puyos would trigger
W_NEED = 1  # per puyo that chain still needs
W_CONN = 2  # per pair of touching same-coloured puyos
W_BUMP = 3  # per unit of height difference between neighbouring columns
W_SPAWN = 4  # per row the spawn column stands above 9, squared
W_FIRED = 5  # per link of a chain fired on the search path
W_SCORE = 6  # per point of the potential chain's score (a tie-break between equal lengths)
W_HIGH = 7  # per row over 10, squared, in any column
N_WEIGHTS = 8
DEFAULT_WEIGHTS = np.array([100.0, 12.0, 4.0, 2.0, 25.0, 100.0, 0.0005, 6.0])


@njit(cache=True)
def potential(field: np.ndarray, heights: np.ndarray, n_colours: int, work: np.ndarray, h2: np.ndarray,
              stats: np.ndarray) -> tuple[int, int, int]:
    """The longest chain that dropping 1 to 3 puyos of one colour onto one column would fire.

    Returns (links, score, puyos needed); (0, 0, 0) when nothing can be triggered that way.
    """
    best_links = 0
    best_score = 0
    best_need = 0
    for x in range(WIDTH):
        h = heights[x]
        if h >= VISIBLE_ROWS - 1:
            continue
        for c in range(1, n_colours + 1):
            touch = (h > 0 and field[x, h - 1] == c) or (x > 0 and heights[x - 1] > h and field[x - 1, h] == c) \
                or (x < WIDTH - 1 and heights[x + 1] > h and field[x + 1, h] == c)
            if not touch:
                continue
            work[:, :] = field
            h2[:] = heights
            need = 0
            while need < 3 and h2[x] < VISIBLE_ROWS:
                work[x, h2[x]] = c
                h2[x] += 1
                need += 1
                if group_size(work, x, h2[x] - 1) >= 4:
                    break
            if group_size(work, x, h2[x] - 1) < 4:
                continue
            score = resolve(work, h2, stats)
            links = stats[0]
            if links > best_links or (links == best_links and need < best_need) or (
                links == best_links and need == best_need and score > best_score
            ):
                best_links = links
                best_score = score
                best_need = need
    return best_links, best_score, best_need


@njit(cache=True)
def evaluate(field: np.ndarray, heights: np.ndarray, n_colours: int, w: np.ndarray, work: np.ndarray,
             h2: np.ndarray, stats: np.ndarray) -> float:
    """How promising a field is for a big chain: potential chain, connections, shape."""
    links, score, need = potential(field, heights, n_colours, work, h2, stats)
    conn = 0
    for x in range(WIDTH):
        top = min(heights[x], VISIBLE_ROWS)
        for y in range(top):
            c = field[x, y]
            if c == GARBAGE:
                continue
            if y + 1 < top and field[x, y + 1] == c:
                conn += 1
            if x + 1 < WIDTH and y < heights[x + 1] and field[x + 1, y] == c:
                conn += 1
    bump = 0
    high = 0
    for x in range(WIDTH):
        if x + 1 < WIDTH:
            bump += abs(heights[x] - heights[x + 1])
        if heights[x] > 10:
            high += (heights[x] - 10) ** 2
    spawn = max(0, heights[SPAWN_X] - 9)
    value = w[W_LINKS] * links - w[W_NEED] * need + w[W_SCORE] * score
    value += w[W_CONN] * conn - w[W_BUMP] * bump - w[W_SPAWN] * spawn * spawn - w[W_HIGH] * high
    return value


@njit(cache=True)
def _hash(field: np.ndarray) -> np.int64:
    h = np.int64(1469598103934665603)
    for x in range(WIDTH):
        for y in range(ROWS):
            h = (h ^ np.int64(field[x, y])) * np.int64(1099511628211)
    return h


@njit(cache=True)
def beam_search(
    root: np.ndarray,
    queue: np.ndarray,
    width: int,
    n_colours: int,
    remaining: int,
    garbage: int,
    fire_links: int,
    w: np.ndarray,
    crossable: int,
    out: np.ndarray,
) -> None:
    """One beam over ``queue`` (pairs, first = current) from ``root``; ``out[p]`` gets the value of first
    placement p: (deepest level its line reached) * 1e9 + the best value at that level (NEG if illegal).

    ``remaining`` = pairs left in the game including the current one (potential is worthless after the
    last); ``garbage`` falls (spread evenly) after the first placement; a fired chain of at least
    ``fire_links`` links (if > 0) is worth more than any build.
    """
    depth = min(queue.shape[0], remaining)
    cap = width * N_PLACEMENTS
    fields = np.zeros((width, WIDTH, ROWS), dtype=np.uint8)
    fired = np.zeros(width, dtype=np.int64)
    first = np.zeros(width, dtype=np.int64)
    cf = np.zeros((cap, WIDTH, ROWS), dtype=np.uint8)
    cfired = np.zeros(cap, dtype=np.int64)
    cfirst = np.zeros(cap, dtype=np.int64)
    cval = np.zeros(cap)
    heights = np.zeros(WIDTH, dtype=np.int64)
    h2 = np.zeros(WIDTH, dtype=np.int64)
    h3 = np.zeros(WIDTH, dtype=np.int64)
    work = np.zeros((WIDTH, ROWS), dtype=np.uint8)
    mask = np.zeros(N_PLACEMENTS, dtype=np.bool_)
    pos = np.zeros(4, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    for p in range(N_PLACEMENTS):
        out[p] = NEG
    fields[0] = root
    n = 1
    for d in range(depth):
        a = queue[d, 0]
        c = queue[d, 1]
        m = 0
        for i in range(n):
            column_heights(fields[i], heights)
            placement_mask(heights, a == c, crossable, mask)
            for p in range(N_PLACEMENTS):
                if not mask[p]:
                    continue
                cf[m] = fields[i]
                h2[:] = heights
                if play_pair(cf[m], h2, p, a, c, pos, stats) < 0:
                    continue
                if d == 0 and garbage > 0:
                    g = min(garbage, 30)
                    for k in range(g):
                        col = k % WIDTH
                        if h2[col] < ROWS:
                            cf[m, col, h2[col]] = GARBAGE
                            h2[col] += 1
                if cf[m, SPAWN_X, VISIBLE_ROWS - 1] != 0:
                    continue  # dead
                links = stats[0]
                fl = max(fired[i], links) if d > 0 else links
                cfired[m] = fl
                cfirst[m] = p if d == 0 else first[i]
                fired_value = w[W_FIRED] * fl
                if fire_links > 0 and fl >= fire_links:
                    fired_value += 1.0e7
                if remaining - d - 1 > 0:
                    ev = evaluate(cf[m], h2, n_colours, w, work, h3, stats)
                    cval[m] = max(fired_value, ev)
                else:
                    cval[m] = fired_value
                m += 1
        if m == 0:
            break
        order = np.argsort(-cval[:m])
        seen = set()
        n = 0
        for j in order:
            hsh = _hash(cf[j])
            if hsh in seen:
                continue
            seen.add(hsh)
            fields[n] = cf[j]
            fired[n] = cfired[j]
            first[n] = cfirst[j]
            v = (d + 1) * 1.0e9 + cval[j]
            if v > out[first[n]]:
                out[first[n]] = v
            n += 1
            if n >= width:
                break
