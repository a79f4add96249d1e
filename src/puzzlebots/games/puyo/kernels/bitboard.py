"""The bitboard Tsu field: drops, pops by bit-parallel flood fill, gravity by column compaction, Tsu scoring.

Layout. A field is six ``uint64`` words, ``b[2 * k + w]``: bit plane k (0..2) of word w (0..1). Word 0 holds
columns 0-2, word 1 columns 3-5, each column in a 16-bit lane (bit ``16 * (x % 3) + y`` is row y; rows 0..12
are used, 13..15 stay zero as a guard). A cell's value (0 empty, 1..5 colours, 6 garbage, as in the grid
kernel) is spelt in binary across the three planes, so the colour-c mask of a word is the AND of each plane
or its complement, and a cell is occupied when any plane is set.

Why this layout. ama (citrus610/ama, ``core/fieldbit``) keeps one 128-bit SSE mask per colour with a 16-bit
lane per column; nova (morioprog/nova, ``core/src/board``) keeps three 128-bit planes (the value in binary)
with the same lanes, so gravity touches three masks instead of six. Numba has no 128-bit integer and no
portable SIMD, so the 128 bits become two ``uint64`` words of three columns each: a vertical neighbour is a
shift by 1, a horizontal neighbour a shift by 16 with one carry between the words. The 16-bit lanes leave
three zero rows above row 13, so shifts never leak between columns, and a column's three planes pack into
one word (one lane each) that is compacted in one pass when puyos pop (gravity). The binary spelling (nova's)
keeps a field at 48 bytes and a gravity step at one word per column that popped.

Rules as in ``kernels.field`` (the grid kernel, now the oracle these are tested against) and ``oracle.py``:
rows 1..12 pop, row 13 holds but never pops, anything resting in row 14 vanishes, garbage next to a pop in
rows 1..12 is cleared, and a link scores ``10 x PC x clamp(CP + CB + GB, 1, 999)``. After the first link only
colours of puyos that fell can form a new group (an unmoved group of 4+ would have popped already), so each
link looks only at those colours.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import (
    GARBAGE,
    GROUP_BONUS_ARR,
    MAX_GARBAGE_DROP,
    N_PLACEMENTS,
    PLACEMENT_R,
    PLACEMENT_X,
    ROWS,
    SPAWN_X,
    VISIBLE_ROWS,
    WIDTH,
)
from .bits import leading_zeros, popcount, to_int, trailing_zeros
from .field import link_score
from .placements import placement_mask

_GB = GROUP_BONUS_ARR
_PX = PLACEMENT_X
_PR = PLACEMENT_R
_DX = np.array([0, 1, 0, -1], dtype=np.int64)

NWORDS = 6  # uint64 words per field
U0 = np.uint64(0)
U1 = np.uint64(1)
LANE13 = np.uint64(0x1FFF)  # rows 1..13 of one lane
ALL13 = np.uint64(0x1FFF_1FFF_1FFF)  # rows 1..13 of the three lanes of a word
ALL12 = np.uint64(0x0FFF_0FFF_0FFF)  # rows 1..12 (the rows that pop)
BCAST = np.uint64(0x0001_0001_0001)  # times a lane value: that value in all three lanes
S1 = np.uint64(1)
S16 = np.uint64(16)
S32 = np.uint64(32)
S63 = np.uint64(63)


@njit(cache=True)
def new_field() -> np.ndarray:
    """An empty field."""
    return np.zeros(NWORDS, dtype=np.uint64)


@njit(cache=True)
def encode(cells: np.ndarray, b: np.ndarray) -> None:
    """Write the grid ``cells`` (uint8, (6, 13), see ``kernels.field``) into the bitboard ``b``."""
    b[:] = U0
    for x in range(WIDTH):
        w = x // 3
        s = np.uint64(16 * (x % 3))
        for y in range(ROWS):
            c = cells[x, y]
            bit = U1 << (s + np.uint64(y))
            for k in range(3):
                if (c >> k) & 1:
                    b[2 * k + w] |= bit


@njit(cache=True)
def decode(b: np.ndarray, cells: np.ndarray, heights: np.ndarray) -> None:
    """Write the bitboard ``b`` into the grid ``cells`` and its column ``heights``."""
    for x in range(WIDTH):
        w = x // 3
        s = np.uint64(16 * (x % 3))
        h = 0
        for y in range(ROWS):
            sh = s + np.uint64(y)
            c = ((b[w] >> sh) & U1) | (((b[2 + w] >> sh) & U1) << S1) | (((b[4 + w] >> sh) & U1) << np.uint64(2))
            cells[x, y] = c
            if c != 0:
                h = y + 1
        heights[x] = h


@njit(cache=True)
def occupied(b: np.ndarray) -> tuple[np.uint64, np.uint64]:
    """The occupied cells (both words)."""
    return b[0] | b[2] | b[4], b[1] | b[3] | b[5]


@njit(cache=True, inline="always")
def plane(b: np.ndarray, c: int, w: int) -> np.uint64:
    """The cells of value ``c`` (1..6) in word ``w``, rows 1..13."""
    m = ALL13
    m &= b[w] if c & 1 else ~b[w]
    m &= b[2 + w] if c & 2 else ~b[2 + w]
    m &= b[4 + w] if c & 4 else ~b[4 + w]
    return m


@njit(cache=True, inline="always")
def colour_cells(b: np.ndarray, c: int) -> tuple[np.uint64, np.uint64]:
    """The cells of value ``c`` in rows 1..12, the rows that pop, as a mask (word 0, word 1)."""
    return plane(b, c, 0) & ALL12, plane(b, c, 1) & ALL12


@njit(cache=True, inline="always")
def height(b: np.ndarray, x: int) -> int:
    """The number of puyos in column x (nothing floats in a stable field)."""
    w = x // 3
    s = np.uint64(16 * (x % 3))
    return to_int(popcount(((b[w] | b[2 + w] | b[4 + w]) >> s) & LANE13))


@njit(cache=True)
def column_heights(b: np.ndarray, heights: np.ndarray) -> None:
    """Fill ``heights`` with every column's height (what ``placements.placement_mask`` reads)."""
    for x in range(WIDTH):
        heights[x] = height(b, x)


@njit(cache=True, inline="always")
def cell(b: np.ndarray, x: int, y: int) -> int:
    """The value of cell (x, y)."""
    w = x // 3
    sh = np.uint64(16 * (x % 3) + y)
    return to_int(((b[w] >> sh) & U1) | (((b[2 + w] >> sh) & U1) << S1) | (((b[4 + w] >> sh) & U1) << np.uint64(2)))


@njit(cache=True, inline="always")
def count(a: np.uint64, c: np.uint64) -> int:
    """The number of cells in the mask (a, c)."""
    return to_int(popcount(a)) + to_int(popcount(c))


@njit(cache=True, inline="always")
def expand(a: np.uint64, c: np.uint64) -> tuple[np.uint64, np.uint64]:
    """(a, c) and its four neighbours (unmasked: AND the result with the cells it may grow into)."""
    ea = a | (a << S1) | (a >> S1) | (a << S16) | (a >> S16) | (c << S32)
    ec = c | (c << S1) | (c >> S1) | (c << S16) | (c >> S16) | (a >> S32)
    return ea, ec


@njit(cache=True, inline="always")
def neighbours(a: np.uint64, c: np.uint64) -> tuple[np.uint64, ...]:
    """The cells of the mask (a, c) with a same-mask neighbour above, below, left and right: (up, down, left,
    right) of word 0, then of word 1."""
    ua = (a >> S1) & a
    da = (a << S1) & a
    la = (a << S16) & a
    ra = ((a >> S16) | (c << S32)) & a
    uc = (c >> S1) & c
    dc = (c << S1) & c
    lc = ((c << S16) | (a >> S32)) & c
    rc = (c >> S16) & c
    return ua, da, la, ra, uc, dc, lc, rc


@njit(cache=True, inline="always")
def pop_mask(a: np.uint64, c: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The cells of the mask (a, c) (one colour, rows 1..12) that lie in groups of 4 or more.

    A group of 4+ holds a cell with 3 same-colour neighbours or two touching cells with 2 each (every
    connected set of 4 contains a tetromino, and every tetromino does); one expansion of those seeds within
    the mask covers the whole group, since every other member touches a seed.
    """
    ua, da, la, ra, uc, dc, lc, rc = neighbours(a, c)
    m3a = ((ua & da) & (la | ra)) | ((la & ra) & (ua | da))
    m3c = ((uc & dc) & (lc | rc)) | ((lc & rc) & (uc | dc))
    m2a = (ua & da) | (la & ra) | ((ua | da) & (la | ra))
    m2c = (uc & dc) | (lc & rc) | ((uc | dc) & (lc | rc))
    # expand() includes the cell itself; a 2-connected seed needs a 2-connected neighbour
    pa = (m2a >> S1) | (m2a << S1) | (m2a << S16) | (m2a >> S16) | (m2c << S32)
    pc = (m2c >> S1) | (m2c << S1) | (m2c << S16) | (m2c >> S16) | (m2a >> S32)
    sa = m3a | (m2a & pa)
    sc = m3c | (m2c & pc)
    if (sa | sc) == U0:
        return U0, U0
    ea, ec = expand(sa, sc)
    return ea & a, ec & c


@njit(cache=True, inline="always")
def flood(sa: np.uint64, sc: np.uint64, a: np.uint64, c: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The cells of (a, c) connected to the seed (sa, sc)."""
    while True:
        ea, ec = expand(sa, sc)
        ea &= a
        ec &= c
        if ea == sa and ec == sc:
            return sa, sc
        sa = ea
        sc = ec


@njit(cache=True)
def group_bonus(a: np.uint64, c: np.uint64) -> int:
    """The summed group bonus of the groups in the pop mask (a, c) of one colour."""
    n = count(a, c)
    if n < 8:  # two groups of 4+ need 8 cells
        return _GB[min(n, 11)]
    gb = 0
    while (a | c) != U0:
        if a != U0:
            sa = a & (~a + U1)
            sc = U0
        else:
            sa = U0
            sc = c & (~c + U1)
        ga, gc = flood(sa, sc, a, c)
        gb += _GB[min(count(ga, gc), 11)]
        a ^= ga
        c ^= gc
    return gb


@njit(cache=True)
def group_size(b: np.ndarray, x: int, y: int) -> int:
    """Size of the same-colour group containing (x, y); 0 for empty, garbage or the hidden row."""
    if y < 0 or y >= VISIBLE_ROWS:
        return 0
    v = cell(b, x, y)
    if v == 0 or v == GARBAGE:
        return 0
    bit = U1 << np.uint64(16 * (x % 3) + y)
    sa = bit if x < 3 else U0
    sc = U0 if x < 3 else bit
    va, vc = colour_cells(b, v)
    ga, gc = flood(sa, sc, va, vc)
    return count(ga, gc)


@njit(cache=True, inline="always")
def _compact(b: np.ndarray, w: int, x: int, k: np.uint64) -> np.uint64:
    """Remove the rows ``k`` (a lane mask) from column x of word w, letting what was above fall.

    The column's three planes travel together in one word (one lane each); returns the lane's cells that
    fell (every cell now at or above the lowest removed row).
    """
    s = np.uint64(16 * (x % 3))
    v = ((b[w] >> s) & LANE13) | (((b[2 + w] >> s) & LANE13) << S16) | (((b[4 + w] >> s) & LANE13) << S32)
    lowest = trailing_zeros(k)
    while k != U0:
        p = S63 - leading_zeros(k)
        below = BCAST * ((U1 << p) - U1)
        v = (v & below) | ((v >> S1) & ~below & ALL13)
        k ^= U1 << p
    keep = ~(LANE13 << s)
    b[w] = (b[w] & keep) | ((v & LANE13) << s)
    b[2 + w] = (b[2 + w] & keep) | (((v >> S16) & LANE13) << s)
    b[4 + w] = (b[4 + w] & keep) | (((v >> S32) & LANE13) << s)
    occ = (v | (v >> S16) | (v >> S32)) & LANE13
    return ((occ >> lowest) << lowest) << s


@njit(cache=True)
def fall(b: np.ndarray, pa: np.uint64, pc: np.uint64) -> tuple[np.uint64, np.uint64]:
    """Remove the cells (pa, pc) and apply gravity; return the cells that moved."""
    ma = U0
    mc = U0
    for x in range(WIDTH):
        w = x // 3
        s = np.uint64(16 * (x % 3))
        k = ((pa if w == 0 else pc) >> s) & LANE13
        if k == U0:
            continue
        if w == 0:
            ma |= _compact(b, w, x, k)
        else:
            mc |= _compact(b, w, x, k)
    return ma, mc


@njit(cache=True)
def resolve_moved(b: np.ndarray, ma: np.uint64, mc: np.uint64, stats: np.ndarray) -> int:
    """Pop, fall and repeat until stable, given that only groups touching the cells (ma, mc) can pop now.

    Returns the chain score (without all-clear bonus); ``stats`` receives [links, coloured puyos popped,
    garbage cleared], as ``kernels.field.resolve``.
    """
    links = 0
    score = 0
    popped_total = 0
    garbage_total = 0
    while True:
        popa = U0
        popc = U0
        npop = 0
        ncol = 0
        gb = 0
        for colour in range(1, GARBAGE):
            a, c = colour_cells(b, colour)
            if ((a & ma) | (c & mc)) == U0:
                continue
            pa, pc = pop_mask(a, c)
            if (pa | pc) == U0:
                continue
            npop += count(pa, pc)
            ncol += 1
            gb += group_bonus(pa, pc)
            popa |= pa
            popc |= pc
        if npop == 0:
            break
        links += 1
        ga, gc = colour_cells(b, GARBAGE)
        if (ga | gc) != U0:
            ea, ec = expand(popa, popc)
            ea &= ga
            ec &= gc
            garbage_total += count(ea, ec)
            popa |= ea
            popc |= ec
        score += link_score(npop, links, ncol, gb)
        popped_total += npop
        ma, mc = fall(b, popa, popc)
    stats[0] = links
    stats[1] = popped_total
    stats[2] = garbage_total
    return score


@njit(cache=True)
def resolve(b: np.ndarray, stats: np.ndarray) -> int:
    """Resolve any field (every group may pop): ``resolve_moved`` with every cell counted as moved."""
    return resolve_moved(b, ALL13, ALL13, stats)


@njit(cache=True, inline="always")
def drop_puyo(b: np.ndarray, x: int, colour: int) -> int:
    """Drop one puyo into column x; return its row, or -1 when it would rest in row 14 and vanishes."""
    y = height(b, x)
    if y >= ROWS:
        return -1
    w = x // 3
    bit = U1 << np.uint64(16 * (x % 3) + y)
    for k in range(3):
        if (colour >> k) & 1:
            b[2 * k + w] |= bit
    return y


@njit(cache=True)
def bury(b: np.ndarray, garbage: int) -> None:
    """Drop ``garbage`` (at most 30) spread evenly from column 1: what a search assumes falls after its move."""
    for k in range(min(garbage, MAX_GARBAGE_DROP)):
        drop_puyo(b, k % WIDTH, GARBAGE)


@njit(cache=True, inline="always")
def drop_pair(b: np.ndarray, p: int, axis: int, child: int, out: np.ndarray) -> bool:
    """Drop the pair (axis, child) at placement ``p``; write (ax, ay, cx, cy) into ``out``.

    Returns False (field untouched) when the axis would come to rest in row 14, which the rules forbid.
    A child that would rest in row 14 vanishes (its row is reported as -1).
    """
    x = _PX[p]
    r = _PR[p]
    cx = x + _DX[r]
    h = height(b, x)
    if r == 2:
        if h + 1 >= ROWS:
            return False
        cy = drop_puyo(b, x, child)
        ay = drop_puyo(b, x, axis)
    else:
        if h >= ROWS:
            return False
        ay = drop_puyo(b, x, axis)
        cy = drop_puyo(b, cx, child)
    out[0] = x
    out[1] = ay
    out[2] = cx
    out[3] = cy
    return True


@njit(cache=True, inline="always")
def _bit_of(x: int, y: int) -> tuple[np.uint64, np.uint64]:
    """The cell (x, y) as a (word 0, word 1) mask; empty for y = -1 (a puyo that vanished)."""
    if y < 0:
        return U0, U0
    bit = U1 << np.uint64(16 * (x % 3) + y)
    return (bit, U0) if x < 3 else (U0, bit)


@njit(cache=True, inline="always")
def _pops(b: np.ndarray, colour: int, ta: np.uint64, tc: np.uint64) -> bool:
    """False only when no puyo of the cells (ta, tc) (of ``colour``; empty mask: none) is in a group of 4+.

    A group of 4+ has 4 cells within 3 steps of any of its cells, so the flood stops after 3 expansions
    (most stop after one: a lone puyo). A True for two seeds in separate small groups only costs a resolve.
    """
    a, c = colour_cells(b, colour)
    sa = ta & a
    sc = tc & c
    for _ in range(3):
        if (sa | sc) == U0:
            return False
        ea, ec = expand(sa, sc)
        ea &= a
        ec &= c
        if ea == sa and ec == sc:
            break
        sa = ea
        sc = ec
    return count(sa, sc) >= 4


@njit(cache=True, inline="always")
def play_pair(b: np.ndarray, p: int, axis: int, child: int, pos: np.ndarray, stats: np.ndarray) -> int:
    """Drop a pair and resolve; return the chain score, or -1 if the placement is not physically possible.

    The field was stable, so only a group holding a placed puyo can pop first: when neither placed puyo
    is in a group of 4+, nothing moves (the common case, checked with the two colours' masks alone).
    """
    if not drop_pair(b, p, axis, child, pos):
        return -1
    a1, c1 = _bit_of(pos[0], pos[1])
    a2, c2 = _bit_of(pos[2], pos[3])
    quiet = (
        not _pops(b, axis, a1 | a2, c1 | c2)
        if axis == child
        else not _pops(b, axis, a1, c1) and not _pops(b, child, a2, c2)
    )
    if quiet:
        stats[0] = 0
        stats[1] = 0
        stats[2] = 0
        return 0
    return resolve_moved(b, a1 | a2, c1 | c2, stats)


@njit(cache=True, inline="always")
def reachable(b: np.ndarray, axis: int, child: int, crossable: int, heights: np.ndarray, mask: np.ndarray) -> None:
    """The placements of the pair (axis, child) that field ``b`` lets through, into ``mask``; ``heights`` (a
    (6,) buffer) receives the field's column heights."""
    column_heights(b, heights)
    placement_mask(heights, axis == child, crossable, mask)


#: the death cell (3, 12) in word 0 of each plane: a searched field holding a puyo there has lost
DEATH_BIT = U1 << np.uint64(16 * (SPAWN_X % 3) + VISIBLE_ROWS - 1)


@njit(cache=True, inline="always")
def play_child(
    child: np.ndarray,
    parent: np.ndarray,
    p: int,
    axis: int,
    colour: int,
    garbage: int,
    pos: np.ndarray,
    stats: np.ndarray,
) -> int:
    """A search's child: ``parent`` copied into ``child``, the pair played at placement ``p``, then ``garbage``
    buried; the chain score, or -1 when the placement is impossible or the child is dead."""
    child[:] = parent
    score = play_pair(child, p, axis, colour, pos, stats)
    if score < 0:
        return -1
    if garbage > 0:
        bury(child, garbage)
    if (child[0] | child[2] | child[4]) & DEATH_BIT:
        return -1
    return score


@njit(cache=True)
def drop_garbage(b: np.ndarray, per_column: np.ndarray) -> None:
    """Drop ``per_column[x]`` garbage puyos onto each column; those that would rest in row 14 vanish."""
    for x in range(WIDTH):
        for _ in range(per_column[x]):
            drop_puyo(b, x, GARBAGE)


@njit(cache=True)
def play_grid(
    cells: np.ndarray, heights: np.ndarray, p: int, axis: int, child: int, pos: np.ndarray, stats: np.ndarray
) -> int:
    """``play_pair`` on a grid field (the engine's stored form): encode, play on the bitboard, decode."""
    b = np.empty(NWORDS, dtype=np.uint64)
    encode(cells, b)
    score = play_pair(b, p, axis, child, pos, stats)
    if score >= 0:
        decode(b, cells, heights)
    return score


@njit(cache=True)
def bench_placements(fields: np.ndarray, pairs: np.ndarray, crossable: int) -> tuple[int, int]:
    """Resolve every reachable placement of ``pairs[i]`` on a copy of the bitboard ``fields[i]``.

    Returns (placements resolved, total links), the second so the work cannot be optimised away.
    """
    heights = np.empty(WIDTH, dtype=np.int64)
    mask = np.zeros(N_PLACEMENTS, dtype=np.bool_)
    pos = np.empty(4, dtype=np.int64)
    stats = np.empty(3, dtype=np.int64)
    work = np.empty(NWORDS, dtype=np.uint64)
    count = 0
    links = 0
    for i in range(fields.shape[0]):
        a = pairs[i, 0]
        c = pairs[i, 1]
        reachable(fields[i], a, c, crossable, heights, mask)
        for p in range(N_PLACEMENTS):
            if not mask[p]:
                continue
            work[:] = fields[i]
            if play_pair(work, p, a, c, pos, stats) >= 0:
                count += 1
                links += stats[0]
    return count, links


@njit(cache=True)
def bench_resolve(b: np.ndarray, n: int) -> int:
    """Resolve a copy of the bitboard ``b`` ``n`` times (the copy timed too): the summed score, so the work
    cannot be optimised away. Here, not in the benchmark, so that numba caches it under one module name."""
    work = np.empty_like(b)
    stats = np.zeros(3, dtype=np.int64)
    total = 0
    for _ in range(n):
        work[:] = b
        total += resolve(work, stats)
    return total


@njit(cache=True)
def same_group(b: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> bool:
    """True when (x1, y1) lies in the same-colour group of (x0, y0) (rows 1..12; False for a vanished puyo)."""
    if y0 < 0 or y1 < 0 or group_size(b, x0, y0) == 0:
        return False
    v = cell(b, x0, y0)
    sa, sc = _bit_of(x0, y0)
    va, vc = colour_cells(b, v)
    ga, gc = flood(sa, sc, va, vc)
    ta, tc = _bit_of(x1, y1)
    return ((ga & ta) | (gc & tc)) != U0


@njit(cache=True)
def drop_garbage_grid(cells: np.ndarray, heights: np.ndarray, per_column: np.ndarray) -> None:
    """``drop_garbage`` on a grid field (the engine's stored form)."""
    b = np.empty(NWORDS, dtype=np.uint64)
    encode(cells, b)
    drop_garbage(b, per_column)
    decode(b, cells, heights)
