"""numba kernels of the searcher: placement enumeration, landing/vanish, the 8-metric evaluation, the chain.

The evaluation is split so that the chain search is cheap: metrics 1-5 are sums over piles, so each pile
contributes an additive score that is tabled once per pile (and per number of bottom hats Alexey removes);
metrics 6-7 depend only on the six heights; metric 8 on the cash gained. A chain option then costs a few table
lookups, a 15-comparison Lehmer code and one lookup in the 720-entry permutation-distance table.
:mod:`.oracle` is the slow pure-Python twin these kernels are tested against.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CAP = 96  # hats per pile buffer (61 fit under the default 128 px; 81 under the largest top_px)
KMAX_TRIM = 10  # bottom hats two Alexey uses can remove from one pile
NEG = -1.0e300


@njit(cache=True)
def pile_eval(buf, start, end, nest, height, min_run, coef):  # type: ignore[no-untyped-def]
    """Additive score of the pile ``buf[start:end]`` (metrics 1-5 without constants) and its height."""
    n = end - start
    if n <= 0:
        return 0.0, 0
    h = 0
    runsq = 0
    mism = 0
    run = 1
    for i in range(start + 1, end):
        lo = buf[i - 1]
        up = buf[i]
        h += nest[lo, up]
        if up == lo:
            run += 1
        else:
            mism += 1
            if run >= min_run:
                runsq += run * run
            run = 1
    h += height[buf[end - 1]]
    top = 0
    if run >= min_run:
        runsq += run * run
        top = run * run
    a = -coef[0] * n * n - coef[1] * h * h + coef[2] * runsq + coef[3] * top - coef[4] * mism
    return a, h


@njit(cache=True)
def land_eval(src, start, end, hat, dst, nest, height, min_run, coef, top_px):  # type: ignore[no-untyped-def]
    """Land ``hat`` on ``src[start:end]`` into ``dst``: (score, height, topped out, vanished, new length)."""
    n = end - start
    for i in range(n):
        dst[i] = src[start + i]
    dst[n] = hat
    n += 1
    hh = height[hat]
    for i in range(1, n):
        hh += nest[dst[i - 1], dst[i]]
    dead = hh > top_px
    van = False
    if n >= 5:
        van = True
        for i in range(n - 5, n):
            if dst[i] != hat:
                van = False
        if van:
            n -= 5
    a, h = pile_eval(dst, 0, n, nest, height, min_run, coef)
    return a, h, dead, van, n


@njit(cache=True)
def reach(hs, a, b, out_a, out_b):  # type: ignore[no-untyped-def]
    """Placements (pile of hat a, pile of hat b) of a pair under the timeless reach, sorted; returns count."""
    seen = np.zeros((6, 6), np.bool_)
    for swap in range(2):
        for c in range(5):
            hl = hs[c]
            hr = hs[c + 1]
            for t in range(7):
                if hl == hr:
                    if t > 0:
                        break
                    left = c
                    right = c + 1
                elif hl > hr:
                    k = c + 1 + t
                    if k >= 6 or hs[k] > hl:
                        break
                    left = c
                    right = k
                else:
                    k = c - t
                    if k < 0 or hs[k] > hr:
                        break
                    left = k
                    right = c + 1
                if swap == 0:
                    x = left
                    y = right
                else:
                    x = right
                    y = left
                if a == b and x > y:
                    x, y = y, x
                seen[x, y] = True
    n = 0
    for i in range(6):
        for j in range(6):
            if seen[i, j]:
                out_a[n] = i
                out_b[n] = j
                n += 1
    return n


@njit(cache=True)
def height_terms(hs, w6, w7, top_px, m7_abs, mirror, pdt):  # type: ignore[no-untyped-def]
    """Weighted metrics 6 and 7 (without the constant of metric 6's complement)."""
    idx = 0
    for i in range(5):
        hi = hs[5 - i] if mirror else hs[i]
        d = 0
        for j in range(i + 1, 6):
            hj = hs[5 - j] if mirror else hs[j]
            if hj > hi:
                d += 1
        idx = idx * (6 - i) + d
    pd = pdt[idx]
    if m7_abs:
        s = 0
        for i in range(5):
            s += abs(hs[i] - hs[i + 1])
        m7 = 1.0 - s / (5.0 * top_px)
    else:
        diff = hs[5] - hs[0] if mirror else hs[0] - hs[5]
        m7 = (diff + top_px) / (2.0 * top_px)
    return -w6 * pd / 5.0 + w7 * m7


@njit(cache=True)
def pattern_fits(pats, q, counts):  # type: ignore[no-untyped-def]
    """Alexey pattern ``q`` removes no more hats from a pile than the pile holds."""
    for p in range(6):
        if pats[q, p] > counts[p]:
            return False
    return True


@njit(cache=True)
def cash_term(c, w8):  # type: ignore[no-untyped-def]
    return w8 * min(c / 1200.0, 1.0)


@njit(cache=True)
def _step2(
    s_sum, hs, cnt, lsu, lhu, lcu, ldu, lvu, sk, hk, cash1, kind2, a1, b1,
    pats, swaps, w, top_px, m7_abs, mirror, pdt, bonus, const, scratch, qa, qb,
):  # type: ignore[no-untyped-def]
    """Best score over the second chain step (placements of the next pair, then helper uses of ``kind2``)."""
    best = NEG
    nb = reach(hs, a1, b1, qa, qb)
    for t in range(nb):
        x = qa[t]
        y = qb[t]
        if ldu[x, 0] or ldu[y, 1]:
            continue
        for p in range(6):
            scratch[p] = hs[p]
        scratch[x] = lhu[x, 0]
        scratch[y] = lhu[y, 1]
        c = cash1 + lcu[x, 0] + lcu[y, 1]
        if lvu[x, 0] and lvu[y, 1]:
            c += bonus
        v = const + s_sum - sk[x, 0] - sk[y, 0] + lsu[x, 0] + lsu[y, 1]
        v += height_terms(scratch, w[5], w[6], top_px, m7_abs, mirror, pdt) + cash_term(c, w[7])
        if v > best:
            best = v
    ct = cash_term(cash1, w[7])
    if kind2 == 0:
        for q in range(pats.shape[0]):
            if not pattern_fits(pats, q, cnt):
                continue
            s = 0.0
            for p in range(6):
                k = pats[q, p]
                s += sk[p, k]
                scratch[p] = hk[p, k]
            v = const + s + height_terms(scratch, w[5], w[6], top_px, m7_abs, mirror, pdt) + ct
            if v > best:
                best = v
    elif kind2 == 1:
        for q in range(swaps.shape[0]):
            for p in range(6):
                scratch[p] = hs[p]
            i = swaps[q, 0]
            j = swaps[q, 1]
            scratch[i] = hs[j]
            scratch[j] = hs[i]
            v = const + s_sum + height_terms(scratch, w[5], w[6], top_px, m7_abs, mirror, pdt) + ct
            if v > best:
                best = v
    return best


@njit(cache=True)
def search(
    piles, counts, a0, b0, a1, b1, pool, npool, bars, nest, height, cashv, group, pdt,
    pats, sums, split, swaps, w, coef, top_px, min_run, m7_abs, mirror, bonus,
):  # type: ignore[no-untyped-def]
    """The article's search chain. Returns (kind, x, y, score): kind 0 = place hat a on pile x and hat b on
    pile y, 1 = Alexey pattern index x, 2 = Vladimir swap index x; score is the best chain's (or, when every
    chain tops out, the best single step's, Q24; kind -1 when every first step tops out)."""
    const = w[0] + w[1] + w[4] + w[5]
    # root tables: pile p with k bottom hats removed
    s0 = np.zeros((6, KMAX_TRIM + 1))
    h0 = np.zeros((6, KMAX_TRIM + 1), np.int64)
    for p in range(6):
        for k in range(min(counts[p], KMAX_TRIM) + 1):
            s0[p, k], h0[p, k] = pile_eval(piles[p], k, counts[p], nest, height, min_run, coef)
    # landing tables at the root: [pile, trim k, which hat] (which 0/1 = a1/b1; 2/3 = a0/b0 at k = 0)
    ls = np.zeros((6, 6, 4))
    lh = np.zeros((6, 6, 4), np.int64)
    lc = np.zeros((6, 6, 4), np.int64)
    ld = np.zeros((6, 6, 4), np.bool_)
    lv = np.zeros((6, 6, 4), np.bool_)
    tmp = np.zeros(CAP, np.int8)
    hats = np.array([a1, b1, a0, b0])
    for p in range(6):
        for k in range(min(counts[p], 5) + 1):
            for which in range(4):
                if which >= 2 and k > 0:
                    continue
                u = hats[which]
                a, h, dead, van, _ = land_eval(piles[p], k, counts[p], u, tmp, nest, height, min_run, coef, top_px)
                ls[p, k, which] = a
                lh[p, k, which] = h
                ld[p, k, which] = dead
                lv[p, k, which] = van
                lc[p, k, which] = cashv[u] if van else 0
    base_sum = 0.0
    for p in range(6):
        base_sum += s0[p, 0]
    # per-step-1-state arrays handed to _step2
    hs = np.zeros(6, np.int64)
    cnt = np.zeros(6, np.int64)
    lsu = np.zeros((6, 2))
    lhu = np.zeros((6, 2), np.int64)
    lcu = np.zeros((6, 2), np.int64)
    ldu = np.zeros((6, 2), np.bool_)
    lvu = np.zeros((6, 2), np.bool_)
    sk = np.zeros((6, KMAX_TRIM + 1))
    hk = np.zeros((6, KMAX_TRIM + 1), np.int64)
    scratch = np.zeros(6, np.int64)
    qa = np.zeros(36, np.int64)
    qb = np.zeros(36, np.int64)
    pa_arr = np.zeros(36, np.int64)
    pb_arr = np.zeros(36, np.int64)
    bufs = np.zeros((2, CAP), np.int8)
    lens = np.zeros(2, np.int64)
    best = NEG
    best_kind = -1
    best_x = 0
    best_y = 0
    single = NEG
    single_kind = -1
    single_x = 0
    single_y = 0
    kind1 = pool[npool - 1] if npool > 0 else -1

    # ---- step 1: placements of the current pair
    na = reach(h0[:, 0], a0, b0, pa_arr, pb_arr)
    for t in range(na):
        pa = pa_arr[t]
        pb = pb_arr[t]
        if ld[pa, 0, 2] or ld[pb, 0, 3]:
            continue
        for p in range(6):
            hs[p] = h0[p, 0]
            cnt[p] = counts[p]
            sk[p, 0] = s0[p, 0]
            for k in range(1, 6):
                sk[p, k] = s0[p, k]
                hk[p, k] = h0[p, k]
            hk[p, 0] = h0[p, 0]
            for which in range(2):
                lsu[p, which] = ls[p, 0, which]
                lhu[p, which] = lh[p, 0, which]
                lcu[p, which] = lc[p, 0, which]
                ldu[p, which] = ld[p, 0, which]
                lvu[p, which] = lv[p, 0, which]
        cash1 = lc[pa, 0, 2] + lc[pb, 0, 3]
        if lv[pa, 0, 2] and lv[pb, 0, 3]:
            cash1 += bonus
        # the two changed piles, materialized; helper bars in pile order (left first)
        nb0 = bars[0]
        nb1 = bars[1]
        np_ = npool
        top_kind = kind1
        for side in range(2):
            p = pa if side == 0 else pb
            u = a0 if side == 0 else b0
            a, h, dead, van, ln = land_eval(piles[p], 0, counts[p], u, bufs[side], nest, height, min_run, coef, top_px)
            lens[side] = ln
            hs[p] = h
            cnt[p] = ln
            for k in range(min(ln, 5) + 1):
                sk[p, k], hk[p, k] = pile_eval(bufs[side], k, ln, nest, height, min_run, coef)
            for which in range(2):
                u2 = a1 if which == 0 else b1
                a2, h2, d2, v2, _ = land_eval(bufs[side], 0, ln, u2, tmp, nest, height, min_run, coef, top_px)
                lsu[p, which] = a2
                lhu[p, which] = h2
                ldu[p, which] = d2
                lvu[p, which] = v2
                lcu[p, which] = cashv[u2] if v2 else 0
        for side in range(2):
            p = min(pa, pb) if side == 0 else max(pa, pb)
            van = lv[p, 0, 2] if p == pa else lv[p, 0, 3]
            if van:
                u = a0 if p == pa else b0
                g = group[u]
                if g == 0:
                    nb0 += 1
                    if nb0 >= 5:
                        nb0 = 0
                        if np_ < 8:
                            np_ += 1
                            top_kind = 0
                else:
                    nb1 += 1
                    if nb1 >= 5:
                        nb1 = 0
                        if np_ < 8:
                            np_ += 1
                            top_kind = 1
        s_sum = base_sum - s0[pa, 0] - s0[pb, 0] + ls[pa, 0, 2] + ls[pb, 0, 3]
        one = const + s_sum + height_terms(hs, w[5], w[6], top_px, m7_abs, mirror, pdt) + cash_term(cash1, w[7])
        if one > single:
            single = one
            single_kind = 0
            single_x = pa
            single_y = pb
        v = _step2(
            s_sum, hs, cnt, lsu, lhu, lcu, ldu, lvu, sk, hk, cash1, top_kind, a1, b1,
            pats, swaps, w, top_px, m7_abs, mirror, pdt, bonus, const, scratch, qa, qb,
        )
        if v > best:
            best = v
            best_kind = 0
            best_x = pa
            best_y = pb

    # ---- step 1: helper uses (the pair is destroyed; the second step places the next pair)
    kind2 = pool[npool - 2] if npool >= 2 else -1
    if kind1 == 0:
        for q in range(pats.shape[0]):
            if not pattern_fits(pats, q, counts):
                continue
            s_sum = 0.0
            for p in range(6):
                k = pats[q, p]
                s_sum += s0[p, k]
                hs[p] = h0[p, k]
                cnt[p] = counts[p] - k
                sk[p, 0] = s0[p, k]
                for which in range(2):
                    lsu[p, which] = ls[p, k, which]
                    lhu[p, which] = lh[p, k, which]
                    lcu[p, which] = lc[p, k, which]
                    ldu[p, which] = ld[p, k, which]
                    lvu[p, which] = lv[p, k, which]
            one = const + s_sum + height_terms(hs, w[5], w[6], top_px, m7_abs, mirror, pdt)
            if one > single:
                single = one
                single_kind = 1
                single_x = q
            # Alexey after Alexey is searched below over the combined removals
            k2 = kind2 if kind2 == 1 else -1
            v = _step2(
                s_sum, hs, cnt, lsu, lhu, lcu, ldu, lvu, sk, hk, 0, k2, a1, b1,
                pats, swaps, w, top_px, m7_abs, mirror, pdt, bonus, const, scratch, qa, qb,
            )
            if v > best:
                best = v
                best_kind = 1
                best_x = q
        if kind2 == 0:
            for q in range(sums.shape[0]):
                ok = True
                for p in range(6):
                    if sums[q, p] > counts[p]:
                        ok = False
                        break
                if not ok:
                    continue
                s = 0.0
                for p in range(6):
                    k = sums[q, p]
                    s += s0[p, k]
                    scratch[p] = h0[p, k]
                v = const + s + height_terms(scratch, w[5], w[6], top_px, m7_abs, mirror, pdt)
                if v > best:
                    best = v
                    best_kind = 1
                    best_x = split[q]
    elif kind1 == 1:
        for q in range(swaps.shape[0]):
            i = swaps[q, 0]
            j = swaps[q, 1]
            for p in range(6):
                src = j if p == i else (i if p == j else p)
                hs[p] = h0[src, 0]
                cnt[p] = counts[src]
                for k in range(0, 6):
                    sk[p, k] = s0[src, k]
                    hk[p, k] = h0[src, k]
                for which in range(2):
                    lsu[p, which] = ls[src, 0, which]
                    lhu[p, which] = lh[src, 0, which]
                    lcu[p, which] = lc[src, 0, which]
                    ldu[p, which] = ld[src, 0, which]
                    lvu[p, which] = lv[src, 0, which]
            one = const + base_sum + height_terms(hs, w[5], w[6], top_px, m7_abs, mirror, pdt)
            if one > single:
                single = one
                single_kind = 2
                single_x = q
            v = _step2(
                base_sum, hs, cnt, lsu, lhu, lcu, ldu, lvu, sk, hk, 0, kind2, a1, b1,
                pats, swaps, w, top_px, m7_abs, mirror, pdt, bonus, const, scratch, qa, qb,
            )
            if v > best:
                best = v
                best_kind = 2
                best_x = q
    if best_kind < 0:  # every chain tops out (Q24): the best surviving first step
        return single_kind, single_x, single_y, single
    return best_kind, best_x, best_y, best
