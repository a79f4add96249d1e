"""Numba beam search for the ``beam`` bot: chain-potential evaluation and one beam over a pair queue.

Every field here is a bitboard (``kernels.bitboard``): a node is six words, copied in one move.

Arguments come grouped: the search's whole numbers in one ``params`` array (indices ``P_*``), the evaluation
weights in one array (indices ``W_*``), and the scratch arrays reused across calls in one
:func:`new_scratch` tuple, so the signatures stay short while nothing is allocated per node.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import GARBAGE, N_PLACEMENTS, SPAWN_X, VISIBLE_ROWS, WIDTH
from .bitboard import (
    NWORDS,
    S1,
    S16,
    S32,
    U0,
    cell,
    colour_cells,
    column_heights,
    drop_puyo,
    group_size,
    play_child,
    reachable,
    resolve_moved,
)
from .bits import popcount, to_int

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
def new_scratch() -> tuple[np.ndarray, np.ndarray]:
    """The evaluation's scratch arrays, allocated once per search: a field copy and ``resolve``'s stats."""
    return np.zeros(NWORDS, dtype=np.uint64), np.zeros(3, dtype=np.int64)


@njit(cache=True)
def _touches(b: np.ndarray, heights: np.ndarray, x: int, c: int) -> bool:
    """True when a puyo of colour c resting on column x would touch a puyo of its colour."""
    h = heights[x]
    return (
        (h > 0 and cell(b, x, h - 1) == c)
        or (x > 0 and heights[x - 1] > h and cell(b, x - 1, h) == c)
        or (x < WIDTH - 1 and heights[x + 1] > h and cell(b, x + 1, h) == c)
    )


@njit(cache=True)
def potential(
    b: np.ndarray, heights: np.ndarray, n_colours: int, scratch: tuple[np.ndarray, np.ndarray]
) -> tuple[int, int, int]:
    """The longest chain that dropping 1 to 3 puyos of one colour onto one column would fire.

    Returns (links, score, puyos needed); (0, 0, 0) when nothing can be triggered that way.
    """
    work, stats = scratch
    best_links = 0
    best_score = 0
    best_need = 0
    for x in range(WIDTH):
        if heights[x] >= VISIBLE_ROWS - 1:
            continue
        for c in range(1, n_colours + 1):
            if not _touches(b, heights, x, c):
                continue
            work[:] = b
            top = heights[x]
            need = 0
            while need < 3 and top < VISIBLE_ROWS:
                drop_puyo(work, x, c)
                top += 1
                need += 1
                if group_size(work, x, top - 1) >= 4:
                    break
            if group_size(work, x, top - 1) < 4:
                continue
            # the field was stable: only the group of the dropped puyos pops first
            lane = np.uint64(0x1FFF) << np.uint64(16 * (x % 3))
            score = resolve_moved(work, lane if x < 3 else U0, U0 if x < 3 else lane, stats)
            links = stats[0]
            if (
                links > best_links
                or (links == best_links and need < best_need)
                or (links == best_links and need == best_need and score > best_score)
            ):
                best_links = links
                best_score = score
                best_need = need
    return best_links, best_score, best_need


@njit(cache=True)
def connections(b: np.ndarray) -> int:
    """Pairs of touching same-coloured puyos in rows 1..12 (garbage excluded)."""
    conn = 0
    for c in range(1, GARBAGE):
        a, d = colour_cells(b, c)
        if (a | d) == U0:
            continue
        conn += to_int(popcount((a >> S1) & a)) + to_int(popcount((d >> S1) & d))
        conn += to_int(popcount(((a >> S16) | (d << S32)) & a)) + to_int(popcount((d >> S16) & d))
    return conn


@njit(cache=True)
def evaluate(
    b: np.ndarray, heights: np.ndarray, n_colours: int, w: np.ndarray, scratch: tuple[np.ndarray, np.ndarray]
) -> float:
    """How promising a field is for a big chain: potential chain, connections, shape."""
    links, score, need = potential(b, heights, n_colours, scratch)
    conn = connections(b)
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
def _hash(b: np.ndarray) -> np.uint64:
    """An FNV-style hash of the words: the beam keeps one node per distinct field."""
    h = np.uint64(1469598103934665603)
    for i in range(NWORDS):
        h = (h ^ b[i]) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def _node_value(
    b: np.ndarray,
    heights: np.ndarray,
    fired: int,
    d: int,
    params: np.ndarray,
    w: np.ndarray,
    scratch: tuple[np.ndarray, np.ndarray],
) -> float:
    """A node at depth ``d`` whose path fired ``fired`` links: the fired chain or the field's promise,
    whichever is worth more (only the fired chain counts once no pair is left)."""
    fired_value = w[W_FIRED] * fired
    fire_links = params[P_FIRE_LINKS]
    if fire_links > 0 and fired >= fire_links:
        fired_value += 1.0e7
    if params[P_REMAINING] - d - 1 > 0:
        return max(fired_value, evaluate(b, heights, params[P_COLOURS], w, scratch))
    return fired_value


@njit(cache=True)
def beam_search(root: np.ndarray, queue: np.ndarray, params: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:
    """One beam over ``queue`` (pairs, first = current) from the bitboard ``root``; ``out[p]`` gets the value of
    first placement p: (deepest level its line reached) * 1e9 + the best value at that level (NEG if illegal).

    ``params`` holds the width, colours, pairs remaining, garbage, fire threshold and reach (``P_*``).
    """
    width = params[P_WIDTH]
    depth = min(queue.shape[0], params[P_REMAINING])
    cap = width * N_PLACEMENTS
    fields = np.zeros((width, NWORDS), dtype=np.uint64)
    fired = np.zeros(width, dtype=np.int64)
    first = np.zeros(width, dtype=np.int64)
    cf = np.zeros((cap, NWORDS), dtype=np.uint64)
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
            reachable(fields[i], a, c, params[P_CROSSABLE], heights, mask)
            for p in range(N_PLACEMENTS):
                if not mask[p]:
                    continue
                if play_child(cf[m], fields[i], p, a, c, params[P_GARBAGE] if d == 0 else 0, pos, stats) < 0:
                    continue
                column_heights(cf[m], h2)
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
