"""The ``builder`` bot's field evaluation (numba, on bitboards): how promising a field is for one big chain.

The features follow ama's beam evaluation (citrus610/ama, ``ai/search/beam/eval``), re-derived for our
bitboards: a quiet search drops 1-3 puyos of each colour on each reachable column and resolves, and the best
such trigger is valued by its links, its height, the puyos it needs, the room beside it to extend the chain
(``chi``) and the connections left after it; the field itself by its shape (a U with the left side a little
higher), wells, bumps, 2- and 3-connections, garbage, how tall the spawn (death) column is against its
sides, and how well the bottom-left corner follows a known chain form (``FORMS``: GTR and its kin). The value is the dot
product of these features with a weight vector (``W_*``), so the tuner can fit it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..names import CHAIN_WEIGHT_NAMES
from ..rules import GARBAGE, SPAWN_X, VISIBLE_ROWS, WIDTH
from .bitboard import (
    BCAST,
    LANE13,
    S1,
    S16,
    S32,
    U0,
    U1,
    cell,
    colour_cells,
    drop_puyo,
    group_size,
    neighbours,
    plane,
    resolve_moved,
)
from .bits import popcount, to_int

#: weight indices: the value of a field is sum(w[i] * feature[i])
W_CHAIN = 0  # links of the best quiet trigger
W_Y = 1  # height of that trigger's column (a high trigger leaves the bottom for the chain)
W_KEY = 2  # puyos that trigger needs
W_CHI = 3  # free columns beside the trigger at or below its height (room to extend the chain)
W_SHAPE = 4  # distance of the column heights from the ideal U (left half one row higher)
W_WELL = 5  # depth of columns lower than both neighbours
W_BUMP = 6  # height of columns taller than both neighbours
W_LINK2 = 7  # same-colour pairs not part of a 3-group (field and the trigger's leftover)
W_LINK3 = 8  # puyos with two same-colour neighbours (field and the trigger's leftover)
W_NUISANCE = 9  # garbage puyos in the field
W_SIDE = 10  # tallest side (left 2 or right 3 columns) minus the spawn column: keeps the death column low
W_SPAWN = 11  # rows of the spawn column above 9, squared (the death cell is row 12)
W_TEAR = 12  # placements that split the pair to different heights (action cost, summed along the path)
W_WASTE = 13  # puyos popped while building (action cost, summed along the path)
W_FORM = 14  # agreement of the bottom-left corner with its best chain form (``form``)
N_WEIGHTS = 15
WEIGHT_NAMES = CHAIN_WEIGHT_NAMES
#: each feature's sign: tuned weights are magnitudes (the tuner keeps weights non-negative, summing to 100;
#: the evaluation only ranks fields, so the scale is free)
SIGNS = np.array([1.0, 1.0, -1.0, 1.0, -1.0, -1.0, -1.0, 1.0, 1.0, -1.0, 1.0, -1.0, -1.0, -1.0, 1.0])
#: the form's hand weight (see docs/puyo.md, "Chain forms", for the runs that chose it)
FORM_WEIGHT = 0.0
#: hand-set magnitudes (ama's "build" profile rescaled to our features); CMA-ES weights ship in data/
HAND_WEIGHTS = (
    1000.0,
    150.0,
    200.0,
    150.0,
    80.0,
    100.0,
    100.0,
    120.0,
    220.0,
    250.0,
    50.0,
    300.0,
    150.0,
    250.0,
    FORM_WEIGHT,
)


def signed(magnitudes: object) -> np.ndarray:
    """The evaluation's weight vector from tuned magnitudes (their signs are ignored)."""
    return SIGNS * np.abs(np.asarray(magnitudes, dtype=np.float64))


#: Known opening chain forms in the bottom-left corner, bottom row first, one letter per cell ("." free):
#: cells of one upper-case letter should share a colour; neighbours (4-neighbourhood) with different letters
#: should not (they would pop together too early); lower-case cells need no common colour, only to differ
#: from neighbouring upper-case cells. GTR is the most played; the second and third are two of its kin
#: (the "sub-GTR" and a variant with a second stair), as strong players draw them.
FORMS = (
    ("BBe...", "AABe..", "ABe...", "CCCd..", "ddd..."),  # GTR
    ("BCCf..", "ABBCf.", "AACf..", "DDDe..", "eee..."),  # its sub-GTR kin
    ("CCBCf.", "ABBg..", "AACf..", "DDDe..", "eee..."),  # a second stair
)
#: the value of a form one of whose relations the field breaks (any intact form scores more)
FORM_BROKEN = -100
#: garbage below this row ends the opening: the form term is then 0
FORM_ROWS = 4
#: those rows in the three lanes of a word
_FORM_LOW = ((U1 << np.uint64(FORM_ROWS)) - U1) * BCAST


def _form_relations(rows: tuple[str, ...]) -> list[tuple[int, int, int, int, int]]:
    """The (x0, y0, x1, y1, rel) pairs of one form: rel +1 same colour wanted, -1 different wanted."""
    spots = [(x, y, ch) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "."]
    out = []
    for i, (x, y, a) in enumerate(spots):
        for u, v, c in spots[i + 1 :]:
            if a == c and a.isupper():
                out.append((x, y, u, v, 1))
            elif a != c and (a.isupper() or c.isupper()) and abs(x - u) + abs(y - v) == 1:
                out.append((x, y, u, v, -1))
    return out


_RELS = [_form_relations(rows) for rows in FORMS]
#: every form's relations back to back, and where each form's run of them ends
FORM_PAIRS = np.array([r for rels in _RELS for r in rels], dtype=np.int64)
FORM_ENDS = np.cumsum([len(rels) for rels in _RELS]).astype(np.int64)


@njit(cache=True)
def form(b: np.ndarray) -> int:
    """How well the field follows its best-matching form (``FORMS``): over relations between two filled
    template cells, +1 for each kept; a form with a broken relation scores ``FORM_BROKEN``. Garbage in the
    bottom ``FORM_ROWS`` rows makes it 0 (the opening is over)."""
    if ((plane(b, GARBAGE, 0) | plane(b, GARBAGE, 1)) & _FORM_LOW) != U0:
        return 0
    best = FORM_BROKEN
    start = 0
    for f in range(FORM_ENDS.shape[0]):
        kept = 0
        for k in range(start, FORM_ENDS[f]):
            p = cell(b, FORM_PAIRS[k, 0], FORM_PAIRS[k, 1])
            q = cell(b, FORM_PAIRS[k, 2], FORM_PAIRS[k, 3])
            if p == 0 or q == 0:
                continue
            if (p == q) == (FORM_PAIRS[k, 4] > 0):
                kept += 1
            else:
                kept = FORM_BROKEN
                break
        if kept > best:
            best = kept
        start = FORM_ENDS[f]
    return best


@njit(cache=True, inline="always")
def _links23(a: np.uint64, c: np.uint64) -> tuple[int, int]:
    """2- and 3-connections of one colour's mask (a, c): cells with two same-colour neighbours, and touching
    pairs that are not next to such a cell (each pair counted once)."""
    ua, da, la, ra, uc, dc, lc, rc = neighbours(a, c)
    l3a = ((ua | da) & (la | ra)) | (ua & da) | (la & ra)
    l3c = ((uc | dc) & (lc | rc)) | (uc & dc) | (lc & rc)
    ea = l3a | (l3a << S1) | (l3a >> S1) | (l3a << S16) | (l3a >> S16) | (l3c << S32)
    ec = l3c | (l3c << S1) | (l3c >> S1) | (l3c << S16) | (l3c >> S16) | (l3a >> S32)
    l2a = (ua | la) & ~ea
    l2c = (uc | lc) & ~ec
    return to_int(popcount(l2a)) + to_int(popcount(l2c)), to_int(popcount(l3a)) + to_int(popcount(l3c))


@njit(cache=True)
def links23(b: np.ndarray) -> tuple[int, int]:
    """2- and 3-connections over every colour of the field (rows 1..12)."""
    n2 = 0
    n3 = 0
    for c in range(1, GARBAGE):
        a, d = colour_cells(b, c)
        if (a | d) == U0:
            continue
        x2, x3 = _links23(a, d)
        n2 += x2
        n3 += x3
    return n2, n3


@njit(cache=True)
def chi(heights: np.ndarray, x: int) -> int:
    """How far the field stays at or below the trigger column's height on each side (ama's ``chi``)."""
    out = 0
    for side in (1, -1):
        i = x + side
        while 0 <= i < WIDTH and heights[i] <= heights[x]:
            out += 1
            i += side
        i = x + side
        while 0 <= i < WIDTH and heights[i] < heights[x]:
            out += 1
            i += side
    return out


@njit(cache=True)
def shape_terms(heights: np.ndarray) -> tuple[int, int, int]:
    """(distance from the ideal U, well depth, bump height) of the column heights."""
    avg = 0
    for x in range(WIDTH):
        avg += heights[x]
    avg //= WIDTH
    shape = 0
    for x in range(WIDTH):
        shape += abs(heights[x] - avg - (1 if x < 3 else -1))
    well = max(0, heights[1] - heights[0]) + max(0, heights[4] - heights[5])
    bump = 0
    for x in range(1, WIDTH - 1):
        lo = min(heights[x - 1], heights[x + 1])
        hi = max(heights[x - 1], heights[x + 1])
        if heights[x] < lo:
            well += lo - heights[x]
        if heights[x] > hi:
            bump += heights[x] - hi
    return shape, well, bump


@njit(cache=True, inline="always")
def _touching_colours(b: np.ndarray, heights: np.ndarray, x: int) -> int:
    """A bit per colour of the cells that 1-3 puyos dropped on column x would touch (below them, and beside
    them in their visible rows): a trigger colour must be among them to fire."""
    top0 = heights[x]
    near = 0
    if top0 > 0:
        near |= 1 << cell(b, x, top0 - 1)
    for y in range(top0, min(top0 + 3, VISIBLE_ROWS)):
        if x > 0:
            near |= 1 << cell(b, x - 1, y)
        if x < WIDTH - 1:
            near |= 1 << cell(b, x + 1, y)
    return near


@njit(cache=True)
def quiet(
    b: np.ndarray,
    heights: np.ndarray,
    n_colours: int,
    crossable: int,
    w: np.ndarray,
    work: np.ndarray,
    stats: np.ndarray,
) -> tuple[float, int, int]:
    """The best trigger 1-3 puyos of one colour on one reachable column would fire, valued by the trigger
    weights; returns (value, links, score), (0, 0, 0) when no such drop fires anything."""
    best = -1.0e18
    best_links = 0
    best_score = 0
    for x in range(WIDTH):
        if heights[x] >= VISIBLE_ROWS:
            continue
        blocked = False  # the pair must be able to reach column x from the spawn column
        for k in range(min(x, SPAWN_X), max(x, SPAWN_X) + 1):
            if heights[k] > crossable:
                blocked = True
        if blocked:
            continue
        top0 = heights[x]
        near = _touching_colours(b, heights, x)
        for c in range(1, n_colours + 1):
            if not (near >> c) & 1:
                continue  # three puyos of c touching no other c make a group of three: nothing fires
            work[:] = b
            top = top0
            fired = False
            while top - top0 < 3 and top < VISIBLE_ROWS:
                drop_puyo(work, x, c)
                top += 1
                if group_size(work, x, top - 1) >= 4:
                    fired = True
                    break
            if not fired:
                continue
            lane = LANE13 << np.uint64(16 * (x % 3))
            score = resolve_moved(work, lane if x < 3 else U0, U0 if x < 3 else lane, stats)
            links = stats[0]
            n2, n3 = links23(work)
            v = w[W_CHAIN] * links + w[W_Y] * top0 + w[W_KEY] * (top - top0) + w[W_CHI] * chi(heights, x)
            v += w[W_LINK2] * n2 + w[W_LINK3] * n3
            if v > best:
                best = v
                best_links = links
                best_score = score
    if best_links == 0:
        return 0.0, 0, 0
    return best, best_links, best_score


@njit(cache=True)
def evaluate(
    b: np.ndarray,
    heights: np.ndarray,
    n_colours: int,
    crossable: int,
    w: np.ndarray,
    work: np.ndarray,
    stats: np.ndarray,
) -> float:
    """The static value of a stable field (the path's action costs are added by the search)."""
    value, _, _ = quiet(b, heights, n_colours, crossable, w, work, stats)
    shape, well, bump = shape_terms(heights)
    n2, n3 = links23(b)
    garbage = to_int(popcount(plane(b, GARBAGE, 0))) + to_int(popcount(plane(b, GARBAGE, 1)))
    side = max(heights[0] + heights[1], heights[3] + heights[4] + heights[5]) - heights[SPAWN_X]
    spawn = max(0, heights[SPAWN_X] - 9)
    value += w[W_SHAPE] * shape + w[W_WELL] * well + w[W_BUMP] * bump + w[W_LINK2] * n2 + w[W_LINK3] * n3
    value += w[W_NUISANCE] * garbage + w[W_SIDE] * side + w[W_SPAWN] * spawn * spawn
    if w[W_FORM] != 0.0:
        value += w[W_FORM] * form(b)
    return value
