"""Every game's ``stats`` figures mean one thing each: the table has a meaning for every summary figure, and no
summary key reads as one of the game's config keys (the summary's longest game is not the config's cap)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from puzzlebots.cli.output import summary_table
from puzzlebots.core.protocols import Episodic
from puzzlebots.core.registry import game_names, get_game
from puzzlebots.core.results import result_template

EPISODIC = [name for name in game_names() if isinstance(get_game(name), Episodic)]


def summary_of(game: Any) -> dict[str, Any]:
    """The game's summary of two fresh results (their shape is that of played ones; no game is played)."""
    template = result_template(game, game.check_config({}))
    return dict(game.summarize([{**template, "seed": 0}, {**template, "seed": 1}]))


@pytest.mark.parametrize("name", EPISODIC)
def test_every_summary_figure_has_a_meaning(name: str) -> None:
    game = get_game(name)
    summary = summary_of(game)
    missing = [key for key in summary if not game.summary_notes.get(key, "").strip()]
    assert not missing, f"{name}: figures without a meaning in summary_notes: {missing}"
    assert set(game.summary_notes) <= set(summary), f"{name}: notes for figures the summary does not have"
    table = summary_table(name, summary, dict(game.summary_notes))
    assert [column.header for column in table.columns] == ["figure", "value", "meaning"]


@pytest.mark.parametrize("name", EPISODIC)
def test_no_summary_key_reads_as_a_config_key(name: str) -> None:
    game = get_game(name)
    config_keys = set(game.default_config())
    for key in summary_of(game):
        assert key not in config_keys, f"{name}: the summary key {key!r} is also a config key"
        prefixed = [c for c in config_keys if key.startswith(c + "_")]
        assert not prefixed, f"{name}: the summary key {key!r} begins with the config key {prefixed[0]!r}"


def test_train_says_its_mean_is_capped(tmp_path: Path) -> None:
    """Hatris games stop at the ``max_spawns`` cap: ``train`` says its mean is of capped games (and, when the
    mean is the cap, that every game reached it), not "spawns to game over"."""
    from click.testing import CliRunner

    from puzzlebots.cli import cli

    args = [
        "train",
        "hatris",
        "--games-per-eval",
        "1",
        "--generations",
        "1",
        "--variants",
        "1",
        "--rounds",
        "1",
        "--max-spawns",
        "5",
        "--jobs",
        "1",
        "--quiet",
        "--out",
        str(tmp_path / "w.json"),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stderr.splitlines() if x.startswith("generation 1/1"))
    assert line == "generation 1/1: mean spawns 5.0 per game (capped at 5: every game reached it)"
    assert "game over" not in result.stderr
