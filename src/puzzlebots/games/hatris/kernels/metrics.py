"""The 8 metrics in the additive pieces the search combines (twin of :mod:`..evaluation`).

Metrics 1-5 are sums over piles, so each pile contributes an additive score, tabled once per pile (and per
number of bottom hats Alexey removes); metrics 6-7 depend only on the six heights; metric 8 on the cash gained.
A chain option then costs a few table lookups, a 15-comparison Lehmer code and one lookup in the 720-entry
permutation-distance table. The constants of metrics 1, 2, 5 and 6's complements are ``Scoring.const``.
"""

from __future__ import annotations

from numba import njit

from .params import (
    C_HATS,
    C_MISMATCHES,
    C_PILE_HEIGHTS,
    C_RUNS,
    C_TOP_RUNS,
    R_BONUS,
    R_M7_ABS,
    R_MIN_RUN,
    R_MIRROR,
    R_TOP_PX,
    W_CASH,
    W_HATS,
    W_HEIGHT_DIFFS,
    W_MISMATCHES,
    W_PERM,
    W_PILE_HEIGHTS,
    Scoring,
)


@njit(cache=True)
def scoring(rules, weights):  # type: ignore[no-untyped-def]
    """The :class:`~.params.Scoring` of the ``rules`` and ``weights`` arrays."""
    return Scoring(
        rules[R_TOP_PX],
        rules[R_MIN_RUN],
        rules[R_M7_ABS] != 0,
        rules[R_MIRROR] != 0,
        rules[R_BONUS],
        weights[C_HATS],
        weights[C_PILE_HEIGHTS],
        weights[C_RUNS],
        weights[C_TOP_RUNS],
        weights[C_MISMATCHES],
        weights[W_PERM],
        weights[W_HEIGHT_DIFFS],
        weights[W_CASH],
        weights[W_HATS] + weights[W_PILE_HEIGHTS] + weights[W_MISMATCHES] + weights[W_PERM],
    )


@njit(cache=True)
def pile_eval(buf, start, end, nest, height, sc):  # type: ignore[no-untyped-def]
    """Additive score of the pile ``buf[start:end]`` (metrics 1-5 without constants) and its height."""
    n = end - start
    if n <= 0:
        return 0.0, 0
    min_run = sc.min_run
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
    a = (
        -sc.c_hats * n * n
        - sc.c_pile_heights * h * h
        + sc.c_runs * runsq
        + sc.c_top_runs * top
        - sc.c_mismatches * mism
    )
    return a, h


@njit(cache=True)
def height_terms(hs, pdt, sc):  # type: ignore[no-untyped-def]
    """Weighted metrics 6 and 7 of the six heights ``hs`` (without the constant of metric 6's complement)."""
    mirror = sc.mirror
    top_px = sc.top_px
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
    if sc.m7_abs:
        s = 0
        for i in range(5):
            s += abs(hs[i] - hs[i + 1])
        m7 = 1.0 - s / (5.0 * top_px)
    else:
        diff = hs[5] - hs[0] if mirror else hs[0] - hs[5]
        m7 = (diff + top_px) / (2.0 * top_px)
    return -sc.w_perm * pd / 5.0 + sc.w_height_diffs * m7


@njit(cache=True)
def pattern_value(pats, q, score, height, hs, pdt, sc):  # type: ignore[no-untyped-def]
    """The field's value (without cash) once Alexey removes pattern ``pats[q]``: each pile's ``score`` and
    ``height`` tables read at the hats it loses; ``hs`` (a (6,) buffer) receives the six heights."""
    s = 0.0
    for p in range(6):
        k = pats[q, p]
        s += score[p, k]
        hs[p] = height[p, k]
    return sc.const + s + height_terms(hs, pdt, sc)


@njit(cache=True)
def cash_term(c, sc):  # type: ignore[no-untyped-def]
    """Weighted metric 8 of the cash ``c`` gained over the chain."""
    return sc.w_cash * min(c / 1200.0, 1.0)
