"""The expectimax bot's search: the searcher's chain one pair deeper, averaged over the unseen third pair.

The searcher's chains rank every first step (:func:`.search.chains` with a log); the best ``keep`` of them are
played out on a copy of the field (piles, helper bars and pool), and from each resulting field the searcher's
two-step chain is searched once per possible third pair, with the next pair now falling. A first step's value is
the probability-weighted mean of those best chains plus the weighted cash it pays itself; a third pair whose
every chain tops out counts as :data:`DEATH`. Level ends (quota, shop refills) are not simulated; the bot
prepares for a refill through ``reserve``, the value of each helper left in the pool after the first step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import BAR_FULL, POOL_MAX
from .metrics import cash_term, scoring
from .moves import land_eval
from .pairs import pair_chains, pair_list
from .params import CAP, COUNT, H_BARS, H_CUR, H_NEXT, H_NPOOL, H_POOL, K_ALEXEY, K_NONE, K_PLACE, K_VLADIMIR
from .search import BEST, KIND, NEG, SCORE, SINGLE, X, Y, chains

#: the value of a third pair after which every chain tops out (finite, so the chance of it is weighed)
DEATH = -1.0e6


@njit(cache=True)
def decode(i, npats, swaps):  # type: ignore[no-untyped-def]
    """The first step (kind, x, y) in slot ``i`` of a chain log (inverse of :func:`.search.first_index`)."""
    if i < 36:
        return K_PLACE, i // 6, i % 6
    if i < 36 + npats:
        return K_ALEXEY, i - 36, 0
    return K_VLADIMIR, i - 36 - npats, 0


@njit(cache=True)
def _earn(hand, group):  # type: ignore[no-untyped-def]
    """A stack of helper ``group`` vanished: fill its bar; a full bar earns a helper while the pool has room."""
    hand[H_BARS + group] += 1
    if hand[H_BARS + group] >= BAR_FULL:
        hand[H_BARS + group] = 0
        n = hand[H_NPOOL]
        if n < POOL_MAX:
            hand[H_POOL + n] = group
            hand[H_NPOOL] = n + 1


@njit(cache=True)
def play_first(board, hand, kind, x, y, tables, sc, out, out_hand, tmp):  # type: ignore[no-untyped-def]
    """Play the first step (kind, x, y) of ``board``/``hand`` into ``out``/``out_hand`` (the pairs left as they
    were); returns (alive, cash paid). ``tmp``: a pile buffer."""
    out[:, :] = board
    out_hand[:] = hand
    cash = 0
    if kind == K_PLACE:
        vanished = 0
        for side in range(2):
            p = min(x, y) if side == 0 else max(x, y)  # the left pile lands first, as the engine does
            hat = hand[H_CUR] if p == x else hand[H_CUR + 1]
            n0 = board[p, COUNT]
            _, _, dead, van, n = land_eval(board[p], 0, n0, hat, tmp, tables.nest, tables.height, sc)
            if dead:
                return False, 0
            out[p, :n] = tmp[:n]
            out[p, COUNT] = n
            if van:
                vanished += 1
                cash += tables.cash[hat]
                _earn(out_hand, tables.group[hat])
        if vanished == 2:
            cash += sc.bonus
        return True, cash
    out_hand[H_NPOOL] -= 1
    out_hand[H_POOL + out_hand[H_NPOOL]] = 0
    if kind == K_ALEXEY:
        for p in range(6):
            k = tables.pats[x, p]
            n = board[p, COUNT] - k
            out[p, :n] = board[p, k : k + n]
            out[p, COUNT] = n
    else:
        i = tables.swaps[x, 0]
        j = tables.swaps[x, 1]
        out[i, :] = board[j]
        out[j, :] = board[i]
    return True, cash


@njit(cache=True)
def expect(board, hand, rules, weights, tables, probs, keep, reserve):  # type: ignore[no-untyped-def]
    """The first step (kind, x, y, value) of the best expected three-pair chain over the searcher's ``keep``
    best first steps; ``probs[a, b]`` (a <= b) the chance of third pair {a, b}. When every chain tops out, the
    searcher's own fallback (its best single step, or kind K_NONE). ``reserve``: the value of each helper in the
    pool after the first step (0: none), also charged to the helper first steps when ranking them."""
    npats = tables.pats.shape[0]
    log = np.full(36 + npats + tables.swaps.shape[0], NEG)
    best = chains(board, hand, rules, weights, tables, log)
    if best[BEST, KIND] == K_NONE:
        return int(best[SINGLE, KIND]), int(best[SINGLE, X]), int(best[SINGLE, Y]), best[SINGLE, SCORE]
    if reserve > 0.0:
        for i in range(36, log.shape[0]):
            if log[i] > NEG:
                log[i] -= reserve
    sc = scoring(rules, weights)
    order = np.argsort(-log, kind="mergesort")  # stable: the first of equal chains first, as the searcher
    b1 = np.zeros((6, CAP + 1), np.int8)
    h1 = np.zeros_like(hand)
    tmp = np.zeros(CAP, np.int8)
    pairs = pair_list(probs)
    top = NEG
    pick = order[0]
    for r in range(min(keep, log.shape[0])):
        i = order[r]
        if log[i] <= NEG:
            break
        kind, x, y = decode(i, npats, tables.swaps)
        alive, cash1 = play_first(board, hand, kind, x, y, tables, sc, b1, h1, tmp)
        if not alive:
            continue
        h1[H_CUR] = hand[H_NEXT]
        h1[H_CUR + 1] = hand[H_NEXT + 1]
        h1[H_NEXT] = hand[H_NEXT]
        h1[H_NEXT + 1] = hand[H_NEXT + 1]
        pairs.best[:] = NEG
        pair_chains(b1, h1, sc, tables, pairs)
        v = cash_term(cash1, sc) + reserve * h1[H_NPOOL]
        for j in range(pairs.best.shape[0]):
            bj = pairs.best[j]
            v += probs[pairs.a[j], pairs.b[j]] * (bj if bj > NEG else DEATH)
        if v > top:
            top = v
            pick = i
    kind, x, y = decode(pick, npats, tables.swaps)
    return kind, x, y, top
