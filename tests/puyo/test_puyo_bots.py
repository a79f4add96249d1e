"""The KRIEG and KRIEG3 procedures on hand-made fields, the template file checks, and the beam bot."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from puzzlebots.core.errors import InputError
from puzzlebots.core.runner import play_episode
from puzzlebots.games.puyo.bots.krieg import krieg_choice
from puzzlebots.games.puyo.bots.krieg3 import Krieg3Bot, candidate_chains, free_space
from puzzlebots.games.puyo.bots.prediction import predictions
from puzzlebots.games.puyo.bots.templates import load_templates, parse_templates
from puzzlebots.games.puyo.engine import Field, action_of, placement_of
from puzzlebots.games.puyo.game import GAME
from puzzlebots.games.puyo.kernels import bitboard as BB
from puzzlebots.games.puyo.kernels.beam import NEG, P_REMAINING, beam_search

R, G, B, Y = 1, 2, 3, 4
CONFIG = GAME.check_config({})


def test_krieg_pops_when_it_can() -> None:
    # 3 R in column 1: a placement that pops them scores E 4 + G 5 - H 1 = 8, the best; the six tied
    # placements ((1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (2, 3)) are chosen between at random.
    field = Field.from_rows(["R.....", "R.....", "R....."])
    preds = predictions(field, (R, G))
    picks = [krieg_choice(preds, (1, 1, 1), random.Random(s)) for s in range(40)]
    assert all(p.result.popped == 4 and p.field.heights.max() == 1 for p in picks)
    assert {action_of(p.index) for p in picks} == {(1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (2, 3)}


def test_krieg_group_measure_and_game_over_flag() -> None:
    field = Field.from_rows(["GG...."])
    by_action = {action_of(p.index): p for p in predictions(field, (G, B))}
    assert by_action[(3, 3)].group == 3 + 1  # the G joins G G (3), the B alone (1)
    tall = Field.from_rows(["..GB..", "..BG.."] * 5 + ["..GB.."])  # column 3 is 11 high
    dead = {action_of(p.index) for p in predictions(tall, (R, Y)) if p.dead}
    assert dead == {(3, 0), (3, 1), (3, 2), (3, 3), (2, 1), (4, 3)}


def test_free_space_matches_the_article_example() -> None:
    # free heights 6, 4, 4, 5, 0, 6 -> [0, 1:6], [1, 2:4], [2, 1:4], [3, 1:5], [5, 1:6]
    heights = [6, 8, 8, 7, 12, 6]
    f = Field()
    for x, h in enumerate(heights):
        f.cells[x, :h] = [G if (i + x) % 2 else B for i in range(h)]
        f.heights[x] = h
    assert free_space(f) == [(0, 1, 6), (1, 2, 4), (2, 1, 4), (3, 1, 5), (5, 1, 6)]


def test_shipped_templates_are_valid_and_fire_as_declared() -> None:
    templates = load_templates()
    assert len(templates) >= 8
    assert {t.links for t in templates} >= {2, 3, 4, 5}


def test_candidates_respect_the_adjacency_rule() -> None:
    templates = [t for t in load_templates() if t.name == "Key"]
    assert candidate_chains(Field(), templates, "left", [{}])
    # a red block next to where a red chain cell would go blocks the template there
    blocked = Field.from_rows(["..R...", "..G...", "..G...", "B....."])
    # Key sits on the floor of node [1, 1:...] etc.; none of its red cells may touch the R at (3, 4)
    for chain in candidate_chains(blocked, templates, "slide", [{}]):
        reds = [(x, y) for x, y, c in chain.cells if c == R]
        assert all(abs(x - 2) + abs(y - 3) != 1 for x, y in reds)


def test_krieg3_builds_and_fires_a_template() -> None:
    bot = Krieg3Bot(CONFIG, seed=3)
    state = GAME.new_state(7, CONFIG)
    modes = []
    while not state.is_terminal():
        action = bot.act(state)
        if bot.mode in ("a", "b"):
            assert bot.target_cells() or bot.mode == "a"
        modes.append(bot.mode)
        state.apply(action)
    assert "a" in modes and "b" in modes
    assert state.result()["max_chain"] >= 2


BAD_TEMPLATES = [
    ("template X\nlinks 2\ncolours 1=R\nrows\nT\n1\nend\n", "no colour|fires"),
    ("template X\nlinks 1\ncolours 1=R\nrows\n1 1\n1 1\nend\n", "no trigger"),
    ("template X\nlinks 1\ncolours 1=R 2=Q\nrows\nT\nend\n", "bad colour"),
    ("template X\nlinks 1\ncolours 1=R\nrows\n. T\n1 .\nend\n", "floats|first column"),
    ("template X\nlinks 1\ncolours 1=R\nrows\nT\n", "not closed"),
    ("links 1\n", "expected 'template NAME'"),
    ("template X\nlinks 1\ncolours 1=R\nrows\n1\nT\n1\n1\nend\n", "top cell"),
    ("template X\nlinks 1\ncolours 1=R\nrows\nT\n1\n1\n1\n1\nend\n", "pops 1 link"),
    ("template X\nlinks 1\ncolours 1=R\nwidth 3\n", "unknown directive"),
    ("template X\nlinks 1\ncolours 1=R\nrows\nT ?\nend\n", "unknown symbol"),
]


@pytest.mark.parametrize(("text", "message"), BAD_TEMPLATES)
def test_malformed_templates_raise_one_line(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message) as info:
        parse_templates(text, "bad.txt")
    assert "\n" not in str(info.value) and str(info.value).startswith("bad.txt:")


def test_template_file_from_config(tmp_path: Path) -> None:
    path = tmp_path / "t.txt"
    path.write_text("template L\nlinks 2\ncolours 1=R 2=G\nrows\nT . .\n1 2 .\n1 1 .\n2 2 2\nend\n")
    bot = GAME.make_bot("krieg3", GAME.check_config({"k3_templates": str(path)}), None, 0)
    assert [t.name for t in bot.templates] == ["L"]  # type: ignore[attr-defined]
    with pytest.raises(InputError, match="cannot read"):
        GAME.make_bot("krieg3", GAME.check_config({"k3_templates": str(tmp_path / "nope")}), None, 0)


def test_beam_plays_a_short_game_and_chains() -> None:
    episode = play_episode(GAME, "beam", 5, {"pairs": 24, "beam_width": 12, "beam_samples": 1})
    assert episode.result["pairs_played"] == 24 and not episode.result["dead"]
    assert episode.result["max_chain"] >= 3


def test_overlay_is_the_krieg3_target_and_nothing_else() -> None:
    from rich.console import Console

    from puzzlebots.games.puyo.bots.base import target_overlay
    from puzzlebots.games.puyo.render import render_solo

    state = GAME.new_state(7, CONFIG)
    krieg3 = GAME.make_bot("krieg3", CONFIG, None, 3)
    state.apply(krieg3.act(state))
    assert krieg3.target_cells()  # type: ignore[attr-defined]
    assert target_overlay(krieg3) == krieg3.target_cells()  # type: ignore[attr-defined]
    assert target_overlay(GAME.make_bot("krieg", CONFIG, None, 3)) == []
    assert target_overlay(GAME.make_bot("beam", CONFIG, None, 3)) == [] and target_overlay(None) == []

    def drawn(bot: object) -> str:
        console = Console(record=True, width=120)
        console.print(render_solo(state, bot))  # type: ignore[arg-type]
        return console.export_text()

    assert "·" in drawn(krieg3) and "·" not in drawn(None)


def test_beam_never_keeps_a_line_through_death() -> None:
    # column 3 is 10 high (B/Y alternating, no group); a green pair standing there fills the death cell (3, 12).
    # Green is spelt in the second bit plane only: the beam's death test must look at every plane.
    root = BB.new_field()
    BB.encode(Field.from_rows(["..Y...", "..B..."] * 5).cells, root)
    bot = GAME.make_bot("beam", GAME.check_config({"beam_width": 12}), None, 0)
    params = bot.params.copy()  # type: ignore[attr-defined]
    params[P_REMAINING] = 10
    out = np.zeros(22)
    beam_search(root, np.array([[2, 2]] * 4), params, bot.weights, out)  # type: ignore[attr-defined]
    assert out[placement_of((3, 0))] <= NEG
    assert (out > NEG).sum() >= 5  # the other columns stay open
