"""Real-time versus (``VersusGame.step_one``): each side places on its own clock under the turn-based garbage
rules for that side alone, with the ``realtime_garbage`` timing of docs/rules/puyo.md; and the page session that
lets the AI move on its clock (``versus_page.VersusPage``)."""

from __future__ import annotations

from typing import Any

import pytest

from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.games.puyo.engine import Field
from puzzlebots.games.puyo.game import GAME as PUYO
from puzzlebots.games.puyo.versus import VersusGame, play_versus
from puzzlebots.games.puyo.versus_page import AI_SPEED_MAX, VersusPage

CONFIG = PUYO.check_config({})
RED, GREEN = 1, 2
#: a vertical red pair in column 3 joins the two red runs: 6 pop (180 points, 2 garbage, 40 carried), no all clear
FIRE = (3, 0)
QUIET = (6, 0)  # onto column 6, away from everything


def rigged(timing: str = "next_placement") -> VersusGame:
    """A game whose side 0 fires a 2-garbage chain with its first pair; side 1 has plain pairs."""
    game = VersusGame(0, CONFIG, max_turns=6, realtime_garbage=timing)
    a, b = game.players
    a.field = Field.from_rows(["RR.RRG"])
    a.sequence = [(RED, RED)] + [(GREEN, RED)] * 10
    b.sequence = [(GREEN, RED)] * 11
    return game


def test_a_chain_sends_garbage_as_it_resolves_and_it_falls_after_the_receivers_next_placement() -> None:
    game = rigged()
    a, b = game.players
    game.step_one(0, FIRE)
    assert (a.score, a.sent, a.remainder, b.pending) == (180, 2, 40, 2)
    assert (a.index, b.index, b.field.count()) == (1, 0, 0)  # the other side's field and clock are untouched
    game.step_one(1, QUIET)  # no chain: the 2 garbage fall with the pair
    assert (b.pending, b.field.count()) == (0, 4)
    assert game.turn == 1 and not game.over()


def test_next_spawn_lets_the_pair_already_falling_land_before_the_garbage() -> None:
    game = rigged("next_spawn")
    a, b = game.players
    game.step_one(0, FIRE)
    assert (b.pending, b.held, b.incoming()) == (0, 2, 2)
    game.step_one(1, QUIET)  # the pair that was falling when the chain resolved
    assert (b.pending, b.held, b.field.count()) == (2, 0, 2)
    game.step_one(1, QUIET)
    assert (b.pending, b.field.count()) == (0, 6)


def test_a_chain_offsets_its_own_pending_garbage_first() -> None:
    game = rigged()
    a, b = game.players
    a.pending = 1
    game.step_one(0, FIRE)  # fired: nothing falls on side 0; its 2 cancel the 1, the excess 1 goes across
    assert (a.pending, a.sent, b.pending, a.field.count()) == (0, 1, 1, 1)


def test_a_side_that_has_placed_all_its_pairs_waits_and_the_game_ends_when_both_have() -> None:
    game = VersusGame(3, CONFIG, max_turns=2)
    for _ in range(2):
        game.step_one(0, QUIET)
    with pytest.raises(IllegalActionError):
        game.step_one(0, QUIET)
    assert not game.over() and game.turn == 2
    game.step_one(1, QUIET)
    game.step_one(1, QUIET)
    assert game.over() and game.result().winner is None


def test_a_death_ends_the_real_time_game() -> None:
    game = VersusGame(3, CONFIG)
    for _ in range(40):  # side 1 stacks column 3 (popping now and then) until cell (3, 12) fills
        if game.over():
            break
        game.step_one(1, (3, 0))
    assert game.over() and game.result().winner == 0 and game.players[0].index == 0
    with pytest.raises(IllegalActionError):
        game.step_one(0, QUIET)


def test_realtime_garbage_must_be_a_known_timing() -> None:
    with pytest.raises(InputError, match="realtime_garbage must be one of next_placement, next_spawn"):
        VersusGame(0, CONFIG, realtime_garbage="later")


@pytest.mark.parametrize(
    ("seed", "expected"),
    [
        (5, {"winner": 0, "turns": 20, "scores": [2460, 0], "max_chains": [3, 0], "sent": [35, 0]}),
        (6, {"winner": 1, "turns": 24, "scores": [1740, 20300], "max_chains": [3, 7], "sent": [22, 269]}),
    ],
)
def test_turn_based_play_is_what_it_was_before_the_real_time_step(seed: int, expected: dict[str, Any]) -> None:
    """Golden: KRIEG3 against beam, as the turn-based engine played them before ``step_one`` existed (seed 5
    re-recorded after beam's death check was fixed to read every bit plane; the old code gave 21 turns there)."""
    puyo = PUYO
    bots = (puyo.make_bot("krieg3", CONFIG, None, 1), puyo.make_bot("beam", CONFIG, None, 2))
    assert play_versus(bots, seed, CONFIG, max_turns=200).as_dict() == expected


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def page(mode: str = "real", **fields: Any) -> tuple[VersusPage, Clock]:
    clock = Clock()
    session = VersusPage(PUYO, clock)
    session.handle("versus", {"bot": "krieg3", "seed": 2, "mode": mode, **fields})
    return session, clock


def test_the_ai_moves_on_its_own_clock_not_when_the_person_does() -> None:
    session, clock = page(ai_speed=2)
    assert session.handle("ai", {})["ai_moved"] is False  # not yet: half a second has not passed
    dropped = session.handle("key", {"key": "drop"})
    assert dropped["pairs"] == {"you": 1, "ai": 0} and dropped["steps"]  # the person's pair landed alone
    clock.now += 0.5
    moved = session.handle("ai", {})
    assert moved["ai_moved"] and moved["pairs"] == {"you": 1, "ai": 1} and moved["steps"] == []
    assert session.handle("ai", {})["ai_moved"] is False  # at most one move per interval
    clock.now += 0.5
    assert session.handle("ai", {})["pairs"] == {"you": 1, "ai": 2}
    assert sum(v != 0 for row in moved["view"]["boards"][1]["cells"] for v in row) == 2


def test_turn_based_the_ai_answers_each_drop_and_has_no_clock() -> None:
    session, clock = page("turn")
    assert session.handle("key", {"key": "drop"})["pairs"] == {"you": 1, "ai": 1}
    clock.now += 10
    with pytest.raises(InputError, match="only in real time"):
        session.handle("ai", {})


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"ai_speed": 0}, "between 0.1 and 10.0"),
        ({"ai_speed": AI_SPEED_MAX + 0.5}, "between 0.1 and 10.0"),
        ({"ai_speed": -1}, "between 0.1 and 10.0"),
        ({"ai_speed": "2"}, "must be int/float"),
        ({"ai_speed": True}, "must be int/float"),
        ({"mode": "fast"}, "must be one of frames, real, turn"),
        ({"realtime_garbage": "never"}, "must be one of next_placement, next_spawn"),
    ],
)
def test_bad_start_fields_are_one_line_errors(fields: dict[str, Any], message: str) -> None:
    session = VersusPage(PUYO)
    with pytest.raises(InputError, match=message) as info:
        session.handle("versus", {"bot": "krieg", "seed": 1, **fields})
    assert "\n" not in str(info.value)
    assert session.match is None  # nothing was started


def test_the_garbage_warning_counts_garbage_held_for_the_next_spawn() -> None:
    session, _ = page(realtime_garbage="next_spawn")
    assert session.match is not None
    session.match.game.players[0].held = 3
    frame = session.handle("key", {"key": "left"})
    assert frame["garbage"]["you"] == 3 and "garbage pending 3" in frame["view"]["boards"][0]["title"]
