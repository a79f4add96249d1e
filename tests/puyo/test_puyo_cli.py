"""The puyo commands: bad input gives one line and exit code 2; versus runs; human play takes fed keys.

The commands run as users run them, under the top-level ``puzzlebots`` group, which owns the error policy.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from puzzlebots.cli.app import cli
from puzzlebots.core.errors import ConfigError
from puzzlebots.games.puyo.cli import run_versus
from puzzlebots.games.puyo.game import GAME
from puzzlebots.games.puyo.human import HumanMatch, run_match


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "beam"],
        ["--bots", "beam,nobody"],
        ["--games", "0"],
        ["--seed", "x"],
    ],
)
@pytest.mark.parametrize("mount", [["puyo", "versus"], ["versus", "puyo"]])
def test_versus_bad_arguments(mount: list[str], args: list[str]) -> None:
    result = CliRunner().invoke(cli, [*mount, *args])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("error: ")]) == 1


def test_versus_runs_and_summarizes(tmp_path: Path) -> None:
    out = tmp_path / "v.json"
    result = CliRunner().invoke(cli, ["puyo", "versus", "--bots", "krieg3,krieg", "--games", "2", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "wins" in result.output and out.exists()
    summary = run_versus(GAME, "krieg3", "krieg", 2, 0, progress=False)
    assert summary["wins"][0] + summary["wins"][1] + summary["draws"] == 2


def test_play_needs_a_terminal() -> None:
    result = CliRunner().invoke(cli, ["puyo", "play"])
    assert result.exit_code == 2 and result.output == "error: puyo play needs an interactive terminal\n"
    result = CliRunner().invoke(cli, ["puyo", "play", "--ai", "nobody"])
    assert result.exit_code == 2 and result.output.startswith("error: puyo: unknown bot 'nobody'")
    assert len(result.output.splitlines()) == 1


def test_bad_config_and_actions() -> None:
    with pytest.raises(ConfigError, match="pairs"):
        GAME.check_config({"pairs": 0})
    with pytest.raises(ConfigError, match="unknown config key"):
        GAME.check_config({"colours": 4})
    with pytest.raises(ConfigError, match="reach"):
        GAME.check_config({"reach": "fly"})
    with pytest.raises(Exception, match="action"):
        GAME.decode_action("3,0")
    assert GAME.decode_action(GAME.encode_action((3, 1))) == (3, 1)


def test_human_match_with_fed_keys() -> None:
    config = GAME.check_config({})
    ai = GAME.make_bot("krieg3", config, None, 1)
    match = HumanMatch(0, config, ai)
    console = Console(record=True, width=120)
    # left twice, rotate clockwise (child right), drop; then rotate with X and up, drop at the spawn
    keys = ["\x1b[D", "\x1b[D", "x", "\x1b[B", "X", "\x1b[A", "\x1b[B", "?", "z", "q", "\x1b[B"]
    run_match(match, keys, console)
    human = match.game.players[0]
    assert human.index == 2 and match.game.players[1].index == 2
    assert human.field.heights.tolist()[:3] == [1, 1, 2]
    assert "AI: krieg3" in console.export_text()
    match.press("reset")
    assert match.game.turn == 0 and match.game.players[0].field.count() == 0


def test_wall_kick_and_quick_turn() -> None:
    config = GAME.check_config({})
    match = HumanMatch(0, config, GAME.make_bot("krieg", config, None, 1))
    for _ in range(5):
        match.press("right")
    assert (match.cursor.x, match.cursor.r) == (5, 0)
    match.press("cw")  # the child cannot go right of column 6: the pair kicks left
    assert (match.cursor.x, match.cursor.r) == (4, 1)


def test_malformed_template_file_through_the_cli(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("template X\nlinks 3\ncolours 1=R\nrows\nT\n1\nend\n")
    args = ["watch", "puyo", "--bot", "krieg3", "--pairs", "3", "--delay", "0", "--templates", str(bad)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert f"{bad}:7: template 'X' says links 3 but its trigger fires 0" in result.output


def test_unreachable_placement_through_the_engine() -> None:
    from puzzlebots.core.errors import IllegalActionError

    state = GAME.new_state(0, GAME.check_config({}))
    for _ in range(6):
        state.apply((2, 0))  # column 2 grows to 12: columns 1 and 2 are out of reach
    with pytest.raises(IllegalActionError, match=r"placement \(1, 0\) is not reachable"):
        state.apply((1, 0))
