"""A slow, plain search chain over copies of the field: the test oracle for the numba searcher (:mod:`.kernels`).

It re-implements landing, vanishing, cash and helper progress on plain lists (not the kernels' tables), and
enumerates every (first step, second step) combination in the same order as the kernel: :func:`search` is the
twin of ``kernels.search.search`` (first steps: placements, then uses of the top helper), :func:`second_step`
of ``_second_step``. Two Alexey uses in a row are enumerated one by one here, as combined removals there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .config import Rules
from .engine import VLADIMIR_SWAPS, Action, alexey_patterns, pile_height, reach
from .evaluation import metrics, score
from .rules import ALEXEY, BAR_FULL, CASH, POOL_MAX, STACK


@dataclass
class Field:
    piles: list[list[int]]
    pool: list[int]
    bars: list[int]
    cash: int = 0
    dead: bool = False


def options(field: Field, pair: tuple[int, int], rules: Rules) -> list[tuple[Action, Field]]:
    """Every step from ``field``: placements of ``pair`` (sorted), then uses of the top helper."""
    return placements(field, pair, rules) + helper_uses(field, rules)


def placements(field: Field, pair: tuple[int, int], rules: Rules) -> list[tuple[Action, Field]]:
    """Every placement of ``pair`` (sorted): the hats land left pile first, 5-runs vanish and pay."""
    out: list[tuple[Action, Field]] = []
    heights = [pile_height(p, rules.nest) for p in field.piles]
    for cols in sorted(reach(heights, *pair)):
        f = Field([list(p) for p in field.piles], list(field.pool), list(field.bars), field.cash)
        vanished = 0
        for col, hat in sorted(((cols[0], pair[0]), (cols[1], pair[1]))):
            pile = f.piles[col]
            pile.append(hat)
            if pile_height(pile, rules.nest) > rules.top_px:
                f.dead = True
            if len(pile) >= STACK and len(set(pile[-STACK:])) == 1:
                del pile[-STACK:]
                vanished += 1
                f.cash += CASH[hat]
                g = rules.groups[hat]
                f.bars[g] += 1
                if f.bars[g] >= BAR_FULL:
                    f.bars[g] = 0
                    if len(f.pool) < POOL_MAX:
                        f.pool.append(g)
        if vanished == 2:
            f.cash += rules.hatris_bonus
        out.append((("place", *cols), f))
    return out


def helper_uses(field: Field, rules: Rules) -> list[tuple[Action, Field]]:
    """Every use of the top helper of the pool: Alexey's removals or Vladimir's swaps."""
    if not field.pool:
        return []
    out: list[tuple[Action, Field]] = []
    rest = field.pool[:-1]
    if field.pool[-1] == ALEXEY:
        for ks in alexey_patterns([len(p) for p in field.piles], rules.alexey):
            piles = [list(p[k:]) for p, k in zip(field.piles, ks, strict=True)]
            out.append((("alexey", *ks), Field(piles, list(rest), list(field.bars), field.cash)))
    else:
        for i, j in VLADIMIR_SWAPS:
            piles = [list(p) for p in field.piles]
            piles[i], piles[j] = piles[j], piles[i]
            out.append((("vladimir", i, j), Field(piles, list(rest), list(field.bars), field.cash)))
    return out


def value(field: Field, rules: Rules, weights: Sequence[float]) -> float:
    m = metrics(
        field.piles,
        field.cash,
        rules.nest,
        rules.top_px,
        rules.min_run,
        rules.metric7_formula,
        rules.sort_dir == "asc_lr",
    )
    return score(m, weights)


def search(
    field: Field, current: tuple[int, int], nxt: tuple[int, int], rules: Rules, weights: Sequence[float]
) -> tuple[Action | None, float]:
    """The best first step and its chain score (Q24 fallback: best surviving single step)."""
    best: tuple[Action | None, float] = (None, float("-inf"))
    single: tuple[Action | None, float] = (None, float("-inf"))
    for a1, f1 in options(field, current, rules):
        if f1.dead:
            continue
        one = value(f1, rules, weights)
        if one > single[1]:
            single = (a1, one)
        v = second_step(f1, nxt, rules, weights)
        if v > best[1]:
            best = (a1, v)
    return best if best[0] is not None else single


def second_step(field: Field, nxt: tuple[int, int], rules: Rules, weights: Sequence[float]) -> float:
    """The best score over the steps from ``field`` that do not top out (-inf when none)."""
    scores = [value(f2, rules, weights) for _, f2 in options(field, nxt, rules) if not f2.dead]
    return max(scores, default=float("-inf"))
