"""Tsu scoring worked out by hand from the tables of reference section 2.4."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from puzzlebots.games.puyo.engine import Field, SoloState, placement_of
from puzzlebots.games.puyo.game import GAME
from puzzlebots.games.puyo.kernels import field as K

DATA = Path(__file__).parents[1] / "data" / "puyo"
R, G, B, Y = 1, 2, 3, 4


def solo(rows: list[str], pairs: list[tuple[int, int]]) -> SoloState:
    state = GAME.new_state(0, GAME.check_config({"pairs": len(pairs)}))
    assert isinstance(state, SoloState)
    state.field = Field.from_rows(rows)
    state.sequence = pairs
    return state


def test_two_chain() -> None:
    # (R, Y) upright in column 1: 4 R pop (link 1), the G on column 2 falls onto 3 G (link 2).
    state = solo([".G....", ".RG...", "RRGG.."], [(R, Y)])
    state.apply((1, 0))
    link1 = 10 * 4 * 1  # CP 0 + CB 0 + GB 0 -> clamped to 1
    link2 = 10 * 4 * 8  # CP(2) = 8
    assert state.last.links == 2
    assert state.score == link1 + link2 == 360
    assert state.field.rows()[-1] == "Y....."


def test_chain_with_group_bonus() -> None:
    # link 2 pops 5 G: group bonus GB(5) = 2.
    state = solo([".G....", ".G....", ".RG...", "RRGG.."], [(R, Y)])
    state.apply((1, 0))
    assert state.last.links == 2
    assert state.score == 10 * 4 * 1 + 10 * 5 * (8 + 2) == 540


def test_multi_colour_link_with_group_bonus() -> None:
    # (R, B) lying flat at x=3: 5 R and 4 B pop together: PC 9, CB(2 colours) 3, GB(5) 2 + GB(4) 0.
    state = solo(["RR....", "RRBBB."], [(R, B)])
    state.apply((3, 1))
    assert state.last.links == 1 and state.last.popped == 9
    assert state.score == 10 * 9 * (0 + 3 + 2) == 450


def test_five_chain() -> None:
    # The "Stairs 5" template without its trigger; (R, Y) upright in column 1 fills the trigger.
    rows = [".GBYR.", ".BGBYR", "RBGBYR", "RRGBYR"]
    state = solo(rows, [(R, Y)])
    state.apply((1, 0))
    links = [
        10 * 4 * 1,  # 4 R
        10 * 4 * 8,  # 4 G: CP 8
        10 * 6 * (16 + 3),  # 6 B: CP 16, GB(6) = 3
        10 * 4 * 32,  # 4 Y
        10 * 4 * 64,  # 4 R
    ]
    assert state.last.links == 5
    assert state.score == sum(links) == 5340
    assert state.field.rows()[-1] == "Y....."


def test_all_clear_bonus_goes_to_the_next_chain() -> None:
    state = solo(["RR....", "RRBBB."], [(R, B), (R, R), (R, R)])
    state.apply((3, 1))
    assert state.field.count() == 0 and state.all_clear_pending
    assert state.score == 450
    state.apply((1, 0))
    assert state.score == 450
    state.apply((1, 0))  # 4 R: 40 points + 2100 all-clear bonus
    assert state.score == 450 + 40 + 2100
    assert state.result()["all_clears"] == 2  # that chain cleared the field again: a new bonus waits


def test_nineteen_chain_scores_175080() -> None:
    rows = [line for line in (DATA / "chain19.txt").read_text().splitlines() if line and line[0] != "#"]
    field = Field.from_rows(rows)
    stats = np.zeros(3, dtype=np.int64)
    assert K.resolve(field.cells, field.heights, stats) == 175_080
    assert stats[0] == 19 and stats[1] == 76


def test_garbage_next_to_a_pop_is_cleared_but_not_counted() -> None:
    # 4 R pop; the garbage above and beside is cleared; PC counts coloured puyos only (reference Q4).
    state = solo(["Ro....", "RR.o.."], [(R, Y)])
    state.apply((3, 0))
    assert state.last.garbage_cleared == 2 and state.last.popped == 4
    assert state.score == 40
    assert state.field.rows()[-1] == "..Y..."
    assert placement_of((3, 0)) == 2
