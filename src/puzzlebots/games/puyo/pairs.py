"""Seeded pair sequences (reference Q1/Q2, section 2.6).

``esports`` (default): the Puyo Puyo eSports generator as reimplemented by AMA (``core/cell.h``), written
from the reference's description: a 32-bit LCG ``s = s * 0x5D588B65 + 0x269EC3`` (5 warm-up steps) shuffles
three 256-puyo lists (3, 4 and 5 colours, filled cyclically) by swapping entries between neighbouring
blocks of 16, 32 and 64; the opening pairs of the 4- and 5-colour lists are then copied from the 3-colour
list. The sequence is a 128-pair cycle with 64 puyos of each colour (4 colours), which repeats.
It has not been checked bit-exactly against AMA (docs/rules/puyo.md says so).

``uniform``: every puyo drawn independently and uniformly (numpy PCG64 from the seed), for experiments.
"""

from __future__ import annotations

import numpy as np

from puzzlebots.core.errors import ConfigError
from puzzlebots.core.jsonio import show

from .names import SEQUENCES

CYCLE_PUYOS = 256

_MASK = 0xFFFFFFFF


class _Lcg:
    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK
        for _ in range(5):
            self.next()

    def next(self) -> int:
        self.state = (self.state * 0x5D588B65 + 0x269EC3) & _MASK
        return self.state


def esports_cycle(seed: int, n_colours: int = 4, opening_pairs: int = 2) -> list[tuple[int, int]]:
    """The 128-pair cycle for ``seed``; colours are 1..n_colours (3, 4 or 5)."""
    if n_colours not in (3, 4, 5):
        raise ConfigError(f"puyo: the esports sequence needs 3, 4 or 5 colours, got {n_colours}")
    rng = _Lcg(seed)
    lists: list[list[int]] = []
    for mode in range(3):
        count = mode + 3
        q = [i % count for i in range(CYCLE_PUYOS)]
        for shift, block, blocks in ((28, 16, 15), (27, 32, 7), (26, 64, 3)):
            for col in range(blocks):
                for _ in range(block // 2):
                    n1 = (rng.next() >> shift) + col * block
                    n2 = (rng.next() >> shift) + (col + 1) * block
                    q[n1], q[n2] = q[n2], q[n1]
        lists.append(q)
    for i in range(2 * opening_pairs):
        lists[1][i] = lists[0][i]
        lists[2][i] = lists[0][i]
    q = lists[n_colours - 3]
    return [(q[2 * i] + 1, q[2 * i + 1] + 1) for i in range(CYCLE_PUYOS // 2)]


def pair_sequence(
    seed: int, count: int, kind: str = "esports", n_colours: int = 4, opening_pairs: int = 2
) -> list[tuple[int, int]]:
    """``count`` pairs (axis colour, child colour) for ``seed``; the esports cycle repeats every 128 pairs."""
    if kind == "esports":
        cycle = esports_cycle(seed, n_colours, opening_pairs)
        return [cycle[i % len(cycle)] for i in range(count)]
    if kind == "uniform":
        rng = np.random.default_rng(seed)
        draws = rng.integers(1, n_colours + 1, size=(count, 2))
        return [(int(a), int(c)) for a, c in draws]
    raise ConfigError(f"puyo: unknown sequence {show(kind)} (known: {', '.join(SEQUENCES)})")
