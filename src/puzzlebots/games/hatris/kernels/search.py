"""The article's search chain (Q24): every first step times every second step, scored with the tables of
:mod:`.tables`; :mod:`..oracle` is its slow readable twin.

A first step is a placement of the current pair or a use of the top helper (which destroys the pair); a second
step is a placement of the next pair or a use of the helper then on top. Two Alexey uses in a row are searched
over their combined removals (``Tables.sums``), since the chain's end state depends only on those.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..rules import ALEXEY, BAR_FULL, POOL_MAX, STACK, VLADIMIR
from .metrics import cash_term, height_terms, pattern_value, pile_eval, scoring
from .moves import land_eval, pattern_fits, reach
from .params import (
    CAP,
    COUNT,
    H_BARS,
    H_CUR,
    H_NEXT,
    H_NPOOL,
    H_POOL,
    K_ALEXEY,
    K_NONE,
    K_PLACE,
    K_VLADIMIR,
    Decision,
)
from .tables import L_CASH, L_DEAD, L_HEIGHT, L_VANISH, LAND_HATS, landed, load_field, new_field, root_tables

NEG = -1.0e300
#: the running best (float64, 2 x 4): rows BEST (the best chain) and SINGLE (the best single step, Q24's
#: fallback when every chain tops out); columns the score and the first step
BEST, SINGLE = 0, 1
SCORE, KIND, X, Y = 0, 1, 2, 3


class Work(NamedTuple):
    """Buffers of one search, allocated once."""

    tmp: np.ndarray  # (CAP,) int8: a landed pile
    bufs: np.ndarray  # (2, CAP) int8: the two piles a first placement changes
    first: np.ndarray  # (2, 36) int64: placements of the current pair
    src: np.ndarray  # (6,) int64: the root pile each pile of a first step's field comes from
    ks: np.ndarray  # (6,) int64: the bottom hats a first step trims from each pile
    best: np.ndarray  # (2, 4) float64: the running best
    log: np.ndarray  # (0,) or (n_first,) float64: each first step's best chain (see :func:`first_index`)


class Scratch(NamedTuple):
    """Buffers of the second step (apart from :class:`Work`: a kernel pays a reference count per array of it)."""

    heights: np.ndarray  # (6,) int64: the heights after a second step
    second: np.ndarray  # (2, 36) int64: placements of the next pair


@njit(cache=True)
def search(board, hand, rules, weights, tables):  # type: ignore[no-untyped-def]
    """The best first step (kind, x, y, score), see ``params.K_*``: the score is the best chain's, or when every
    chain tops out the best single step's (Q24), with kind ``K_NONE`` when every first step tops out."""
    best = chains(board, hand, rules, weights, tables, np.zeros(0))
    row = SINGLE if best[BEST, KIND] == K_NONE else BEST
    return int(best[row, KIND]), int(best[row, X]), int(best[row, Y]), best[row, SCORE]


@njit(cache=True)
def first_index(kind, x, y, npats):  # type: ignore[no-untyped-def]
    """A first step's slot in a chain log: placements 0-35 (6 x + y), Alexey removals 36 + x, Vladimir swaps
    36 + npats + x (``npats``: rows of ``Tables.pats``)."""
    if kind == K_PLACE:
        return 6 * x + y
    if kind == K_ALEXEY:
        return 36 + x
    return 36 + npats + x


@njit(cache=True)
def _note(log, i, v):  # type: ignore[no-untyped-def]
    """Keep the best chain ``v`` of the first step in slot ``i`` of ``log`` (an empty log keeps nothing)."""
    if log.shape[0] > 0 and v > log[i]:
        log[i] = v


@njit(cache=True)
def chains(board, hand, rules, weights, tables, log):  # type: ignore[no-untyped-def]
    """The search's running best (rows BEST and SINGLE, columns SCORE, KIND, X, Y); a non-empty ``log``
    (length :func:`first_index` of the last Vladimir swap + 1) receives each first step's best chain score,
    NEG where every chain of it tops out (the caller fills it with NEG)."""
    d = Decision(board, board[:, COUNT].astype(np.int64), hand, scoring(rules, weights), tables)
    w = Work(
        np.zeros(CAP, np.int8),
        np.zeros((2, CAP), np.int8),
        np.zeros((2, 36), np.int64),
        np.arange(6),
        np.zeros(6, np.int64),
        np.zeros((2, 4)),
        log,
    )
    s2 = Scratch(np.zeros(6, np.int64), np.zeros((2, 36), np.int64))
    best = w.best
    best[:, SCORE] = NEG
    best[:, KIND] = K_NONE
    root = root_tables(d, w.tmp)
    f = new_field()
    base_sum = 0.0
    for p in range(6):
        base_sum += root.score[p, 0]
    _first_placements(d, root, f, w, s2, base_sum)
    kind1 = _pool_top(hand, 0)
    if kind1 == ALEXEY:
        _first_alexey(d, root, f, w, s2)
    elif kind1 == VLADIMIR:
        _first_vladimir(d, root, f, w, s2, base_sum)
    return best


@njit(cache=True)
def _offer(best, row, v, kind, x, y):  # type: ignore[no-untyped-def]
    """Keep (v, kind, x, y) in ``row`` of the running best if ``v`` beats it (the first of equals stays)."""
    if v > best[row, SCORE]:
        best[row, SCORE] = v
        best[row, KIND] = kind
        best[row, X] = x
        best[row, Y] = y


@njit(cache=True)
def _pool_top(hand, depth):  # type: ignore[no-untyped-def]
    """The helper ``depth`` below the top of the pool, -1 where there is none."""
    n = hand[H_NPOOL]
    return hand[H_POOL + n - 1 - depth] if n > depth else -1


@njit(cache=True)
def _pool_top_after(hand, group, info, pa, pb):  # type: ignore[no-untyped-def]
    """The helper on top of the pool after the first placement (pa, pb) (``info``: the root's landings): each
    vanished stack (left pile first) fills its bar, and a full bar earns a helper while the pool has room."""
    bar0 = hand[H_BARS]
    bar1 = hand[H_BARS + 1]
    n = hand[H_NPOOL]
    top = hand[H_POOL + n - 1] if n > 0 else -1
    for side in range(2):
        p = min(pa, pb) if side == 0 else max(pa, pb)
        which = 2 if p == pa else 3
        if not info[p, 0, which, L_VANISH]:
            continue
        g = group[hand[LAND_HATS[which]]]
        if g == ALEXEY:
            bar0 += 1
            full = bar0 >= BAR_FULL
            if full:
                bar0 = 0
        else:
            bar1 += 1
            full = bar1 >= BAR_FULL
            if full:
                bar1 = 0
        if full and n < POOL_MAX:
            n += 1
            top = g
    return top


@njit(cache=True)
def _first_placements(d, root, f, w, s2, base_sum):  # type: ignore[no-untyped-def]
    """First steps that place the current pair (sorted), each with its best second step. The two piles a
    placement changes are materialized and tabled in the loop (a call per pile would cost reference counts)."""
    board, counts, hand, sc = d.board, d.counts, d.hand, d.sc
    nest, height, cash, group, pdt = d.tables.nest, d.tables.height, d.tables.cash, d.tables.group, d.tables.pdt
    r_score, r_land, r_info = root.score, root.land, root.info
    f_height, f_counts, trim_score, trim_height, f_land, f_info = f
    first, src, ks, best, bufs, tmp = w.first, w.src, w.ks, w.best, w.bufs, w.tmp
    na = reach(root.height[:, 0], hand[H_CUR], hand[H_CUR + 1], first)
    for i in range(na):
        pa = first[0, i]
        pb = first[1, i]
        if r_info[pa, 0, 2, L_DEAD] or r_info[pb, 0, 3, L_DEAD]:
            continue
        load_field(f, root, counts, src, ks)
        cash1 = r_info[pa, 0, 2, L_CASH] + r_info[pb, 0, 3, L_CASH]
        if r_info[pa, 0, 2, L_VANISH] and r_info[pb, 0, 3, L_VANISH]:
            cash1 += sc.bonus
        for side in range(2):
            p = pa if side == 0 else pb
            buf = bufs[side]
            _, h, _, _, ln = land_eval(board[p], 0, counts[p], hand[H_CUR + side], buf, nest, height, sc)
            f_height[p] = h
            f_counts[p] = ln
            for k in range(min(ln, STACK) + 1):
                trim_score[p, k], trim_height[p, k] = pile_eval(buf, k, ln, nest, height, sc)
            for which in range(2):
                u = hand[H_NEXT + which]
                a, h, dead, van, _ = land_eval(buf, 0, ln, u, tmp, nest, height, sc)
                f_land[p, which] = a
                landed(f_info[p], which, h, dead, van, cash[u])
        top_kind = _pool_top_after(hand, group, r_info, pa, pb)
        s_sum = base_sum - r_score[pa, 0] - r_score[pb, 0] + r_land[pa, 0, 2] + r_land[pb, 0, 3]
        one = sc.const + s_sum + height_terms(f_height, pdt, sc) + cash_term(cash1, sc)
        _offer(best, SINGLE, one, K_PLACE, pa, pb)
        v = _second_step(f, s_sum, cash1, top_kind, d, s2)
        _offer(best, BEST, v, K_PLACE, pa, pb)
        _note(w.log, 6 * pa + pb, v)


@njit(cache=True)
def _first_alexey(d, root, f, w, s2):  # type: ignore[no-untyped-def]
    """First steps that use Alexey: every removal, then (for a second Alexey) every combined removal."""
    counts, sc = d.counts, d.sc
    pats, sums, split, pdt = d.tables.pats, d.tables.sums, d.tables.split, d.tables.pdt
    r_score, r_height = root.score, root.height
    src, best, hs = w.src, w.best, s2.heights
    height = f.height
    kind2 = _pool_top(d.hand, 1)
    for q in range(pats.shape[0]):
        if not pattern_fits(pats, q, counts):
            continue
        load_field(f, root, counts, src, pats[q])
        s_sum = 0.0
        for p in range(6):
            s_sum += r_score[p, pats[q, p]]
        one = sc.const + s_sum + height_terms(height, pdt, sc)
        _offer(best, SINGLE, one, K_ALEXEY, q, 0)
        # Alexey after Alexey is searched below over the combined removals
        v = _second_step(f, s_sum, 0, kind2 if kind2 == VLADIMIR else -1, d, s2)
        _offer(best, BEST, v, K_ALEXEY, q, 0)
        _note(w.log, 36 + q, v)
    if kind2 != ALEXEY:
        return
    for q in range(sums.shape[0]):
        if not pattern_fits(sums, q, counts):
            continue
        v = pattern_value(sums, q, r_score, r_height, hs, pdt, sc)
        _offer(best, BEST, v, K_ALEXEY, split[q], 0)
        _note(w.log, 36 + split[q], v)


@njit(cache=True)
def _first_vladimir(d, root, f, w, s2, base_sum):  # type: ignore[no-untyped-def]
    """First steps that use Vladimir: every swap of two piles."""
    counts, sc = d.counts, d.sc
    swaps, pdt = d.tables.swaps, d.tables.pdt
    src, ks, best = w.src.copy(), w.ks, w.best
    height = f.height
    kind2 = _pool_top(d.hand, 1)
    for q in range(swaps.shape[0]):
        i = swaps[q, 0]
        j = swaps[q, 1]
        src[i] = j
        src[j] = i
        load_field(f, root, counts, src, ks)
        src[i] = i
        src[j] = j
        one = sc.const + base_sum + height_terms(height, pdt, sc)
        _offer(best, SINGLE, one, K_VLADIMIR, q, 0)
        v = _second_step(f, base_sum, 0, kind2, d, s2)
        _offer(best, BEST, v, K_VLADIMIR, q, 0)
        _note(w.log, 36 + d.tables.pats.shape[0] + q, v)


@njit(cache=True)
def _second_step(f, s_sum, cash1, kind2, d, s2):  # type: ignore[no-untyped-def]
    """Best score over the second steps from the field ``f`` (``s_sum`` its pile scores, ``cash1`` the cash of
    the first step): placements of the next pair, then uses of the helper ``kind2`` (-1: none)."""
    hand, sc, pdt = d.hand, d.sc, d.tables.pdt
    height, counts, trim_score, trim_height, land, info = f
    hs, second = s2
    best = NEG
    nb = reach(height, hand[H_NEXT], hand[H_NEXT + 1], second)
    for i in range(nb):
        x = second[0, i]
        y = second[1, i]
        if info[x, 0, L_DEAD] or info[y, 1, L_DEAD]:
            continue
        for p in range(6):
            hs[p] = height[p]
        hs[x] = info[x, 0, L_HEIGHT]
        hs[y] = info[y, 1, L_HEIGHT]
        c = cash1 + info[x, 0, L_CASH] + info[y, 1, L_CASH]
        if info[x, 0, L_VANISH] and info[y, 1, L_VANISH]:
            c += sc.bonus
        v = sc.const + s_sum - trim_score[x, 0] - trim_score[y, 0] + land[x, 0] + land[y, 1]
        v += height_terms(hs, pdt, sc) + cash_term(c, sc)
        if v > best:
            best = v
    return max(best, helper_second(height, counts, trim_score, trim_height, s_sum, cash1, kind2, d, hs))


@njit(cache=True)
def helper_second(height, counts, trim_score, trim_height, s_sum, cash1, kind2, d, hs):  # type: ignore[no-untyped-def]
    """Best score over the second steps that use the helper ``kind2`` (-1: none, NEG) from a field given by its
    heights, hat counts and trimmed pile tables (``s_sum`` its pile scores, ``cash1`` the first step's cash); a
    helper destroys the falling pair, so this part does not depend on it. ``hs``: a (6,) buffer."""
    sc = d.sc
    pats, swaps, pdt = d.tables.pats, d.tables.swaps, d.tables.pdt
    best = NEG
    ct = cash_term(cash1, sc)
    if kind2 == ALEXEY:
        for q in range(pats.shape[0]):
            if not pattern_fits(pats, q, counts):
                continue
            v = pattern_value(pats, q, trim_score, trim_height, hs, pdt, sc) + ct
            if v > best:
                best = v
    elif kind2 == VLADIMIR:
        for q in range(swaps.shape[0]):
            for p in range(6):
                hs[p] = height[p]
            i = swaps[q, 0]
            j = swaps[q, 1]
            hs[i] = height[j]
            hs[j] = height[i]
            v = sc.const + s_sum + height_terms(hs, pdt, sc) + ct
            if v > best:
                best = v
    return best
