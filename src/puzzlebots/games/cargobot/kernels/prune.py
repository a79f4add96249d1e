"""The synthesizer's pruning rules on the shape of a program (numba): slot limits, redundant register pairs,
inlinable functions. The program being built is ``op`` and ``mask`` per (function, register) and ``length``
per function (see ``solve.Program``); these rules only read it (``seen``/``todo`` are scratch).
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def fits(length, nfun, limits_sorted):
    """Can the lengths of F2.. be assigned to the non-main slot limits (sorted descending)? They can iff for
    every length l, the functions at least l long are no more than the limits at least l (no sort: this runs
    at every new register, and an allocation there costs more than the loops)."""
    for k in range(1, nfun):
        longer = 0
        for j in range(1, nfun):
            longer += 1 if length[j] >= length[k] else 0
        if longer > 0 and limits_sorted[longer - 1] < length[k]:
            return False
    return True


@njit(cache=True)
def redundant(op, mask, length, f, i, redundant_pairs, ncond):
    """Register i of F(f+1) and a neighbour act like one register or none, or commute out of order."""
    for a in range(i - 1, i + 1):
        if a < 0 or a + 1 >= length[f]:
            continue
        o1 = op[f, a]
        o2 = op[f, a + 1]
        if o1 < 1 or o1 > 3 or o2 < 1 or o2 > 3 or (o1 == 3) != (o2 == 3):
            continue
        m1 = mask[f, a]
        m2 = mask[f, a + 1]
        pair = True
        for c1 in range(ncond):
            if m1 & (1 << c1):
                for c2 in range(ncond):
                    if m2 & (1 << c2) and not redundant_pairs[o1, c1, o2, c2]:
                        pair = False
        if pair:
            return True
    return False


@njit(cache=True)
def _reaches_itself(op, length, k, seen, todo):
    """Is F(k+1) reachable from its own body (through calls)?"""
    seen[:] = 0
    ntodo = 0
    for r in range(length[k]):
        if op[k, r] >= 4:
            todo[ntodo] = op[k, r] - 4
            ntodo += 1
    while ntodo > 0:
        ntodo -= 1
        g = todo[ntodo]
        if g == k:
            return True
        if seen[g] == 0:
            seen[g] = 1
            for r in range(length[g]):
                if op[g, r] >= 4 and ntodo < todo.shape[0]:
                    todo[ntodo] = op[g, r] - 4
                    ntodo += 1
    return False


@njit(cache=True)
def inlinable(op, mask, length, nfun, slots, seen, todo):
    """True if some F2.. is called from one unconditional site and not recursively: inlining it into
    its caller gives an equivalent program one register smaller (checked once the budget is spent)."""
    for k in range(1, nfun):
        sites = 0
        caller = -1
        site_mask = 0
        for j in range(nfun):
            for r in range(length[j]):
                if op[j, r] == 4 + k:
                    sites += 1
                    caller = j
                    site_mask = mask[j, r]
        if sites != 1 or site_mask != 1 or caller == k:
            continue
        if length[caller] - 1 + length[k] > slots[caller]:
            continue
        if not _reaches_itself(op, length, k, seen, todo):
            return True
    return False
