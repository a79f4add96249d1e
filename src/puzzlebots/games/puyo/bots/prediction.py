"""KRIEG-style predictions: every placement tried on a copy of the field and resolved "until no more changes"."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import ChainResult, Field, Pair
from ..kernels import bitboard as BB


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
    """A prediction for every reachable placement of ``pair`` on ``field`` (simulated on bitboards)."""
    out = []
    pos = np.empty(4, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    root = BB.new_field()
    BB.encode(field.cells, root)
    for index in field.placements(pair):
        f = field.copy()
        b = root.copy()
        BB.drop_pair(b, index, pair[0], pair[1], pos)
        ax, ay, cx, cy = (int(v) for v in pos)
        BB.decode(b, f.cells, f.heights)
        dropped = f.cells.copy()
        g_axis = BB.group_size(b, ax, ay)
        g_child = BB.group_size(b, cx, cy)
        same_group = g_axis > 0 and pair[0] == pair[1] and BB.same_group(b, ax, ay, cx, cy)
        group = g_axis if same_group else g_axis + g_child
        score = BB.resolve(b, stats)
        BB.decode(b, f.cells, f.heights)
        links = int(stats[0])
        result = ChainResult(links, int(score), int(stats[1]), int(stats[2]), links > 0 and f.count() == 0)
        out.append(Prediction(index, dropped, (ax, ay, cx, cy), f, result, f.is_dead(), group))
    return out
