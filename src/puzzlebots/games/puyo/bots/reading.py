"""Reading a versus position on the frame clock: the chains a side can fire, when they land, what they send.

``duelist`` asks these questions of both sides. A *shot* is a chain one placement fires now: its links, its
points, the garbage it makes with the target points in force and the side's carried remainder, and the frame
its last link ends (the placement's frames and each link's pop and fall frames, ``frames``), which is when its
garbage becomes fixed on the other side. ``reach`` is the best shot within the visible pairs (a chain the
first pairs set up and a later one fires).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..engine import Field, Pair
from ..frame_versus import SideView, chain_links
from ..frames import link_frames, placement_frames
from ..kernels import bitboard as BB
from ..kernels.beam import new_scratch, potential
from ..kernels.placements import placement_mask
from ..rules import DEATH_X, MAX_GARBAGE_DROP, N_PLACEMENTS, PLACEMENTS, VISIBLE_ROWS, WIDTH

#: the frames a placement without a chain takes, about (nova's numbers for a mid-field drop), for lines whose
#: exact path is not worth computing (a shot two pairs ahead)
TYPICAL_PLACEMENT_FRAMES = 40


@dataclass(frozen=True)
class Shot:
    """A chain fired by placing ``pairs`` placements from now, the last at ``index``."""

    index: int  # the placement of the current pair that begins the line
    links: int
    score: int
    garbage: int  # garbage made, before offsetting
    ends: int  # the frame its last link ends
    pairs: int = 1  # placements until it fires (1: the current pair fires it)


def garbage_of(score: int, carry: int, target: int) -> int:
    """The garbage ``score`` points make with ``carry`` points left over and ``target`` points per puyo."""
    return (score + carry) // max(target, 1)


def chain_to_come(side: SideView, target: int) -> int:
    """The garbage the chain ``side`` has in progress will still send to the other side: its links still to pop,
    converted with ``target`` points per puyo from its carried remainder, less the garbage on its way to it (its
    links offset that first)."""
    carry, made = side.carry, 0
    for link in side.links[side.chain :]:
        sent, carry = divmod(link.score + carry, max(target, 1))
        made += sent
    return max(0, made - side.fixed - side.incoming)


def pairs_to_come(side: SideView) -> tuple[Pair, ...]:
    """The pairs ``side`` places next as the other player sees them: the pair in play, while it falls into a
    placement that fires nothing, then its visible pairs."""
    if side.in_play is not None and not side.links:
        return (side.in_play, *side.pairs)
    return side.pairs


def shots(field: Field, pair: Pair, now: int, target: int, carry: int, source: str) -> list[Shot]:
    """Every placement of ``pair`` on ``field`` that fires a chain, with its timing (exact frames)."""
    out = []
    for index in field.placements(pair):
        result = field.copy().play(pair, index)
        if not result.links:
            continue
        x, r = PLACEMENTS[index]
        ends = now + placement_frames(field.heights, x, r, source)
        ends += sum(link_frames(fall, source) for _, fall in chain_links(field, pair, index))
        out.append(Shot(index, result.links, result.score, garbage_of(result.score, carry, target), ends))
    return out


def landing(field: Field, pair: Pair, now: int, source: str) -> int:
    """The frame ``pair`` is down on ``field`` at the latest: now plus its slowest placement's frames. Garbage
    whose chain ends by then falls after this placement, before the next decision."""
    return now + max(placement_frames(field.heights, *PLACEMENTS[index], source) for index in field.placements(pair))


def reach(field: Field, pairs: Sequence[Pair], now: int, target: int, carry: int, depth: int = 2) -> Shot | None:
    """The shot sending the most garbage that the first ``depth`` of ``pairs`` can fire on ``field`` (a line
    of quiet placements then one that fires); its end frame estimated by typical frames per placement and
    link. None if no line fires."""
    best: Shot | None = None
    root = BB.new_field()
    BB.encode(field.cells, root)
    pos = np.empty(4, dtype=np.int64)
    stats = np.zeros(3, dtype=np.int64)
    heights = np.zeros(WIDTH, dtype=np.int64)
    mask = np.zeros(N_PLACEMENTS, dtype=np.bool_)
    frontier: list[tuple[np.ndarray, int]] = [(root, -1)]
    for d, pair in enumerate(pairs[:depth]):
        nxt: list[tuple[np.ndarray, int]] = []
        for b, first in frontier:
            BB.column_heights(b, heights)
            placement_mask(heights, pair[0] == pair[1], field.crossable, mask)
            for index in (int(i) for i in np.flatnonzero(mask)):
                child = b.copy()
                score = BB.play_pair(child, index, pair[0], pair[1], pos, stats)
                if score < 0 or BB.cell(child, DEATH_X, VISIBLE_ROWS - 1):
                    continue
                start = index if first < 0 else first
                links = int(stats[0])
                if links:
                    garbage = garbage_of(int(score), carry, target)
                    if best is None or garbage > best.garbage:
                        ends = now + (d + 1) * TYPICAL_PLACEMENT_FRAMES + sum(link_frames(1) for _ in range(links))
                        best = Shot(start, links, int(score), garbage, ends, d + 1)
                else:
                    nxt.append((child, start))
        frontier = nxt
    return best


def held(field: Field, n_colours: int, target: int, carry: int) -> int:
    """The garbage of the chain ``field`` holds: the largest that 1-3 puyos of one colour on one column fire
    (``kernels.beam.potential``). A player fires it within a placement or two, so it is his answer to a chain
    of ours that runs longer than that, even when his visible pairs cannot trigger it (``reach``)."""
    b = BB.new_field()
    BB.encode(field.cells, b)
    _, score, _ = potential(b, field.heights, n_colours, new_scratch())
    return garbage_of(int(score), carry, target) if score > 0 else 0


def garbage_to_kill(field: Field) -> int:
    """About how much garbage, spread evenly, fills the spawn column to the death cell: 6 per row it lacks
    (more than one drop's 30 takes two drops, each after a placement)."""
    return WIDTH * max(0, VISIBLE_ROWS - int(field.heights[DEATH_X]))


def rows_of(garbage: int) -> int:
    """The rows a drop of ``garbage`` adds to the spawn column at worst (one drop holds at most 30)."""
    n = min(garbage, MAX_GARBAGE_DROP)
    return -(-n // WIDTH)
