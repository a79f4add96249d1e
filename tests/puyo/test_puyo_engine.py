"""Engine rules, differential tests against the pure-Python oracle, and property tests."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.games.puyo.engine import Field, action_of, placement_of
from puzzlebots.games.puyo.human import reachable_by_keys
from puzzlebots.games.puyo.kernels import field as K
from puzzlebots.games.puyo.oracle import columns_from_rows, drop, resolve
from puzzlebots.games.puyo.pairs import esports_cycle, pair_sequence
from puzzlebots.games.puyo.rules import GARBAGE, PLACEMENTS, ROWS, VISIBLE_ROWS

R, G, B, Y = 1, 2, 3, 4


def test_placement_counts() -> None:
    f = Field()
    assert len(f.placements((R, G))) == 22
    assert len(f.placements((R, R))) == 11


def test_tall_columns_block_reach() -> None:
    # column 2 at height 12 cannot be crossed (strict rule): columns 1 and 2 are out of reach.
    f = Field.from_rows(_column_rows(1, 12))
    xs = {PLACEMENTS[i][0] for i in f.placements((R, G))}
    assert xs == {2, 3, 4, 5}
    with pytest.raises(IllegalActionError, match="not reachable"):
        f.play((R, G), 0)  # (x=1, r=0)


def _column_rows(x: int, height: int) -> list[str]:
    """Rows (top first) of one column of alternating G/B, ``height`` high, in column ``x``."""
    return [
        "".join(("G" if y % 2 == 0 else "B") if c == x else "." for c in range(6)) for y in range(height - 1, -1, -1)
    ]


def test_row_13_never_pops() -> None:
    # 4 R touching, two of them in row 13: nothing pops (reference F2).
    f = Field()
    f.cells[0, :13] = [G, B] * 5 + [G, R, R]
    f.cells[1, :13] = [B, G] * 5 + [B, R, R]
    f.heights[:2] = 13
    before = f.cells.copy()
    stats = np.zeros(3, dtype=np.int64)
    K.resolve(f.cells, f.heights, stats)
    assert stats[0] == 0 and (f.cells == before).all()
    # once puyos below pop, row 13 falls into view and pops: 4 Y pop (link 1), column 1 drops 3 rows and
    # its row-13 R joins the three R of column 2, which lost the Y and 2 cleared garbage (link 2).
    g = Field()
    g.cells[0, :13] = [Y, Y, Y, G, B, G, B, G, B, G, B, B, R]
    g.cells[1, :13] = [Y] + [GARBAGE] * 9 + [R, R, R]
    g.heights[:2] = [13, 13]
    K.resolve(g.cells, g.heights, stats)
    assert stats[0] == 2 and stats[2] == 3  # 2 garbage beside the Y, 1 below the R


def test_row_14_vanishes() -> None:
    f = Field.from_rows(_column_rows(0, 12), reach="climb12")  # a 12-high column is only reached by climbing
    f.play((R, G), 0)  # axis in row 13, child in row 14: the child vanishes
    assert f.heights[0] == 13 and f.cells[0, 12] == R
    assert Field.from_rows(_column_rows(0, 13)).drop_garbage(6, np.random.default_rng(0)) == 6
    g = Field.from_rows(_column_rows(0, 13))
    g.drop_garbage(6, np.random.default_rng(0))
    assert g.heights[0] == ROWS and g.count() == 13 + 5  # column 1's garbage vanished


def test_illegal_actions_are_rejected() -> None:
    f = Field()
    for bad in [(7, 0), (6, 1), (1, 3), (0, 0), (1, 4), "x", None]:
        with pytest.raises(IllegalActionError):
            f.play((R, G), placement_of(bad))


def test_field_text_errors() -> None:
    with pytest.raises(InputError, match="unknown cell"):
        Field.from_rows(["RRQ..."])
    with pytest.raises(InputError, match="6 cells"):
        Field.from_rows(["RR"])


def test_esports_sequence_shape() -> None:
    cycle = esports_cycle(12345)
    assert len(cycle) == 128
    puyos = [c for pair in cycle for c in pair]
    assert len(set(cycle[0] + cycle[1])) <= 3  # the opening pairs use 3 colours
    assert all(1 <= c <= 4 for c in puyos)
    assert sorted(puyos.count(c) for c in range(1, 5))[0] >= 60
    assert pair_sequence(12345, 130)[128] == cycle[0]
    assert pair_sequence(1, 10) == pair_sequence(1, 10) != pair_sequence(2, 10)


# -- property and differential tests ------------------------------------------------------------------

pairs = st.tuples(st.integers(1, 4), st.integers(1, 4))


@st.composite
def games(draw: st.DrawFn) -> tuple[list[tuple[int, int]], list[int]]:
    seq = draw(st.lists(pairs, min_size=1, max_size=40))
    picks = draw(st.lists(st.integers(0, 21), min_size=len(seq), max_size=len(seq)))
    return seq, picks


@settings(max_examples=60, deadline=None)
@given(games())
def test_kernel_matches_oracle_and_invariants(game: tuple[list[tuple[int, int]], list[int]]) -> None:
    seq, picks = game
    f = Field()
    cols: list[list[int]] = [[] for _ in range(6)]
    for pair, pick in zip(seq, picks, strict=True):
        legal = f.placements(pair)
        if not legal or f.is_dead():
            break
        index = legal[pick % len(legal)]
        # every placement offered is reachable with the keys from the spawn
        keys = reachable_by_keys(f)
        assert {PLACEMENTS[i] for i in legal} <= keys
        before_count = f.count()
        before_13 = f.cells[:, VISIBLE_ROWS].copy()
        result = f.play(pair, index)
        x, r = PLACEMENTS[index]
        drop(cols, x, r, *pair)
        links, score, _ = resolve(cols)
        assert (result.links, result.score) == (links, score)
        assert f.rows() == _rows(cols)
        # puyos are conserved: placed - popped - cleared garbage - vanished
        vanished = 2 - (sum(len(c) for c in cols) + result.popped + result.garbage_cleared - before_count)
        assert f.count() == before_count + 2 - vanished - result.popped - result.garbage_cleared
        # nothing floats
        for cx in range(6):
            h = int(f.heights[cx])
            assert (f.cells[cx, :h] != 0).all() and (f.cells[cx, h:] == 0).all()
        # the 13th row never pops: with no chain, what was in row 13 is still there
        if result.links == 0:
            assert (f.cells[:, VISIBLE_ROWS][before_13 != 0] == before_13[before_13 != 0]).all()


def _rows(cols: list[list[int]]) -> list[str]:
    letters = ".RGBYPo"
    return ["".join(letters[c[y]] if y < len(c) else "." for c in cols) for y in range(ROWS - 1, -1, -1)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(1, 4), max_size=13), min_size=6, max_size=6))
def test_resolve_matches_oracle_on_random_fields(columns: list[list[int]]) -> None:
    f = Field()
    for x, col in enumerate(columns):
        f.cells[x, : len(col)] = col
        f.heights[x] = len(col)
    stats = np.zeros(3, dtype=np.int64)
    score = K.resolve(f.cells, f.heights, stats)
    oracle = copy.deepcopy(columns)
    links, total, _ = resolve(oracle)
    assert (int(stats[0]), int(score)) == (links, total)
    assert f.rows() == _rows(oracle)


def test_action_round_trip() -> None:
    assert [action_of(i) for i in range(22)][:2] == [(1, 0), (2, 0)]
    assert columns_from_rows(["R....."])[0] == [1]
