"""KRIEG-style predictions: every placement tried on a copy of the field and resolved "until no more changes"."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import ChainResult, Field, Pair
from ..kernels.field import group_size, resolve
from ..kernels.placements import drop_pair


@dataclass
class Prediction:
    """One placement of the current pair, simulated on a copy of the field."""

    index: int  # placement index (rules.PLACEMENTS)
    dropped: np.ndarray  # the cells right after the drop, before anything pops
    pos: tuple[int, int, int, int]  # (axis x, axis y, child x, child y); y = -1 if the puyo vanished
    field: Field  # the field after everything resolved
    result: ChainResult
    dead: bool  # game over: the death cell is occupied after resolution
    group: int  # KRIEG's G: size of the distinct same-colour groups holding the two placed puyos


def predictions(field: Field, pair: Pair) -> list[Prediction]:
    """A prediction for every reachable placement of ``pair`` on ``field``."""
    out = []
    pos = np.empty(4, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    for index in field.placements(pair):
        f = field.copy()
        drop_pair(f.cells, f.heights, index, pair[0], pair[1], pos)
        ax, ay, cx, cy = (int(v) for v in pos)
        dropped = f.cells.copy()
        g_axis = group_size(f.cells, ax, ay)
        g_child = group_size(f.cells, cx, cy)
        same_group = g_axis > 0 and pair[0] == pair[1] and _connected(f.cells, ax, ay, cx, cy)
        group = g_axis if same_group else g_axis + g_child
        score = resolve(f.cells, f.heights, stats)
        links = int(stats[0])
        result = ChainResult(links, int(score), int(stats[1]), int(stats[2]), links > 0 and f.count() == 0)
        out.append(Prediction(index, dropped, (ax, ay, cx, cy), f, result, f.is_dead(), group))
    return out


def _connected(cells: np.ndarray, ax: int, ay: int, cx: int, cy: int) -> bool:
    """True when (ax, ay) and (cx, cy) are in the same group (both visible, same colour)."""
    if ay < 0 or cy < 0:
        return False
    marked = cells.copy()
    marked[cx, cy] = 255  # a colour nobody else has: the group of (ax, ay) shrinks by one iff they touch
    return group_size(cells, ax, ay) != group_size(marked, ax, ay) or (ax, ay) == (cx, cy)
