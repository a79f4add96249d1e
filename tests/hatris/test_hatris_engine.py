"""Engine rules: heights, landing together/apart, blocking, vanish and cash, helpers, levels, game over."""

from __future__ import annotations

import pytest

from puzzlebots.core.errors import ConfigError, IllegalActionError, InputError
from puzzlebots.games.hatris.engine import HatrisState, alexey_patterns, pile_height, reach
from puzzlebots.games.hatris.game import GAME
from puzzlebots.games.hatris.rules import NEST_ROM, allowed_types

TOP, WIZ, CROWN, CAP, DERBY, COWBOY = 1, 2, 3, 4, 5, 6


def make(
    piles: list[list[int]], cur: tuple[int, int] = (CAP, COWBOY), pool: list[int] | None = None, **cfg: object
) -> HatrisState:
    s = HatrisState(0, {"pair_source": "uniform", **cfg})
    s.piles = [list(p) for p in piles]
    s.current = cur
    s.pool = list(pool or [])
    return s


@pytest.mark.parametrize(
    ("pile", "height"),
    [
        ([CAP], 12),
        ([CAP] * 3, 24),
        ([TOP] * 4, 26),
        ([WIZ, TOP, DERBY], 34),
        ([DERBY, CROWN], 19),
        ([CROWN, DERBY], 18),
        ([CAP, DERBY, TOP], 31),
        ([], 0),
        ([CROWN] * 5, 56),
        ([COWBOY] * 5, 31),
    ],
)
def test_pile_height_worked_examples(pile: list[int], height: int) -> None:
    assert pile_height(pile, NEST_ROM) == height


def test_floor_lands_together_over_any_adjacent_columns() -> None:
    places = reach([0] * 6, CAP, COWBOY)
    assert set(places) == {(c, c + 1) for c in range(5)} | {(c + 1, c) for c in range(5)}


def test_equal_piles_land_together_unequal_split() -> None:
    # piles 0 and 1 equal: only together; pile 2 taller than 3: the hat over 3 slides right over low piles
    heights = [20, 20, 60, 10, 30, 70]
    places = reach(heights, CAP, COWBOY)
    assert (0, 1) in places and (1, 0) in places
    # pair over (2, 3) swapped: hat b lands on 2 (taller), hat a, free at 60 px over 3, slides right to 4
    assert places[(3, 2)].c == 2 and places[(4, 2)].free_from == 3
    # pile 5 (70 px) stops that slide; (5, 2) is only reached with a landing first on 5 and b sliding left
    assert places[(5, 2)].c == 4 and places[(5, 2)].free_to == 2
    # never both hats on the same pile
    assert all(a != b for a, b in places)


def test_tall_pile_blocks_the_free_hat() -> None:
    heights = [0, 0, 100, 0, 0, 0]
    places = reach(heights, CAP, COWBOY)
    # a pair over (1, 2): the hat on 2 lands at 100, the free hat over 1 may slide left to 0 only
    assert (1, 2) in places and (0, 2) in places
    # to reach pile 3 with hat a while hat b ends on pile 0, a would cross the 100-px pile: impossible
    assert (3, 0) not in places


def test_vanish_pays_cash_and_counts_the_stack() -> None:
    s = make([[CROWN] * 4, [], [], [], [], []], cur=(CROWN, CAP))
    s.apply(("place", 0, 1))
    assert s.piles[0] == [] and s.piles[1] == [CAP]
    assert s.cash == 300 and s.stacks_level == 1 and s.hats_vanished == 5
    assert s.bars == [1, 0]  # crowns feed Alexey's bar (article grouping)


def test_tetriswiki_groups() -> None:
    s = make([[CAP] * 4, [], [], [], [], []], cur=(CAP, TOP), helper_groups="tetriswiki")
    s.apply(("place", 0, 1))
    assert s.bars == [0, 1]


def test_helper_earned_after_five_stacks_and_used_last_in_first_out() -> None:
    s = make([[DERBY] * 4, [], [], [], [], []], cur=(DERBY, CAP), pool=[1])
    s.bars = [4, 0]
    s.apply(("place", 0, 1))
    assert s.pool == [1, 0] and s.bars == [0, 0]
    assert [a[0] for a in s.helper_actions()] == ["alexey"] * len(s.helper_actions())
    with pytest.raises(IllegalActionError):
        s.apply(("vladimir", 0, 1))


def test_pool_holds_eight() -> None:
    s = make([[WIZ] * 4, [], [], [], [], []], cur=(WIZ, CAP), pool=[0] * 8)
    s.bars = [4, 0]
    s.apply(("place", 0, 1))
    assert len(s.pool) == 8 and s.bars[0] == 0


def test_alexey_removes_bottom_hats_and_destroys_the_pair() -> None:
    s = make([[TOP, CAP, CAP], [DERBY], [], [], [], []], pool=[0])
    nxt = s.next
    s.apply(("alexey", 2, 1, 0, 0, 0, 0))
    assert s.piles[0] == [CAP] and s.piles[1] == []
    assert s.pool == [] and s.hats_removed == 3 and s.hats_discarded == 2
    assert s.current == nxt


def test_alexey_limits() -> None:
    s = make([[TOP] * 3, [CAP] * 4, [], [], [], []], pool=[0])
    with pytest.raises(IllegalActionError):
        s.apply(("alexey", 4, 0, 0, 0, 0, 0))  # pile 0 has 3 hats
    with pytest.raises(IllegalActionError):
        s.apply(("alexey", 3, 3, 0, 0, 0, 0))  # more than 5
    assert len(alexey_patterns([5] * 6, "multi_pile")) == 461
    assert len(alexey_patterns([5] * 6, "single_pile")) == 30


def test_vladimir_swaps_piles() -> None:
    s = make([[TOP], [CAP, CAP], [], [], [], [WIZ]], pool=[1])
    s.apply(("vladimir", 1, 5))
    assert s.piles[1] == [WIZ] and s.piles[5] == [CAP, CAP] and s.pool == []


def test_unreachable_placement_is_illegal() -> None:
    s = make([[], [], [TOP] * 5 + [WIZ], [], [], []])
    with pytest.raises(IllegalActionError):
        s.apply(("place", 0, 5))
    with pytest.raises(IllegalActionError):
        s.apply(("place", 1, 1))
    with pytest.raises(IllegalActionError):
        s.apply(("jump",))


def test_game_over_when_a_pile_tops_out() -> None:
    tall = [WIZ, CROWN] * 4 + [WIZ]  # offsets 16, 10, ...: exactly 128 px, the top of the pile zone
    s = make([tall, [], [], [], [], []], cur=(CROWN, CAP))
    assert pile_height(tall, NEST_ROM) == 128 and pile_height(tall + [CROWN], NEST_ROM) == 136
    s.apply(("place", 0, 1))
    assert s.game_over and s.is_terminal() and s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        s.apply(("place", 0, 1))


def test_level_end_and_shop_refill() -> None:
    s = make([[CROWN] * 4, [CAP], [], [], [], []], cur=(CROWN, TOP))
    s.level, s.stacks_level = 9, 14
    s.apply(("place", 0, 2))
    assert s.level == 10 and s.stacks_level == 0
    assert [len(p) for p in s.piles] == [1] * 6  # cleared, then 6 x shop(1) hats, one per pile
    assert s.hats_cleared == 2  # the cap and the top hat that were on the field


def test_start_in_a_later_shop_fills_hats() -> None:
    s = HatrisState(3, {"start_level": 30})
    assert [len(p) for p in s.piles] == [3] * 6
    assert allowed_types(0) == (1, 4, 6) and len(allowed_types(12)) == 6


def test_non_endless_game_ends_after_level_59() -> None:
    s = make([[CROWN] * 4, [], [], [], [], []], cur=(CROWN, CAP), endless=False)
    s.level, s.stacks_level, s.pool = 59, 14, [0, 1]
    s.apply(("place", 0, 1))
    assert s.is_terminal() and not s.game_over and s.result()["cleared_all"]
    assert s.pool == [] and s.cash == 300 + 2 * (500 * 60 + 500 * 6)


def test_max_spawns_caps_the_game() -> None:
    s = HatrisState(1, {"max_spawns": 3})
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert s.spawns == 3 and s.result()["max_spawns_reached"]


def test_frames_advance_the_counter() -> None:
    s = make([[], [], [], [], [], []], cur=(CAP, COWBOY), first_frame_counter=0)
    s.fc = 0
    s.apply(("place", 0, 1))  # swap 0, two moves left, hard drop: 3 presses x 2 frames
    assert s.fc == 6


def test_bad_config_and_actions() -> None:
    with pytest.raises(ConfigError, match=r"^hatris: top_px must be an integer in 24\.\.168, got 'high'$"):
        GAME.check_config({"top_px": "high"})  # checked once, there: Rules trusts a checked config
    with pytest.raises(ConfigError):
        GAME.check_config({"pair_source": "dice"})
    with pytest.raises(ConfigError):
        GAME.check_config({"no_such_key": 1})
    for bad in (["place", 0], ["fly", 1, 2], "place", ["alexey", 1, 0, 0, 0, 0, 9], ["place", 0, True]):
        with pytest.raises(InputError):
            GAME.decode_action(bad)
    assert GAME.decode_action(GAME.encode_action(("place", 1, 2))) == ("place", 1, 2)
