"""The searcher's two-step chain from one field, for every possible next pair at once (the expectimax bot's inner
search).

Calling :func:`.search.chains` once per possible pair (up to 21) redoes for each pair all that does not depend
on it: the root's tables, the field of every first step, and every second step that uses a helper (a helper
destroys the falling pair). Here those are built once; each pile's tables land every hat type instead of the
two hats of one pair, and only the placements of the pair are searched per pair. Each pair's value is the one
``chains`` gives (the same sums in the same order; the tests compare them exactly).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..evaluation import CASH_NORM
from ..rules import ALEXEY, STACK, VLADIMIR
from .metrics import cash_term, height_terms, pattern_value, pile_eval
from .moves import land_eval, pattern_fits, reach
from .params import CAP, COUNT, H_CUR, Decision
from .search import NEG, _pool_top, _pool_top_after, helper_second
from .tables import L_CASH, L_DEAD, L_HEIGHT, L_SIZE, L_VANISH, landed, root_tables

#: hat types 1-6 (index 0 unused) in the per-type landing tables
TYPES = 7
#: relative margin on a bound before it prunes (the bound sums in another order than the value it bounds)
SLACK = 1e-9


class Pairs(NamedTuple):
    """The possible next pairs {a, b} (a <= b) and, per pair, the best chain found so far (NEG: none)."""

    a: np.ndarray  # (n,) int64
    b: np.ndarray  # (n,) int64
    best: np.ndarray  # (n,) float64


class TypeField(NamedTuple):
    """The field after a first step (as :class:`.tables.Field`), with every hat type landed on every pile."""

    height: np.ndarray  # (6,) int64
    counts: np.ndarray  # (6,) int64
    trim_score: np.ndarray  # (6, STACK + 1) float64
    trim_height: np.ndarray  # (6, STACK + 1) int64
    land: np.ndarray  # (6, TYPES) float64: the score with a hat of type t landed on pile p, [p, t]
    info: np.ndarray  # (6, TYPES, L_SIZE) int64: the rest of that landing


class Buffers(NamedTuple):
    """Buffers of one search, allocated once."""

    tmp: np.ndarray  # (CAP,) int8
    buf: np.ndarray  # (CAP,) int8: a pile a first placement changes
    first: np.ndarray  # (2, 36) int64: placements of the falling pair
    mixed: np.ndarray  # (2, 36) int64: placements of a pair of two types
    double: np.ndarray  # (2, 36) int64: placements of a double
    src: np.ndarray  # (6,) int64
    hs: np.ndarray  # (6,) int64
    ext: np.ndarray  # (TYPES,) float64: see :func:`type_bounds`
    van: np.ndarray  # (TYPES,) bool


@njit(cache=True)
def pair_list(probs):  # type: ignore[no-untyped-def]
    """The pairs with a chance in ``probs`` ([a, b], a <= b), their best chains set to NEG."""
    n = 0
    for a in range(1, TYPES):
        for b in range(a, TYPES):
            if probs[a, b] != 0.0:
                n += 1
    pa = np.zeros(n, np.int64)
    pb = np.zeros(n, np.int64)
    i = 0
    for a in range(1, TYPES):
        for b in range(a, TYPES):
            if probs[a, b] != 0.0:
                pa[i] = a
                pb[i] = b
                i += 1
    return Pairs(pa, pb, np.full(n, NEG))


@njit(cache=True)
def type_tables(d, tmp):  # type: ignore[no-untyped-def]
    """Every hat type landed on every pile of ``d`` with k = 0..STACK bottom hats trimmed: (score, info)."""
    board, counts, sc = d.board, d.counts, d.sc
    nest, height, cash = d.tables.nest, d.tables.height, d.tables.cash
    land = np.zeros((6, STACK + 1, TYPES))
    info = np.zeros((6, STACK + 1, TYPES, L_SIZE), np.int64)
    for p in range(6):
        for k in range(min(counts[p], STACK) + 1):
            for t in range(1, TYPES):
                a, h, dead, van, _ = land_eval(board[p], k, counts[p], t, tmp, nest, height, sc)
                land[p, k, t] = a
                landed(info[p, k], t, h, dead, van, cash[t])
    return land, info


@njit(cache=True)
def load_types(f, root, t_land, t_info, counts, src, ks):  # type: ignore[no-untyped-def]
    """The field ``f`` of a first step whose pile p is root pile ``src[p]`` with ``ks[p]`` bottom hats trimmed."""
    height, f_counts, trim_score, trim_height, land, info = f
    for p in range(6):
        s = src[p]
        k = ks[p]
        height[p] = root.height[s, k]
        f_counts[p] = counts[s] - k
        for j in range(STACK + 1):
            trim_score[p, j] = root.score[s, k + j]
            trim_height[p, j] = root.height[s, k + j]
        for t in range(1, TYPES):
            land[p, t] = t_land[s, k, t]
            for i in range(L_SIZE):
                info[p, t, i] = t_info[s, k, t, i]


@njit(cache=True)
def height_bound(sc):  # type: ignore[no-untyped-def]
    """The most the weighted metrics 6 and 7 can add (permutation distance 0-5, metric 7 in 0-1 while every
    pile is at most ``top_px`` tall)."""
    return max(0.0, -sc.w_perm) + max(0.0, sc.w_height_diffs)


@njit(cache=True)
def type_bounds(f, sc, ext, van):  # type: ignore[no-untyped-def]
    """For each hat type t, the most landing it on one pile can add to a placement's score (the pile's score
    change, and its stack's cash weighted linearly, an upper bound of the capped cash term) into ``ext[t]``
    (NEG: it tops out everywhere), and whether it can make a stack vanish into ``van[t]``."""
    _, _, trim_score, _, land, info = f
    wc = max(sc.w_cash, 0.0) / CASH_NORM
    for t in range(1, TYPES):
        ext[t] = NEG
        van[t] = False
        for x in range(6):
            if info[x, t, L_DEAD]:
                continue
            ext[t] = max(ext[t], land[x, t] - trim_score[x, 0] + wc * info[x, t, L_CASH])
            van[t] = van[t] or info[x, t, L_VANISH] != 0


@njit(cache=True)
def place_pairs(f, s_sum, cash1, helper, d, w, pairs):  # type: ignore[no-untyped-def]
    """Second steps from the field ``f``: for each pair, the best of its placements and of ``helper`` (the best
    helper second step, NEG: none), kept in ``pairs.best`` where it beats the best so far. A pair whose placements
    cannot beat that (by :func:`type_bounds`) is not searched: the values found stay exact."""
    sc, pdt = d.sc, d.tables.pdt
    height, _, trim_score, _, land, info = f
    hs = w.hs
    type_bounds(f, sc, w.ext, w.van)
    if sc.w_cash >= 0.0:
        base = sc.const + s_sum + height_bound(sc) + sc.w_cash * cash1 / CASH_NORM
    else:
        base = sc.const + s_sum + height_bound(sc) + cash_term(cash1, sc)
    bonus = max(sc.w_cash, 0.0) * max(sc.bonus, 0) / CASH_NORM
    nm = reach(height, 1, 2, w.mixed)
    nd = reach(height, 1, 1, w.double)
    for j in range(pairs.a.shape[0]):
        a = pairs.a[j]
        b = pairs.b[j]
        best = max(pairs.best[j], helper)
        ub = base + w.ext[a] + w.ext[b] + (bonus if w.van[a] and w.van[b] else 0.0)
        if ub + SLACK * (1.0 + abs(ub)) <= best:
            pairs.best[j] = best
            continue
        moves = w.double if a == b else w.mixed
        for i in range(nd if a == b else nm):
            x = moves[0, i]
            y = moves[1, i]
            if info[x, a, L_DEAD] or info[y, b, L_DEAD]:
                continue
            for p in range(6):
                hs[p] = height[p]
            hs[x] = info[x, a, L_HEIGHT]
            hs[y] = info[y, b, L_HEIGHT]
            c = cash1 + info[x, a, L_CASH] + info[y, b, L_CASH]
            if info[x, a, L_VANISH] and info[y, b, L_VANISH]:
                c += sc.bonus
            v = sc.const + s_sum - trim_score[x, 0] - trim_score[y, 0] + land[x, a] + land[y, b]
            v += height_terms(hs, pdt, sc) + cash_term(c, sc)
            if v > best:
                best = v
        pairs.best[j] = best


@njit(cache=True)
def _second(f, s_sum, cash1, kind2, d, w, pairs):  # type: ignore[no-untyped-def]
    """Every second step from the field ``f`` (``kind2``: the helper then on top, -1: none). The helper's steps
    are skipped when even their bound cannot beat any pair's best so far."""
    height, counts, trim_score, trim_height, _, _ = f
    sc = d.sc
    helper = NEG
    if kind2 >= 0:
        ub = sc.const + height_bound(sc) + cash_term(cash1, sc)
        if kind2 == ALEXEY:
            for p in range(6):
                top = NEG
                for k in range(min(counts[p], STACK) + 1):
                    top = max(top, trim_score[p, k])
                ub += top
        else:
            ub += s_sum
        if ub + SLACK * (1.0 + abs(ub)) > pairs.best.min():
            helper = helper_second(height, counts, trim_score, trim_height, s_sum, cash1, kind2, d, w.hs)
    place_pairs(f, s_sum, cash1, helper, d, w, pairs)


@njit(cache=True)
def _retable(f, p, buf, n, d, tmp):  # type: ignore[no-untyped-def]
    """Pile ``p`` of the field ``f`` is ``buf[:n]`` (a hat of the falling pair just landed on it): table it."""
    nest, height, cash, sc = d.tables.nest, d.tables.height, d.tables.cash, d.sc
    trim_score, trim_height, land, info = f.trim_score, f.trim_height, f.land, f.info
    f.counts[p] = n
    for k in range(min(n, STACK) + 1):
        trim_score[p, k], trim_height[p, k] = pile_eval(buf, k, n, nest, height, sc)
    for t in range(1, TYPES):
        a, h, dead, van, _ = land_eval(buf, 0, n, t, tmp, nest, height, sc)
        land[p, t] = a
        landed(info[p], t, h, dead, van, cash[t])


@njit(cache=True)
def _first_placements(d, root, t_land, t_info, f, w, pairs):  # type: ignore[no-untyped-def]
    """First steps that place the falling pair, each with every second step (as ``search._first_placements``),
    the best by their own score first, so that the pairs' bounds prune the rest early."""
    board, counts, hand, sc = d.board, d.counts, d.hand, d.sc
    nest, height, group, ks = d.tables.nest, d.tables.height, d.tables.group, np.zeros(6, np.int64)
    r_info = root.info
    base_sum = 0.0
    for p in range(6):
        base_sum += root.score[p, 0]
    na = reach(root.height[:, 0], hand[H_CUR], hand[H_CUR + 1], w.first)
    own = np.full(na, NEG)
    for i in range(na):
        pa = w.first[0, i]
        pb = w.first[1, i]
        if not (r_info[pa, 0, 2, L_DEAD] or r_info[pb, 0, 3, L_DEAD]):
            own[i] = root.land[pa, 0, 2] - root.score[pa, 0] + root.land[pb, 0, 3] - root.score[pb, 0]
            own[i] += sc.w_cash * (r_info[pa, 0, 2, L_CASH] + r_info[pb, 0, 3, L_CASH]) / CASH_NORM
    for i in np.argsort(-own):
        if own[i] <= NEG:
            break
        pa = w.first[0, i]
        pb = w.first[1, i]
        load_types(f, root, t_land, t_info, counts, w.src, ks)
        cash1 = r_info[pa, 0, 2, L_CASH] + r_info[pb, 0, 3, L_CASH]
        if r_info[pa, 0, 2, L_VANISH] and r_info[pb, 0, 3, L_VANISH]:
            cash1 += sc.bonus
        for side in range(2):
            p = pa if side == 0 else pb
            _, h, _, _, n = land_eval(board[p], 0, counts[p], hand[H_CUR + side], w.buf, nest, height, sc)
            f.height[p] = h
            _retable(f, p, w.buf, n, d, w.tmp)
        top_kind = _pool_top_after(hand, group, r_info, pa, pb)
        s_sum = base_sum - root.score[pa, 0] - root.score[pb, 0] + root.land[pa, 0, 2] + root.land[pb, 0, 3]
        _second(f, s_sum, cash1, top_kind, d, w, pairs)


@njit(cache=True)
def _first_helpers(d, root, t_land, t_info, f, w, pairs):  # type: ignore[no-untyped-def]
    """First steps that use the top helper (as ``search._first_alexey`` and ``_first_vladimir``)."""
    counts, sc, hand = d.counts, d.sc, d.hand
    pats, sums, swaps, pdt = d.tables.pats, d.tables.sums, d.tables.swaps, d.tables.pdt
    kind1 = _pool_top(hand, 0)
    kind2 = _pool_top(hand, 1)
    src, hs = w.src, w.hs
    if kind1 == ALEXEY:
        for q in range(pats.shape[0]):
            if not pattern_fits(pats, q, counts):
                continue
            load_types(f, root, t_land, t_info, counts, src, pats[q])
            s_sum = 0.0
            for p in range(6):
                s_sum += root.score[p, pats[q, p]]
            _second(f, s_sum, 0, kind2 if kind2 == VLADIMIR else -1, d, w, pairs)
        if kind2 != ALEXEY:
            return
        both = NEG
        for q in range(sums.shape[0]):
            if not pattern_fits(sums, q, counts):
                continue
            both = max(both, pattern_value(sums, q, root.score, root.height, hs, pdt, sc))
        for j in range(pairs.best.shape[0]):
            pairs.best[j] = max(pairs.best[j], both)
    elif kind1 == VLADIMIR:
        base_sum = 0.0
        for p in range(6):
            base_sum += root.score[p, 0]
        ks = np.zeros(6, np.int64)
        for q in range(swaps.shape[0]):
            i = swaps[q, 0]
            j = swaps[q, 1]
            src[i] = j
            src[j] = i
            load_types(f, root, t_land, t_info, counts, src, ks)
            src[i] = i
            src[j] = j
            _second(f, base_sum, 0, kind2, d, w, pairs)


@njit(cache=True)
def pair_chains(board, hand, sc, tables, pairs):  # type: ignore[no-untyped-def]
    """Each pair's best two-step chain from ``board``/``hand`` (the falling pair at H_CUR; the next one is each
    pair of ``pairs`` in turn) into ``pairs.best``, as :func:`.search.chains` finds it; NEG where every chain of
    the pair tops out."""
    d = Decision(board, board[:, COUNT].astype(np.int64), hand, sc, tables)
    w = Buffers(
        np.zeros(CAP, np.int8),
        np.zeros(CAP, np.int8),
        np.zeros((2, 36), np.int64),
        np.zeros((2, 36), np.int64),
        np.zeros((2, 36), np.int64),
        np.arange(6),
        np.zeros(6, np.int64),
        np.zeros(TYPES),
        np.zeros(TYPES, np.bool_),
    )
    root = root_tables(d, w.tmp)
    t_land, t_info = type_tables(d, w.tmp)
    f = TypeField(
        np.zeros(6, np.int64),
        np.zeros(6, np.int64),
        np.zeros((6, STACK + 1)),
        np.zeros((6, STACK + 1), np.int64),
        np.zeros((6, TYPES)),
        np.zeros((6, TYPES, L_SIZE), np.int64),
    )
    _first_placements(d, root, t_land, t_info, f, w, pairs)
    _first_helpers(d, root, t_land, t_info, f, w, pairs)
