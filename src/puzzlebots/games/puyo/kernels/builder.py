"""The ``builder`` bot's search (numba): one wide beam per sampled future, futures searched in parallel.

As in ama (citrus610/ama, ``ai/search/beam``, after takapt's Monte-Carlo beam): each future is the known pairs
followed by sampled ones; a beam of ``width`` fields, ranked by the static evaluation (``chain_eval``) plus the
path's action costs, is pushed ``depth`` pairs deep. What a first placement is worth in one future is the
largest chain fired anywhere below it (a node that fires a chain of ``prune`` points or more is recorded and
not expanded: it spent its chain). The bot sums that over futures, which is the expected largest chain: it
fires now only when the chain now beats what building on is expected to fire within the horizon (the
horizon ends with the game, so the last chain comes before the last pair).

Futures run in ``prange``: each writes only its own row of the output, so the result never depends on which
thread ran what (same seed, same moves).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..rules import N_PLACEMENTS, PLACEMENT_R, WIDTH
from .bitboard import NWORDS, U0, U1, column_heights, play_child, reachable
from .chain_eval import W_TEAR, W_WASTE, evaluate

NEG = -1.0e18

#: search parameters (index -> meaning) of the ``params`` array
P_WIDTH = 0  # fields kept per depth
P_COLOURS = 1  # colours in play
P_REMAINING = 2  # pairs left in the game including the current one (the search stops there)
P_GARBAGE = 3  # garbage assumed to fall (spread evenly) after the first placement
P_CROSSABLE = 4  # the tallest column height a pair can still cross (``engine.REACH_RULES``)
P_PRUNE = 5  # a node that fired a chain of at least this many points is not expanded
P_DISCOUNT = 6  # per mille: a chain fired d pairs after the current one counts discount ** d (unseen pairs
#                 make a deep line's chain less sure than the beam, which saw its future, believes)
N_PARAMS = 7


def search_params(width: int, n_colours: int, crossable: int, prune: int, discount: int) -> np.ndarray:
    """A ``params`` array for one game; the caller sets ``P_REMAINING`` and ``P_GARBAGE`` per decision."""
    params = np.zeros(N_PARAMS, dtype=np.int64)
    params[P_WIDTH] = width
    params[P_COLOURS] = n_colours
    params[P_CROSSABLE] = crossable
    params[P_PRUNE] = prune
    params[P_DISCOUNT] = discount
    return params


@njit(cache=True, inline="always")
def _hash(b: np.ndarray) -> np.uint64:
    """An FNV-style hash of the words, never 0 (0 marks an empty slot of the table)."""
    h = np.uint64(1469598103934665603)
    for i in range(NWORDS):
        h = (h ^ b[i]) * np.uint64(1099511628211)
    return h | U1


@njit(cache=True)
def _expand(
    fields: np.ndarray,
    action: np.ndarray,
    first: np.ndarray,
    n: int,
    pair: np.ndarray,
    d: int,
    params: np.ndarray,
    w: np.ndarray,
    chains: np.ndarray,
    cf: np.ndarray,
    caction: np.ndarray,
    cfirst: np.ndarray,
    cval: np.ndarray,
    keys: np.ndarray,
    slots: np.ndarray,
) -> int:
    """Every child of the ``n`` parents for ``pair``: records fired chains per first placement in ``chains``,
    keeps one child per distinct field (the best action cost) in ``cf``...; returns how many."""
    a = pair[0]
    c = pair[1]
    heights = np.zeros(WIDTH, dtype=np.int64)
    mask = np.zeros(N_PLACEMENTS, dtype=np.bool_)
    pos = np.zeros(4, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    work = np.zeros(NWORDS, dtype=np.uint64)
    keep = (params[P_DISCOUNT] / 1000.0) ** d
    keys[:] = U0
    size = keys.shape[0]
    m = 0
    for i in range(n):
        reachable(fields[i], a, c, params[P_CROSSABLE], heights, mask)
        for p in range(N_PLACEMENTS):
            if not mask[p]:
                continue
            score = play_child(cf[m], fields[i], p, a, c, params[P_GARBAGE] if d == 0 else 0, pos, stats)
            if score < 0:
                continue  # impossible, or dead: the death cell holds a puyo
            f = p if d == 0 else first[i]
            if score * keep > chains[f]:
                chains[f] = score * keep
            if score >= params[P_PRUNE]:
                continue  # spent its chain: recorded, not built on
            tear = 1 if PLACEMENT_R[p] % 2 == 1 and pos[1] != pos[3] else 0
            act = (0.0 if d == 0 else action[i]) + w[W_TEAR] * tear + w[W_WASTE] * stats[1]
            h = _hash(cf[m])
            s = np.int64(h >> np.uint64(40)) & (size - 1)  # size <= 2**24
            while keys[s] != U0 and keys[s] != h:
                s = (s + 1) & (size - 1)
            if keys[s] == h:  # the same field again: keep the cheaper path to it
                j = slots[s]
                if act > caction[j]:
                    cval[j] += act - caction[j]
                    caction[j] = act
                    cfirst[j] = f
                continue
            keys[s] = h
            slots[s] = m
            column_heights(cf[m], heights)
            caction[m] = act
            cfirst[m] = f
            cval[m] = act + evaluate(cf[m], heights, params[P_COLOURS], params[P_CROSSABLE], w, work, stats)
            m += 1
    return m


@njit(cache=True)
def search_one(
    root: np.ndarray, queue: np.ndarray, params: np.ndarray, w: np.ndarray, chains: np.ndarray, values: np.ndarray
) -> None:
    """One beam over ``queue`` (pairs, first = current) from ``root``: ``chains[p]`` gets the largest chain
    score fired below first placement p, discounted by depth (-1 if p is illegal or its line left the beam
    without firing), ``values[p]`` the best value its line has at the deepest level (a tie-break; NEG if none)."""
    width = params[P_WIDTH]
    depth = min(queue.shape[0], params[P_REMAINING])
    cap = width * N_PLACEMENTS
    size = 1
    while size < 2 * cap:
        size *= 2
    fields = np.zeros((width, NWORDS), dtype=np.uint64)
    action = np.zeros(width)
    first = np.zeros(width, dtype=np.int64)
    cf = np.zeros((cap, NWORDS), dtype=np.uint64)
    caction = np.zeros(cap)
    cfirst = np.zeros(cap, dtype=np.int64)
    cval = np.zeros(cap)
    keys = np.zeros(size, dtype=np.uint64)
    slots = np.zeros(size, dtype=np.int64)
    chains[:] = -1
    values[:] = NEG
    fields[0] = root
    n = 1
    for d in range(depth):
        m = _expand(fields, action, first, n, queue[d], d, params, w, chains, cf, caction, cfirst, cval, keys, slots)
        if m == 0:
            break
        order = np.argsort(-cval[:m])
        n = min(m, width)
        for k in range(n):
            j = order[k]
            fields[k] = cf[j]
            action[k] = caction[j]
            first[k] = cfirst[j]
        for p in range(N_PLACEMENTS):
            values[p] = NEG
        for k in range(n):  # best value per first placement at this (the deepest so far) level
            j = order[k]
            if cval[j] > values[cfirst[j]]:
                values[cfirst[j]] = cval[j]
    for p in range(N_PLACEMENTS):  # a legal first placement whose whole line fired nothing scores 0
        if chains[p] < 0 and values[p] > NEG:
            chains[p] = 0


@njit(cache=True, parallel=True)
def search_many(
    root: np.ndarray, queues: np.ndarray, params: np.ndarray, w: np.ndarray, chains: np.ndarray, values: np.ndarray
) -> None:
    """``search_one`` for each future ``queues[f]`` into row f of ``chains`` and ``values``, in parallel."""
    for f in prange(queues.shape[0]):
        search_one(root, queues[f], params, w, chains[f], values[f])
