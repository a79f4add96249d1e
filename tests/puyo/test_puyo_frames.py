"""The frame clock of versus (``frames``, ``frame_versus``): a placement's, a chain link's and a garbage drop's
frames are the documented numbers (docs/rules/puyo.md, "The frame clock"), margin time lowers the target points
at 96, 112 and 128 s, garbage is conserved, and the turn-based clock still plays its old games move for move."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzlebots.games.puyo import frames
from puzzlebots.games.puyo.cli import versus_config, versus_game
from puzzlebots.games.puyo.engine import Field
from puzzlebots.games.puyo.frame_versus import FrameVersus, play_frames
from puzzlebots.games.puyo.game import GAME as PUYO

CONFIG = versus_config(PUYO, 2)
RED, BLUE = 1, 3
GOLDEN = Path(__file__).parent.parent / "data" / "puyo" / "versus_turns.json"


def rigged(source: str = "nova") -> FrameVersus:
    """Side 0 holds a 2-link chain (R R R . B B under a B in column 3) that a red-blue pair in column 4 fires:
    4 reds pop (the blues above fall 1 row), then 4 blues (nothing falls), and the field is empty."""
    game = FrameVersus(0, {**CONFIG, "versus_frames": source}, max_turns=20)
    a, b = game.players
    a.field = Field.from_rows(["..B...", "RRR.BB"])
    a.sequence = [(RED, BLUE)] * 20
    b.sequence = [(RED, BLUE)] * 20
    return game


def test_a_placements_frames_depend_on_its_path() -> None:
    empty = [0] * 6
    # nova: move to the column + drop to the axis row (52 - 2y) + split (by the height difference)
    assert frames.placement_frames(empty, 2, 0) == 0 + 50 + 0
    assert frames.placement_frames(empty, 0, 0) == 4 + 50  # nova's move table: 4 2 0 2 4 6
    assert frames.placement_frames(empty, 5, 2) == 6 + 48  # the axis rests on the child: row 2
    assert frames.placement_frames([3, 0, 0, 0, 0, 0], 0, 1) == 4 + (52 - 2 * 4) + 28  # split 3 rows
    boxed = [12, 0, 12, 0, 0, 0]
    assert frames.placement_frames(boxed, 1, 2) == 2 + 48 + frames.PAI_QUICK_TURN  # a quick turn
    # puyoai: next pair + move + fast drop from row 12 + split + grounding
    assert frames.placement_frames(empty, 0, 0, "puyoai") == 12 + 6 + 2 * 11 + 0 + 20


def test_a_placement_takes_its_frames_on_the_clock() -> None:
    game = FrameVersus(0, CONFIG, max_turns=5)
    side, frame = game.advance() or (None, None)
    assert (side, frame) == (0, 0)
    game.place(0, (1, 0), 0)
    assert game.advance() == (1, 0)
    game.place(1, (3, 0), 0)
    assert game.advance() == (1, 50)  # column 3: no move, 50 frames down
    game.place(1, (3, 0), 50)
    assert game.advance() == (0, 54)  # column 1: 4 frames of moving


@pytest.mark.parametrize(("source", "link_frames"), [("nova", (80, 55)), ("puyoai", (50 + 2 + 20, 50))])
def test_each_link_of_a_chain_takes_its_vanish_and_fall_frames(source: str, link_frames: tuple[int, int]) -> None:
    game = rigged(source)
    a, b = game.players
    assert game.advance() == (0, 0)
    landing = frames.placement_frames(a.field.heights, 3, 0, source)
    game.place(0, (4, 0), 0)
    second = landing + link_frames[0]
    end = second + link_frames[1]
    assert [(link.frame, link.score, link.fall, link.frames) for link in a.links] == [
        (landing, 40, 1, link_frames[0]),
        (second, 320, 0, link_frames[1]),
    ]
    assert a.busy_until == end
    # side 1 places quietly in column 6 while the chain runs; its garbage is announced at the second link
    seen = []
    while True:
        turn = game.advance()
        assert turn is not None
        side, frame = turn
        if side == 0:
            break
        seen.append((frame, b.incoming, b.fixed))
        game.place(1, (6, 0), frame)
    assert frame == end and (b.incoming, b.fixed, a.chain, a.all_clear_pending) == (0, 5, 0, True)
    assert all((inc, fix) == ((5, 0) if f >= second else (0, 0)) for f, inc, fix in seen)
    assert a.remainder == 10 and a.score == 360


def test_a_garbage_drop_takes_its_frames() -> None:
    empty = [0] * 6
    assert frames.garbage_frames(empty, [5] * 6) == 64 + 25  # nova's own cases (core/src/ojama.rs)
    assert frames.garbage_frames(empty, [4, 4, 3, 3, 3, 3]) == 64 + 18
    assert frames.garbage_frames([3, 2, 3, 3, 2, 2], [2, 1, 2, 1, 2, 2]) == 58 + 5
    assert frames.garbage_frames(empty, [1, 0, 0, 0, 0, 0], "puyoai") == 48 + 8  # 13 rows (FRAMES_TO_DROP[13]), 1 puyo
    game = rigged()
    a, b = game.players
    game.advance()
    game.place(0, (4, 0), 0)
    end = a.busy_until
    while True:  # side 1 places until a placement lands after the chain ended: the 5 garbage fall then
        side, frame = game.advance() or (None, 0)
        if side == 0:
            game.place(0, (6, 0), frame)
            continue
        assert side == 1
        if b.received:
            break
        landed = frame + frames.placement_frames(b.field.heights, 0, 0)
        game.place(1, (1, 0), frame)
        before = b.field.heights.copy()
    assert landed > end and (b.received, b.fixed) == (5, 0)
    layout = (b.field.heights - before).tolist()
    assert sum(layout) == 5 and frame == landed + frames.garbage_frames(before, layout)


def test_margin_time_lowers_the_target_points() -> None:
    second = frames.FPS
    assert frames.target_points(96 * second - 1) == 70
    assert [frames.target_points(s * second) for s in (96, 112, 128, 144)] == [52, 35, 26, 17]
    assert [frames.target_points(s * second, "nova") for s in (96, 112, 128)] == [52, 34, 25]
    assert frames.REFERENCE_MARGIN == (52, 35, 26, 17, 13, 8, 6, 4, 3, 2, 1, 1)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turns=st.integers(1, 60), source=st.sampled_from(frames.FRAME_SOURCES))
def test_garbage_is_conserved(seed: int, turns: int, source: str) -> None:
    config = {**CONFIG, "versus_frames": source}
    bots = [PUYO.make_bot("krieg", config, None, seed + i) for i in (0, 1)]
    r = play_frames(bots, seed, config, max_turns=turns)
    for side in (0, 1):
        other = 1 - side
        assert r["sent"][side] == r["offset"][other] + r["received"][other] + r["pending"][other]


def test_the_turn_based_clock_plays_its_old_games() -> None:
    """Recorded with the turn-based code before the frame clock existed (``versus_game``, 500 turns)."""
    turns = versus_config(PUYO, 2, versus_clock="turns")
    for record in json.loads(GOLDEN.read_text()):
        a, b = record.pop("bots")
        assert versus_game(PUYO, a, b, record["seed"], turns, 500) == record
