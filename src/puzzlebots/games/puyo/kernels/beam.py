"""Numba beam search for the ``beam`` bot: chain-potential evaluation and one beam over a pair queue.

Arguments come grouped: the search's whole numbers in one ``params`` array (indices ``P_*``), the evaluation
weights in one array (indices ``W_*``), and the scratch arrays reused across calls in one
:func:`new_scratch` tuple, so the signatures stay short while nothing is allocated per node.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import GARBAGE, MAX_GARBAGE_DROP, N_PLACEMENTS, ROWS, SPAWN_X, VISIBLE_ROWS, WIDTH
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

#: search parameters (index -> meaning) of ``beam_search``'s ``params`` array
P_WIDTH = 0  # fields kept per depth
P_COLOURS = 1  # colours in play (the potential tries each)
P_REMAINING = 2  # pairs left in the game including the current one (potential is worthless after the last)
P_GARBAGE = 3  # garbage that falls (spread evenly) after the first placement
P_FIRE_LINKS = 4  # a fired chain of at least this many links (if > 0) is worth more than any build
P_CROSSABLE = 5  # the tallest column height a pair can still cross (``engine.REACH_RULES``)
N_PARAMS = 6


def search_params(width: int, n_colours: int, fire_links: int, crossable: int) -> np.ndarray:
    """A ``params`` array for one game; the caller sets ``P_REMAINING`` and ``P_GARBAGE`` per decision."""
    params = np.zeros(N_PARAMS, dtype=np.int64)
    params[P_WIDTH] = width
    params[P_COLOURS] = n_colours
    params[P_FIRE_LINKS] = fire_links
    params[P_CROSSABLE] = crossable
    return params


@njit(cache=True)
def new_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The evaluation's scratch arrays, allocated once per search: a field copy, its heights, ``resolve``'s stats."""
    return np.zeros((WIDTH, ROWS), dtype=np.uint8), np.zeros(WIDTH, dtype=np.int64), np.zeros(3, dtype=np.int64)


@njit(cache=True)
def potential(field: np.ndarray, heights: np.ndarray, n_colours: int,
              scratch: tuple[np.ndarray, np.ndarray, np.ndarray]) -> tuple[int, int, int]:
    """The longest chain that dropping 1 to 3 puyos of one colour onto one column would fire.

    Returns (links, score, puyos needed); (0, 0, 0) when nothing can be triggered that way.
    """
    work, h2, stats = scratch
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
def evaluate(field: np.ndarray, heights: np.ndarray, n_colours: int, w: np.ndarray,
             scratch: tuple[np.ndarray, np.ndarray, np.ndarray]) -> float:
    """How promising a field is for a big chain: potential chain, connections, shape."""
    links, score, need = potential(field, heights, n_colours, scratch)
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
    """An FNV-style hash of the cells: the beam keeps one node per distinct field."""
    h = np.int64(1469598103934665603)
    for x in range(WIDTH):
        for y in range(ROWS):
            h = (h ^ np.int64(field[x, y])) * np.int64(1099511628211)
    return h


@njit(cache=True)
def _bury(cells: np.ndarray, heights: np.ndarray, garbage: int) -> None:
    """Drop ``garbage`` (at most 30) spread evenly from column 1: what the search assumes falls after its move."""
    for k in range(min(garbage, MAX_GARBAGE_DROP)):
        col = k % WIDTH
        if heights[col] < ROWS:
            cells[col, heights[col]] = GARBAGE
            heights[col] += 1


@njit(cache=True)
def _node_value(cells: np.ndarray, heights: np.ndarray, fired: int, d: int, params: np.ndarray, w: np.ndarray,
                scratch: tuple[np.ndarray, np.ndarray, np.ndarray]) -> float:
    """A node at depth ``d`` whose path fired ``fired`` links: the fired chain or the field's promise,
    whichever is worth more (only the fired chain counts once no pair is left)."""
    fired_value = w[W_FIRED] * fired
    fire_links = params[P_FIRE_LINKS]
    if fire_links > 0 and fired >= fire_links:
        fired_value += 1.0e7
    if params[P_REMAINING] - d - 1 > 0:
        return max(fired_value, evaluate(cells, heights, params[P_COLOURS], w, scratch))
    return fired_value


@njit(cache=True)
def beam_search(root: np.ndarray, queue: np.ndarray, params: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:
    """One beam over ``queue`` (pairs, first = current) from ``root``; ``out[p]`` gets the value of first
    placement p: (deepest level its line reached) * 1e9 + the best value at that level (NEG if illegal).

    ``params`` holds the width, colours, pairs remaining, garbage, fire threshold and reach (``P_*``).
    """
    width = params[P_WIDTH]
    depth = min(queue.shape[0], params[P_REMAINING])
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
    scratch = new_scratch()
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
            placement_mask(heights, a == c, params[P_CROSSABLE], mask)
            for p in range(N_PLACEMENTS):
                if not mask[p]:
                    continue
                cf[m] = fields[i]
                h2[:] = heights
                if play_pair(cf[m], h2, p, a, c, pos, stats) < 0:
                    continue
                if d == 0 and params[P_GARBAGE] > 0:
                    _bury(cf[m], h2, params[P_GARBAGE])
                if cf[m, SPAWN_X, VISIBLE_ROWS - 1] != 0:
                    continue  # dead
                links = stats[0]
                cfired[m] = max(fired[i], links) if d > 0 else links
                cfirst[m] = p if d == 0 else first[i]
                cval[m] = _node_value(cf[m], h2, cfired[m], d, params, w, scratch)
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
