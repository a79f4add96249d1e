"""The per-pile tables the chain search reads: the root's, built once per decision, and a first step's field's.

The root tables every pile once, with k bottom hats trimmed and with each hat of both pairs landed on it. A first
step's field reuses the root's tables for the piles it leaves alone (or moves, or trims); the search re-tables
the (at most two) piles a placement changes, so a second step costs table lookups only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..rules import STACK
from .metrics import pile_eval
from .moves import land_eval
from .params import H_CUR, H_NEXT

KMAX_TRIM = 10  # bottom hats two Alexey uses can remove from one pile
#: the hats the root lands on every pile: 0/1 the next pair's (on every trim), 2/3 the current pair's (untrimmed)
LAND_HATS = (H_NEXT, H_NEXT + 1, H_CUR, H_CUR + 1)
#: what a landing table holds besides the pile's score (int64, last axis)
L_HEIGHT = 0  # the pile's height after the landing
L_CASH = 1  # cash paid (a stack vanished)
L_DEAD = 2  # the pile topped out
L_VANISH = 3  # a stack vanished
L_SIZE = 4


class Root(NamedTuple):
    """The decision's field: pile p with k bottom hats trimmed, and with a hat landed on it."""

    score: np.ndarray  # (6, KMAX_TRIM + 1) float64: the pile's additive score, [p, k]
    height: np.ndarray  # (6, KMAX_TRIM + 1) int64: its height
    land: np.ndarray  # (6, STACK + 1, 4) float64: the score with hat LAND_HATS[which] landed, [p, k, which]
    info: np.ndarray  # (6, STACK + 1, 4, L_SIZE) int64: the rest of that landing (current pair at k = 0 only)


class Field(NamedTuple):
    """The field after a first step, as the second step reads it (rewritten in place for each first step)."""

    height: np.ndarray  # (6,) int64
    counts: np.ndarray  # (6,) int64: hats per pile
    trim_score: np.ndarray  # (6, STACK + 1) float64: pile p with k bottom hats trimmed
    trim_height: np.ndarray  # (6, STACK + 1) int64
    land: np.ndarray  # (6, 2) float64: the score with the next pair's hat 0/1 landed on pile p
    info: np.ndarray  # (6, 2, L_SIZE) int64: the rest of that landing


@njit(cache=True)
def new_field():  # type: ignore[no-untyped-def]
    return Field(
        np.zeros(6, np.int64),
        np.zeros(6, np.int64),
        np.zeros((6, STACK + 1)),
        np.zeros((6, STACK + 1), np.int64),
        np.zeros((6, 2)),
        np.zeros((6, 2, L_SIZE), np.int64),
    )


@njit(cache=True)
def landed(info, which, h, dead, van, cash):  # type: ignore[no-untyped-def]
    """Row ``which`` of a landing table ``info`` (L_*) from ``land_eval``'s result and the hat's stack cash."""
    info[which, L_HEIGHT] = h
    info[which, L_CASH] = cash if van else 0
    info[which, L_DEAD] = dead
    info[which, L_VANISH] = van


@njit(cache=True)
def root_tables(d, tmp):  # type: ignore[no-untyped-def]
    """Every pile of the decision ``d`` tabled once (``tmp``: a pile buffer)."""
    board, counts, hand, sc = d.board, d.counts, d.hand, d.sc
    nest, height, cash = d.tables.nest, d.tables.height, d.tables.cash
    score = np.zeros((6, KMAX_TRIM + 1))
    heights = np.zeros((6, KMAX_TRIM + 1), np.int64)
    for p in range(6):
        for k in range(min(counts[p], KMAX_TRIM) + 1):
            score[p, k], heights[p, k] = pile_eval(board[p], k, counts[p], nest, height, sc)
    land = np.zeros((6, STACK + 1, 4))
    info = np.zeros((6, STACK + 1, 4, L_SIZE), np.int64)
    for p in range(6):
        for k in range(min(counts[p], STACK) + 1):
            for which in range(4):
                if which >= 2 and k > 0:
                    continue
                u = hand[LAND_HATS[which]]
                a, h, dead, van, _ = land_eval(board[p], k, counts[p], u, tmp, nest, height, sc)
                land[p, k, which] = a
                landed(info[p, k], which, h, dead, van, cash[u])
    return Root(score, heights, land, info)


@njit(cache=True)
def load_field(f, root, counts, src, ks):  # type: ignore[no-untyped-def]
    """The field ``f`` of a first step from the root's tables: its pile p is root pile ``src[p]`` with ``ks[p]``
    bottom hats trimmed (the trimmed tables for a second-step Alexey trim further)."""
    height, f_counts, trim_score, trim_height, land, info = f
    r_score, r_height, r_land, r_info = root
    for p in range(6):
        s = src[p]
        k = ks[p]
        height[p] = r_height[s, k]
        f_counts[p] = counts[s] - k
        for j in range(STACK + 1):
            trim_score[p, j] = r_score[s, k + j]
            trim_height[p, j] = r_height[s, k + j]
        for which in range(2):
            land[p, which] = r_land[s, k, which]
            for i in range(L_SIZE):
                info[p, which, i] = r_info[s, k, which, i]
