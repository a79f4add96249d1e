"""The bitboard kernel against the grid kernel (its oracle): same fields, links, scores, groups and garbage."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.games.puyo.engine import Field
from puzzlebots.games.puyo.kernels import bitboard as BB
from puzzlebots.games.puyo.kernels import field as K
from puzzlebots.games.puyo.kernels import placements as P
from puzzlebots.games.puyo.kernels.beam import connections
from puzzlebots.games.puyo.rules import GARBAGE, N_PLACEMENTS, ROWS, VISIBLE_ROWS, WIDTH

DATA = Path(__file__).parents[1] / "data" / "puyo"

#: a column bottom-up: colours 1..5 and garbage, 0..13 high (any field, stable or not, as the grid holds it)
columns = st.lists(st.lists(st.integers(1, GARBAGE), max_size=ROWS), min_size=WIDTH, max_size=WIDTH)
#: few colours make pops and long chains likely
few_colour_columns = st.lists(st.lists(st.integers(1, 3), max_size=ROWS), min_size=WIDTH, max_size=WIDTH)
#: ... and with garbage among them, often in tall columns (garbage in rows 12-13 next to a pop)
garbage_columns = st.lists(
    st.lists(st.sampled_from([1, 2, 3, GARBAGE]), min_size=8, max_size=ROWS), min_size=WIDTH, max_size=WIDTH
)
fields = st.one_of(columns, few_colour_columns, garbage_columns)


def grid(cols: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    cells = np.zeros((WIDTH, ROWS), dtype=np.uint8)
    heights = np.zeros(WIDTH, dtype=np.int64)
    for x, col in enumerate(cols):
        cells[x, : len(col)] = col
        heights[x] = len(col)
    return cells, heights


def bits(cells: np.ndarray) -> np.ndarray:
    b = BB.new_field()
    BB.encode(cells, b)
    return b


def decoded(b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    cells = np.zeros((WIDTH, ROWS), dtype=np.uint8)
    heights = np.zeros(WIDTH, dtype=np.int64)
    BB.decode(b, cells, heights)
    return cells, heights


def test_nineteen_chain_scores_175080_on_bitboards() -> None:
    rows = [line for line in (DATA / "chain19.txt").read_text().splitlines() if line and line[0] != "#"]
    b = bits(Field.from_rows(rows).cells)
    stats = np.zeros(3, dtype=np.int64)
    assert BB.resolve(b, stats) == 175_080
    assert stats.tolist() == [19, 76, 0]
    assert BB.count(*BB.occupied(b)) == 0  # the 76 puyos all popped: an all clear


def test_garbage_in_row_13_is_not_cleared() -> None:
    # 4 R pop in column 1 (rows 9-12); the garbage above them in row 13 stays and falls (reference F2)
    cells, heights = grid([[2, 3] * 4 + [1, 1, 1, 1, GARBAGE], [3, 2] * 4, [], [], [], []])
    b = bits(cells)
    stats = np.zeros(3, dtype=np.int64)
    assert BB.resolve(b, stats) == 40 and stats.tolist() == [1, 4, 0]
    assert decoded(b)[0][0].tolist()[:9] == [2, 3] * 4 + [GARBAGE]


@settings(max_examples=200, deadline=None)
@given(fields)
def test_resolve_matches_the_grid_kernel(cols: list[list[int]]) -> None:
    cells, heights = grid(cols)
    b = bits(cells)
    assert decoded(b)[0].tolist() == cells.tolist()  # the encoding round-trips
    for x in range(WIDTH):
        for y in range(ROWS):
            assert BB.group_size(b, x, y) == K.group_size(cells, x, y)
        assert BB.height(b, x) == heights[x]
    s_grid = np.zeros(3, dtype=np.int64)
    s_bits = np.zeros(3, dtype=np.int64)
    score = K.resolve(cells, heights, s_grid)
    assert BB.resolve(b, s_bits) == score
    assert s_bits.tolist() == s_grid.tolist()
    after, after_heights = decoded(b)
    assert after.tolist() == cells.tolist() and after_heights.tolist() == heights.tolist()


def _random_columns(rng: np.random.Generator, colours: list[int], tall: bool) -> list[list[int]]:
    """A field as ``fields`` draws them, from a seeded generator: columns of the given colours, tall ones 8-13 high."""
    return [rng.choice(colours, size=rng.integers(8 if tall else 0, ROWS + 1)).tolist() for _ in range(WIDTH)]


def _play_pair_agrees(cells: np.ndarray, heights: np.ndarray, p: int, axis: int, child: int) -> None:
    """One pair dropped at placement ``p`` on a stable field: the same score, positions, chain stats and field."""
    cells, heights = cells.copy(), heights.copy()
    b = bits(cells)
    pos_g, pos_b = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.int64)
    s_grid, s_bits = np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
    score = P.play_pair(cells, heights, p, axis, child, pos_g, s_grid)
    assert BB.play_pair(b, p, axis, child, pos_b, s_bits) == score
    if score >= 0:
        assert pos_b.tolist() == pos_g.tolist()
        assert s_bits.tolist() == s_grid.tolist()
    after, after_heights = decoded(b)
    assert after.tolist() == cells.tolist() and after_heights.tolist() == heights.tolist()


def test_seeded_fields_resolve_and_take_every_pair_at_every_placement_as_on_the_grid() -> None:
    """The deterministic half of the differential tests below (which draw fewer examples for it): 30 seeded
    fields of the three kinds ``fields`` draws resolve alike, then take each pair of colours 1-3 at each
    placement alike."""
    rng = np.random.default_rng(2024)
    kinds = [([1, 2, 3, 4, 5, GARBAGE], False), ([1, 2, 3], False), ([1, 2, 3, GARBAGE], True)]
    for n in range(30):
        cols = _random_columns(rng, *kinds[n % 3])
        cells, heights = grid(cols)
        b, s_grid, s_bits = bits(cells), np.zeros(3, dtype=np.int64), np.zeros(3, dtype=np.int64)
        assert BB.resolve(b, s_bits) == K.resolve(cells, heights, s_grid) and s_bits.tolist() == s_grid.tolist()
        assert decoded(b)[0].tolist() == cells.tolist()
        for p in range(N_PLACEMENTS):
            for axis in (1, 2, 3):
                for child in (1, 2, 3):
                    _play_pair_agrees(cells, heights, p, axis, child)


def _stable(cols: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """A stable field (what a game holds between moves): the random field resolved by the grid kernel."""
    cells, heights = grid(cols)
    K.resolve(cells, heights, np.zeros(3, dtype=np.int64))
    return cells, heights


@settings(max_examples=200, deadline=None)
@given(fields, st.integers(1, 5), st.integers(1, 5), st.integers(0, N_PLACEMENTS - 1))
def test_play_pair_matches_the_grid_kernel(cols: list[list[int]], axis: int, child: int, p: int) -> None:
    # every placement, reachable or not: the drop rules (row 14, the axis never resting there) are the kernel's
    _play_pair_agrees(*_stable(cols), p, axis, child)


@settings(max_examples=300, deadline=None)
@given(fields, st.lists(st.integers(0, 6), min_size=WIDTH, max_size=WIDTH))
def test_garbage_lands_as_on_the_grid(cols: list[list[int]], per_column: list[int]) -> None:
    cells, heights = _stable(cols)
    b = bits(cells)
    BB.drop_garbage(b, np.array(per_column, dtype=np.int64))
    for x, k in enumerate(per_column):  # the grid rule (engine.Field.drop_garbage): row 14 vanishes
        for _ in range(k):
            if heights[x] < ROWS:
                cells[x, heights[x]] = GARBAGE
                heights[x] += 1
    after, after_heights = decoded(b)
    assert after.tolist() == cells.tolist() and after_heights.tolist() == heights.tolist()


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(few_colour_columns, st.integers(1, 3), st.integers(1, 3))
def test_bench_placements_agree(cols: list[list[int]], axis: int, child: int) -> None:
    cells, _ = _stable(cols)
    fields = cells[None].copy()
    pairs = np.array([[axis, child]], dtype=np.int64)
    assert BB.bench_placements(bits(cells)[None].copy(), pairs, VISIBLE_ROWS - 1) == P.bench_placements(
        fields, pairs, VISIBLE_ROWS - 1
    )


@settings(max_examples=300, deadline=None)
@given(fields)
def test_connections_count_touching_pairs_as_on_the_grid(cols: list[list[int]]) -> None:
    cells, heights = grid(cols)
    expected = 0
    for x in range(WIDTH):
        for y in range(min(int(heights[x]), VISIBLE_ROWS)):
            c = cells[x, y]
            if c == GARBAGE:
                continue
            expected += int(y + 1 < min(int(heights[x]), VISIBLE_ROWS) and cells[x, y + 1] == c)
            expected += int(x + 1 < WIDTH and cells[x + 1, y] == c)
    assert connections(bits(cells)) == expected
