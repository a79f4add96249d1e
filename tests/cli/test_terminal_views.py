"""Every ``watch`` view in one frame style, fitting 80 columns, and saying plainly how it ended."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from rich.console import Console

from puzzlebots.cli import cli
from puzzlebots.core.protocols import Episodic, TerminalView
from puzzlebots.core.registry import get_game, loadable_games
from puzzlebots.games.puyo.cli import versus_config
from puzzlebots.games.puyo.game import GAME as PUYO
from puzzlebots.games.puyo.human import HumanMatch, run_match

WATCHED = {"hatris": {}, "puyo": {}, "yoshis_cookie": {"max_stages": 1}}


def drawn(renderable: Any, width: int = 200, colours: bool = True) -> list[str]:
    """The renderable as plain lines on a console wider than it needs, so nothing is wrapped to fit; drawn for
    a colour terminal unless ``colours`` is False (a pipe, a log)."""
    console = Console(width=width, record=True, color_system="truecolor" if colours else None)
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().rstrip("\n").split("\n")]


def states(name: str, n: int) -> list[Any]:
    """The first state, one after ``n`` decisions and the last one of a seeded game of the first bot."""
    game = get_game(name)
    assert isinstance(game, Episodic)
    config = game.check_config(WATCHED[name])
    bot = game.make_bot(game.bots()[0].name, config, None, 1)
    state = game.new_state(3, config)
    out = [state.clone()]
    steps = 0
    while not state.is_terminal() and steps < 3000:
        state.apply(bot.act(state))
        steps += 1
        if steps == n:
            out.append(state.clone())
    out.append(state)
    return out


def test_every_watched_game_is_covered() -> None:
    views = {
        g.name
        for g in loadable_games()
        if isinstance(g, Episodic)
        and isinstance(g, TerminalView)
        and type(g).__module__.startswith("puzzlebots.games.")
    }  # not the test suites' toy games
    assert views == set(WATCHED)


@pytest.mark.parametrize("name", sorted(WATCHED))
def test_a_watch_view_is_one_framed_panel_within_80_columns(name: str) -> None:
    game = get_game(name)
    assert isinstance(game, TerminalView)
    for state in states(name, 12):
        lines = drawn(game.render(state))
        widest = max(len(line) for line in lines)
        assert widest <= 80, "\n".join(lines)
        assert lines[0].startswith("╭─ ") and lines[-1].startswith("╰") and len(lines[-1]) == widest, "\n".join(lines)
        # width fitted to the content: the frame is no wider than what it holds plus its border and padding
        assert all(line.startswith("│ ") for line in lines[1:-1])
        assert any(line[-3] != " " for line in lines[1:-1]), "\n".join(lines)


@pytest.mark.parametrize("name", sorted(WATCHED))
def test_watch_draws_the_panel_through_the_command(name: str) -> None:
    args = ["watch", name, "--delay", "0", "--max-actions", "3", "--seed", "2"]
    result = CliRunner(env={"COLUMNS": "80"}).invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert f"{name} / " in result.output and "╭─ " in result.output


def test_puyo_says_game_over_plainly() -> None:
    game = get_game("puyo")
    assert isinstance(game, Episodic) and isinstance(game, TerminalView)
    state = game.new_state(0, game.check_config({}))
    while not state.is_terminal():
        state.apply(next(a for a in state.legal_actions() if game.encode_action(a) == [3, 0]))
    text = "\n".join(drawn(game.render(state)))
    assert state.result()["dead"]
    assert f"GAME OVER after {state.result()['pairs_played']} pairs" in text.split("\n")[0]
    assert "playing" not in text and "now " not in text  # no pair left to play is offered
    assert "12 . . X . . ." in text  # the filled death cell is marked


def test_yoshis_final_screen_is_the_outcome_not_an_empty_matrix() -> None:
    *_, last = states("yoshis_cookie", 1)
    game = get_game("yoshis_cookie")
    assert isinstance(game, TerminalView) and last.is_terminal()
    text = "\n".join(drawn(game.render(last)))
    assert "0 x 0" not in text and "matrix" not in text
    assert "run complete" in text and "stages cleared" in text and "1 of 1 started" in text


def human_match() -> HumanMatch:
    game = get_game("puyo")
    config = versus_config(PUYO, 2)
    return HumanMatch(0, config, game.make_bot("krieg", config, None, 1))  # type: ignore[attr-defined]


def test_puyo_play_draws_the_falling_pair_whole_and_labels_it_now() -> None:
    match = human_match()
    lines = drawn(match.view())
    you = [line.split("╮ ╭")[0] if "╮ ╭" in line else line.split("│ │")[0] for line in lines]
    a, c = match.game.players[0].current()
    # both puyos of the pair hover above row 13 from the very first frame, the child above the axis
    hover = [line for line in you[1:4] if "◉" in line]
    assert len(hover) == 2, "\n".join(lines)
    # the "now" label names the falling pair (child, then axis), the next label the pair after it
    letters = "".join(ch for ch in next(line for line in you if "now " in line).split("now ")[1] if ch.isalpha())
    from puzzlebots.games.puyo.rules import COLOUR_LETTERS

    assert letters[:2] == COLOUR_LETTERS[c] + COLOUR_LETTERS[a]


def test_puyo_colours_are_letters_where_colours_do_not_show() -> None:
    match = human_match()
    a, c = match.game.players[0].current()
    you = [
        line.split("╮ ╭")[0] if "╮ ╭" in line else line.split("│ │")[0] for line in drawn(match.view(), colours=False)
    ]
    from puzzlebots.games.puyo.rules import COLOUR_LETTERS

    hover = [line[:17].strip("│ ") for line in you[1:3]]
    assert hover == [COLOUR_LETTERS[c].lower(), COLOUR_LETTERS[a].lower()]  # the falling pair, child on top
    assert not any("◉" in line[:17] or "●" in line[:17] for line in you[1:16])  # the field: letters only


def test_puyo_play_prints_the_result_on_quitting() -> None:
    match = human_match()
    console = Console(record=True, width=120)
    run_match(match, ["\x1b[B", "\x1b[B", "q"], console)
    last = console.export_text().rstrip().split("\n")[-1]
    assert last.startswith("You quit after 2 turns: you ") and "AI krieg" in last and "points" in last
