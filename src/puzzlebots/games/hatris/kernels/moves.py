"""What a step does to the field, in numba: the placements of a pair, a hat landing (and a stack vanishing),
and which Alexey removals fit. The engine's readable versions are ``engine.reach`` and ``HatrisState._land``."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import STACK
from .metrics import pile_eval


@njit(cache=True)
def land_eval(src, start, end, hat, dst, nest, height, sc):  # type: ignore[no-untyped-def]
    """Land ``hat`` on ``src[start:end]`` into ``dst``: (score, height, topped out, vanished, new length)."""
    n = end - start
    for i in range(n):
        dst[i] = src[start + i]
    dst[n] = hat
    n += 1
    hh = height[hat]
    for i in range(1, n):
        hh += nest[dst[i - 1], dst[i]]
    dead = hh > sc.top_px
    van = False
    if n >= STACK:
        van = True
        for i in range(n - STACK, n):
            if dst[i] != hat:
                van = False
        if van:
            n -= STACK
    a, h = pile_eval(dst, 0, n, nest, height, sc)
    return a, h, dead, van, n


@njit(cache=True)
def reach(hs, a, b, out):  # type: ignore[no-untyped-def]
    """Placements (pile of hat a, pile of hat b) of a pair under the timeless reach, sorted, into ``out[0]``
    and ``out[1]``; returns their count."""
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
                out[0, n] = i
                out[1, n] = j
                n += 1
    return n


@njit(cache=True)
def pattern_fits(pats, q, counts):  # type: ignore[no-untyped-def]
    """Removal ``q`` of ``pats`` takes no more hats from a pile than the pile holds."""
    for p in range(6):
        if pats[q, p] > counts[p]:
            return False
    return True
