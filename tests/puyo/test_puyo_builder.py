"""The ``builder`` bot: its connection count against a readable one, parallel futures equal to serial ones,
same seed same moves, the fire decision (solo: before the end; versus: on a threshold and on garbage)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.core.runner import play_episode
from puzzlebots.games.puyo.engine import Field, action_of, placement_of
from puzzlebots.games.puyo.game import GAME
from puzzlebots.games.puyo.kernels import bitboard as BB
from puzzlebots.games.puyo.kernels.builder import P_REMAINING, search_many, search_one
from puzzlebots.games.puyo.kernels.chain_eval import FORM_BROKEN, FORM_ENDS, FORM_ROWS, FORMS, form, links23
from puzzlebots.games.puyo.rules import GARBAGE, VISIBLE_ROWS, WIDTH

SMALL = {"builder_width": 12, "builder_depth": 6, "builder_futures": 3}


def _links23_readable(cells: np.ndarray) -> tuple[int, int]:
    """Cells with 2+ same-colour neighbours (3-links), and cells neither a 3-link nor next to one of their colour
    whose upper or left neighbour has their colour (2-links: a touching pair counted at one cell), rows 1..12,
    garbage excluded."""

    def same(x: int, y: int, u: int, v: int) -> bool:
        inside = 0 <= u < WIDTH and 0 <= v < VISIBLE_ROWS
        return inside and 0 < cells[x, y] < GARBAGE and cells[u, v] == cells[x, y]

    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    three = {
        (x, y)
        for x in range(WIDTH)
        for y in range(VISIBLE_ROWS)
        if sum(same(x, y, x + dx, y + dy) for dx, dy in steps) >= 2
    }
    near = three | {
        (x, y)
        for x in range(WIDTH)
        for y in range(VISIBLE_ROWS)
        for dx, dy in steps
        if (x + dx, y + dy) in three and same(x, y, x + dx, y + dy)
    }
    two = sum(
        1
        for x in range(WIDTH)
        for y in range(VISIBLE_ROWS)
        if (same(x, y, x, y + 1) or same(x, y, x - 1, y)) and (x, y) not in near
    )
    return two, len(three)


@st.composite
def fields(draw: st.DrawFn) -> Field:
    cols = [draw(st.lists(st.sampled_from([1, 2, 3, 4, GARBAGE]), max_size=13)) for _ in range(WIDTH)]
    cells = np.zeros((WIDTH, 13), dtype=np.uint8)
    for x, col in enumerate(cols):
        cells[x, : len(col)] = col
    return Field(cells)


@settings(max_examples=300, deadline=None)
@given(fields())
def test_links23_matches_a_readable_count(field: Field) -> None:
    b = BB.new_field()
    BB.encode(field.cells, b)
    assert links23(b) == _links23_readable(field.cells)


def _form_readable(cells: np.ndarray) -> int:
    """``form`` spelt out from the letter drawings: 0 with garbage in the bottom rows; else the best form's
    count of kept relations between filled cells (same upper-case letter: one colour; neighbours with
    different letters, one upper-case: two colours), a form with a broken relation counting ``FORM_BROKEN``."""
    if any(cells[x, y] == GARBAGE for x in range(WIDTH) for y in range(FORM_ROWS)):
        return 0
    best = FORM_BROKEN
    for rows in FORMS:
        spots = [(x, y, ch) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "."]
        kept = 0
        for i, (x, y, a) in enumerate(spots):
            for u, v, c in spots[i + 1 :]:
                p, q = int(cells[x, y]), int(cells[u, v])
                if p == 0 or q == 0:
                    continue
                if a == c and a.isupper():
                    wanted_same = True
                elif a != c and (a.isupper() or c.isupper()) and abs(x - u) + abs(y - v) == 1:
                    wanted_same = False
                else:
                    continue
                if (p == q) != wanted_same:
                    kept = FORM_BROKEN
                    break
                kept += 1
            if kept == FORM_BROKEN:
                break
        best = max(best, kept)
    return best


@settings(max_examples=300, deadline=None)
@given(fields())
def test_form_matches_a_readable_count(field: Field) -> None:
    b = BB.new_field()
    BB.encode(field.cells, b)
    assert form(b) == _form_readable(field.cells)


def _gtr_cells() -> np.ndarray:
    """The GTR drawing filled in: A red, B green, C blue, the free cells yellow."""
    colour = {"A": 1, "B": 2, "C": 3}
    cells = np.zeros((WIDTH, 13), dtype=np.uint8)
    for y, row in enumerate(FORMS[0]):
        for x, ch in enumerate(row):
            if ch != ".":
                cells[x, y] = colour.get(ch, 4)
    return cells


def test_a_filled_gtr_keeps_every_relation_and_one_clash_breaks_it() -> None:
    """Filled, the GTR keeps all its 29 relations (its kin are broken, so the GTR is the best form); a green
    A where B should be breaks every form; garbage in the bottom rows ends the opening (0)."""
    cells = _gtr_cells()
    b = BB.new_field()
    BB.encode(cells, b)
    assert form(b) == int(FORM_ENDS[0]) == 29
    cells[1, 1] = 2  # an A cell in B's colour: it touches B cells
    BB.encode(cells, b)
    assert form(b) == FORM_BROKEN
    cells = _gtr_cells()
    cells[5, 0] = GARBAGE
    BB.encode(cells, b)
    assert form(b) == 0


def _search_inputs(seed: int, futures: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    state = GAME.new_state(seed, GAME.check_config({}))
    krieg = GAME.make_bot("krieg", GAME.check_config({}), None, seed)
    for _ in range(12):
        state.apply(krieg.act(state))
    bot = GAME.make_bot("builder", GAME.check_config(SMALL), None, seed)
    params = bot.params.copy()  # type: ignore[attr-defined]
    params[P_REMAINING] = 30
    root = BB.new_field()
    BB.encode(state.field.cells, root)
    rng = np.random.default_rng(seed)
    queues = rng.integers(1, 5, size=(futures, 6, 2))
    return root, queues, params, bot.weights  # type: ignore[attr-defined]


def test_parallel_futures_equal_serial_ones() -> None:
    root, queues, params, w = _search_inputs(4, 5)
    chains = np.zeros((5, 22))
    values = np.zeros((5, 22))
    search_many(root, queues, params, w, chains, values)
    for f in range(5):
        c1 = np.zeros(22)
        v1 = np.zeros(22)
        search_one(root, queues[f], params, w, c1, v1)
        assert np.array_equal(c1, chains[f]) and np.array_equal(v1, values[f])
    assert (chains >= 0).any()


def test_same_seed_same_moves() -> None:
    config = {"pairs": 12, **SMALL}
    a = play_episode(GAME, "builder", 9, config)
    b = play_episode(GAME, "builder", 9, config)
    assert a.actions == b.actions and a.result == b.result


def test_fires_before_the_game_ends() -> None:
    # an 11-high chain-ready field with one pair left: the only thing worth anything is to fire it now
    rows = ["R.....", "G.....", "RB....", "RG....", "GB....", "GBB..."]
    field = Field.from_rows(rows)
    state = SimpleNamespace(
        field=field, current=lambda: (2, 3), next_pairs=lambda: [(2, 3)], remaining=lambda: 1, pending=0
    )
    bot = GAME.make_bot("builder", GAME.check_config(SMALL), None, 0)
    action = bot.act(state)
    result = field.copy().play((2, 3), placement_of(action))
    assert result.links >= 2


def test_versus_fires_on_threshold_and_on_garbage() -> None:
    rows = ["R.....", "G.....", "RB....", "RG....", "GB....", "GBB..."]
    # a 2-link chain (360 points) is ready: it fires at a 2-link threshold, and at an 8-link threshold when it
    # offsets the 3 pending garbage (3 x 70 points)
    for fire_links, pending in ((2, 0), (8, 3)):
        config = GAME.check_config({**SMALL, "beam_fire_links": fire_links})
        field = Field.from_rows(rows)
        state = SimpleNamespace(
            field=field,
            current=lambda: (2, 3),
            next_pairs=lambda: [(2, 3), (1, 1), (4, 4)],
            remaining=lambda: 100,
            pending=pending,
        )
        action = GAME.make_bot("builder", config, None, 0).act(state)
        assert field.copy().play((2, 3), placement_of(action)).links >= 2, (pending, action_of(placement_of(action)))


def test_plays_a_short_game_and_chains() -> None:
    episode = play_episode(GAME, "builder", 5, {"pairs": 24, **SMALL})
    assert episode.result["pairs_played"] == 24 and not episode.result["dead"]
    assert episode.result["max_chain"] >= 3


def test_search_never_counts_a_line_through_death() -> None:
    # column 3 is 10 high (B/Y alternating, no group); a green pair standing there fills the death cell (3, 12).
    # Green (2) is spelt in the second bit plane only: the death test must look at every plane.
    field = Field.from_rows(["..Y...", "..B..."] * 5)
    root = BB.new_field()
    BB.encode(field.cells, root)
    bot = GAME.make_bot("builder", GAME.check_config(SMALL), None, 0)
    params = bot.params.copy()  # type: ignore[attr-defined]
    params[P_REMAINING] = 10
    chains = np.zeros(22)
    values = np.zeros(22)
    search_one(root, np.array([[2, 2]] * 4), params, bot.weights, chains, values)  # type: ignore[attr-defined]
    vertical_in_3 = placement_of((3, 0))
    assert chains[vertical_in_3] == -1 and values[vertical_in_3] < -1e17
    assert (chains >= 0).sum() >= 5  # the other columns stay open
