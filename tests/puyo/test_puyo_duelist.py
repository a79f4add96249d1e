"""``duelist``: its versus golden, determinism, and that it answers a garbage threat (issue 33, acceptance 4).

The golden is a frame-clock game against ``krieg3`` with a small search (every decision's frame, placement and
reason, and the result); regenerate it with ``PUZZLEBOTS_REGEN_GOLDEN=1`` after a deliberate change and review
the diff. The threat positions are drawn as rows of letters (top row first, ``.RGBYP`` and ``o`` garbage).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from puzzlebots.core.seeds import bot_seed
from puzzlebots.games.puyo.bots.duelist import REASONS, DuelistBot
from puzzlebots.games.puyo.bots.reading import chain_to_come, garbage_of, held, pairs_to_come, reach, shots
from puzzlebots.games.puyo.engine import Field, placement_of
from puzzlebots.games.puyo.frame_versus import FrameVersus, Link, play_frames
from puzzlebots.games.puyo.game import GAME
from puzzlebots.games.puyo.versus import VERSUS_FIRE_LINKS

GOLDEN = Path(__file__).parents[1] / "golden" / "playthroughs" / "puyo_duelist_versus_seed5.json"
REGEN = bool(os.environ.get("PUZZLEBOTS_REGEN_GOLDEN"))
#: a small search, so that a whole game takes seconds
SMALL = {"duelist_width": 16, "duelist_depth": 6, "duelist_futures": 2}


def config(**keys: Any) -> dict[str, Any]:
    return GAME.check_config({"visible": 2, "beam_fire_links": VERSUS_FIRE_LINKS, **SMALL, **keys})


class Recorder:
    """A bot that keeps each decision's frame, placement and (for duelist) reason."""

    def __init__(self, bot: Any, log: list[list[Any]], side: int) -> None:
        self.bot, self.log, self.side = bot, log, side

    def act(self, player: Any) -> tuple[int, int]:
        action = self.bot.act(player)
        self.log.append([self.side, player.game.now, list(action), getattr(self.bot, "reason", "")])
        return action


def recorded_game(seed: int, opponent: str = "krieg3", max_turns: int = 60) -> dict[str, Any]:
    cfg = config()
    log: list[list[Any]] = []
    bots = [
        Recorder(GAME.make_bot("duelist", cfg, None, bot_seed(seed, 0)), log, 0),
        Recorder(GAME.make_bot(opponent, cfg, None, bot_seed(seed, 1)), log, 1),
    ]
    result = play_frames(bots, seed, cfg, max_turns)
    return {
        "seed": seed,
        "opponent": opponent,
        "config": SMALL,
        "max_turns": max_turns,
        "decisions": log,
        "result": result,
    }


def test_versus_golden() -> None:
    game = recorded_game(5)
    text = json.dumps(game, indent=1, sort_keys=True) + "\n"
    if REGEN:
        GOLDEN.write_text(text)
    assert json.loads(GOLDEN.read_text()) == json.loads(text)
    assert all(reason in REASONS for side, _, _, reason in game["decisions"] if side == 0)


def test_same_seed_same_game() -> None:
    a, b = recorded_game(7, "beam", 15), recorded_game(7, "beam", 15)
    assert a == b
    assert recorded_game(8, "beam", 15)["decisions"] != a["decisions"]


# -- threats: the opponent's garbage lands before our chain could fire ------------------------------------


def position(
    mine: Sequence[str],
    pairs: Sequence[tuple[int, int]],
    *,
    fixed: int = 0,
    incoming: int = 0,
    his: Sequence[str] = ("......",),
    his_chain: int = 0,
    his_rest: Sequence[int] = (),
    his_busy: int = 0,
    now: int = 600,
) -> FrameVersus:
    """A frame-clock game at frame ``now`` with side 0 to move: its field and pairs, the garbage on its way,
    and the opponent's field and chain in progress (``his_chain`` links popped, links of ``his_rest`` points
    still to pop, ending at ``his_busy``)."""
    game = FrameVersus(0, config())
    game.now = now
    me, other = game.players
    me.field = Field.from_rows(mine)
    me.sequence = list(pairs)
    me.fixed, me.incoming = fixed, incoming
    other.field = Field.from_rows(his)
    other.chain = his_chain
    other.links = [Link(now, 0, 0, 0)] * his_chain + [Link(his_busy, points, 0, 0) for points in his_rest]
    other.busy_until = his_busy
    return game


#: (my field, my pairs): each fires a 3- or 4-link chain with its current pair, but holds a bigger one to build
FIELDS = {
    "three_links_yb": (["B.....", "Y.....", "YG....", "BB.RY.", "RBGGRR", "RRGRBG"], [(4, 3), (3, 2), (4, 4)]),
    "three_links_bg": (["B.....", "Y.....", "YG...G", "BB.RYG", "RBGGRR", "RRGRBG"], [(3, 2), (4, 4), (1, 3)]),
    "four_links_yy": ([".R....", ".G....", "BB....", "GYY...", "GYG...", "GBBGBB", "RGGRYB"], [(4, 4), (2, 1), (4, 4)]),
}
#: the opponent's fields: a tall one still holding his chain, a low one
HIS_TALL = ["..B...", ".RB...", "GRRB..", "GGBYY.", "RYBBYG", "RRYYGG"]

#: name -> (field, threat keys): the garbage lands before our next placement or right after it
THREATS = {
    "fixed_two_rows": ("three_links_yb", {"fixed": 12}),
    "his_chain_ends_now": ("three_links_bg", {"incoming": 24, "his_chain": 3, "his_busy": 620, "his": HIS_TALL}),
    "fixed_five_rows": ("four_links_yy", {"fixed": 30}),
    "fixed_and_incoming": ("three_links_yb", {"fixed": 6, "incoming": 10, "his_chain": 2, "his_busy": 700}),
    # his chain ends 60 frames from now: after a typical placement's 40 frames, before the slowest of ours (68)
    "his_chain_ends_during_our_drop": ("three_links_bg", {"incoming": 24, "his_chain": 3, "his_busy": 660}),
}


def decide(game: FrameVersus) -> tuple[int, str]:
    """Duelist's placement for side 0 of ``game``: the links it fires and the reason it gives."""
    bot = DuelistBot(config(), 1)
    me = game.players[0]
    action = bot.act(me)
    return me.field.copy().play(me.current(), placement_of(action)).links, bot.reason


@pytest.mark.parametrize("name", sorted(THREATS))
def test_a_threat_is_answered_by_firing(name: str) -> None:
    """It fires where the same field with nothing on its way builds (below): by the counter or defence rule, or,
    where the rest would bury it by fewer than ``duelist_bury_rows`` rows, by the build search, which plays the
    garbage as falling after the move."""
    field, keys = THREATS[name]
    links, reason = decide(position(*FIELDS[field], **keys))
    assert links > 0 and reason in ("counter", "defend", "build"), (links, reason)


@pytest.mark.parametrize("name", sorted(FIELDS))
def test_without_a_threat_it_builds(name: str) -> None:
    """The same fields with nothing on the way: the small chain is kept for later."""
    links, reason = decide(position(*FIELDS[name], his=HIS_TALL))
    assert (links, reason) == (0, "build")


def test_a_small_threat_it_can_wait_for_is_not_answered() -> None:
    """Garbage from a chain that ends long after our next placement: it builds on (it will answer later)."""
    links, reason = decide(position(*FIELDS["three_links_yb"], incoming=12, his_chain=1, his_rest=[700], his_busy=1400))
    assert (links, reason) == (0, "build")


def test_his_chain_in_progress_is_read_to_its_end() -> None:
    """The garbage his chain still sends is its links to pop, from his carry, less what is on its way to him:
    a 9-link chain of ours (398 garbage) that kills an empty field is no kill while his chain sends more (the
    bot builds on for a counter), and fires as a kill once his chain sends less."""
    game = position(*NINE_LINKS, incoming=20, his_chain=2, his_rest=[3000, 9000, 18000], his_busy=1500)
    him = game.players[1].view()
    assert chain_to_come(him, 70) == 428 and chain_to_come(replace(him, fixed=28, carry=69), 70) == 401
    assert decide(game) == (0, "build")
    assert decide(position(*NINE_LINKS, incoming=20, his_chain=2, his_rest=[3000, 9000], his_busy=1500)) == (
        9,
        "kill",
    )


def test_the_pair_in_play_is_read_as_his_next() -> None:
    """A pair falling into a quiet placement is the first of the pairs he places next; one whose placement
    fires a chain is not (its chain is read instead)."""
    game = FrameVersus(0, config())
    game.place(1, (3, 0), 0)
    him = game.players[1].view()
    assert him.in_play == game.players[1].sequence[0] and not him.links
    assert pairs_to_come(him) == (him.in_play, *him.pairs)
    assert pairs_to_come(replace(him, links=(Link(50, 40, 0, 0),))) == him.pairs


def test_a_lethal_chain_fires() -> None:
    """The 4-link chain's 33 garbage fills a nearly full spawn column the opponent cannot answer."""
    his = ["..Y...", "..G...", "..B...", "..R...", "..Y...", "..G...", "..B...", "..R...", "RGYBR."]
    links, reason = decide(position(*FIELDS["four_links_yy"], his=his))
    assert links == 4 and reason == "kill"


def test_a_kill_his_held_chain_would_answer_is_not_fired() -> None:
    """His field holds the same 4-link chain as ours (1-3 puyos of one colour trigger it) though his visible
    pairs cannot fire it: he fires it while ours runs, so our 33 garbage is no kill even at a crush of 6."""
    rows, pairs = FIELDS["four_links_yy"]
    game = position(rows, pairs, his=rows)
    game.players[1].sequence = [(1, 1)] * 4
    bot = DuelistBot(config(duelist_crush=6), 1)
    bot.act(game.players[0])
    assert bot.reason != "kill"
    assert held(Field.from_rows(rows), 4, 70, 0) == 32


#: our 9-link chain (398 garbage, its current pair (2, 2) fires it), and an opponent's field whose held chain
#: (154 garbage) it outsends by far, but which he builds into a 10-link chain within the placements our chain
#: runs (from ``builder`` solo games, seeds 0 and 1)
NINE_LINKS = (
    ["B.....", "Y.....", "YBRR..", "RGBG..", "BGRG..", "GRRY..", "GYYGBY", "BBBGYY", "RRRBGG"],
    [(2, 2), (2, 3), (3, 3)],
)
HIS_GROWING = ["G.....", "B.....", "G.....", "GG....", "BBY...", "BYYG..", "GGRY..", "GYYGYB", "BBYRYY", "GGRRBB"]


@pytest.mark.parametrize("read_ahead", [0, 12])
def test_a_kill_he_can_outbuild_while_it_runs_is_held_back(read_ahead: int) -> None:
    """Against an empty field the 9-link chain kills; against a field that grows a bigger answer while it
    runs it is held back and the bot builds with ``duelist_read_ahead`` 12; 0 reads no further
    than the chain he holds."""
    for his, expected in ((["......"], (9, "kill")), (HIS_GROWING, (9, "kill") if read_ahead == 0 else (0, "build"))):
        game = position(*NINE_LINKS, his=his)
        game.players[1].sequence = [(4, 3), (4, 4), (3, 2)] * 3
        bot = DuelistBot(config(duelist_read_ahead=read_ahead), 1)
        me = game.players[0]
        action = bot.act(me)
        assert (me.field.copy().play(me.current(), placement_of(action)).links, bot.reason) == expected
    assert held(Field.from_rows(HIS_GROWING), 4, 70, 0) == 154


#: our 8-link chain (312 garbage, its current pair (4, 4) fires it) and ``krieg3``'s field at that decision on
#: tuning seed 159: his spawn column 12 garbage from full, a held chain of 5 garbage, and so many puyos that the
#: read-ahead's search, which sees each sampled future whole, grows them into hundreds of garbage
EIGHT_LINKS = (
    ["BB....", "RYYB..", "RYRB..", "BBYYRG", "BGBBYB", "RRBRBG", "RBRGYY", "BBGGoo"],
    [(4, 4), (1, 2), (3, 2)],
)
HIS_JUNK = ["..B...", "..Y...", "..Y...", "..G...", "..B...", "..B...", ".BG.Y.", ".GY.R.", "RRBBYY", "GGGYBB"]


@pytest.mark.parametrize("growth", [7, 1000])
def test_a_kill_is_not_held_back_for_a_chain_he_has_not_begun(growth: int) -> None:
    """He grows his answer out of the chain he holds (``duelist_threat_growth`` times it at most): against the
    junk field the 8-link chain kills at the shipped cap (7); read 12 placements ahead without the cap (1000) it
    is held back for a chain no player builds blind, as it was when ``krieg3`` then buried us."""
    game = position(*EIGHT_LINKS, his=HIS_JUNK)
    game.players[1].sequence = [(1, 3), (2, 4), (3, 1)] * 3
    bot = DuelistBot(
        config(duelist_threat_growth=growth, duelist_read_ahead=12, duelist_width=120, duelist_futures=4), 1
    )
    me = game.players[0]
    action = bot.act(me)
    links = me.field.copy().play(me.current(), placement_of(action)).links
    assert (links, bot.reason) == ((8, "kill") if growth == 7 else (0, "build"))
    assert held(Field.from_rows(HIS_JUNK), 4, 70, 0) == 5


def test_reading_a_shot() -> None:
    """A shot's garbage is its points over the target with the carry; its end counts placement and links."""
    rows, pairs = FIELDS["four_links_yy"]
    field = Field.from_rows(rows)
    fired = shots(field, pairs[0], 100, 70, 0, "nova")
    best = max(fired, key=lambda s: s.garbage)
    assert (best.links, best.score, best.garbage) == (4, 2340, 33)
    assert best.ends > 100 + 4 * 55
    assert garbage_of(2340, 30, 70) == 33 and garbage_of(2340, 40, 70) == 34
    line = reach(field, pairs, 100, 70, 0)
    assert line is not None and line.garbage >= 33
