"""The ``stats puyo`` additions: the summary's shares and percentiles on known results, and ``--early-stop``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from puzzlebots.cli.app import cli
from puzzlebots.core.errors import ConfigError
from puzzlebots.core.runner import play_episode
from puzzlebots.games.puyo.game import GAME


def _result(max_chain: int, best: int) -> dict[str, Any]:
    return {"max_chain": max_chain, "best_chain_score": best, "score": best, "dead": False}


def test_summary_shares_and_percentiles() -> None:
    # ten games: largest chains 1..10, best chain scores 10,000 * chain (60k from chain 6, 100k at chain 10)
    results = [_result(k, 10_000 * k) for k in (7, 3, 10, 1, 5, 9, 2, 8, 4, 6)]
    s = GAME.summarize(results)
    assert (s["rate_60k"], s["rate_80k"], s["rate_100k"]) == (0.5, 0.3, 0.1)
    assert s["median_max_chain"] == 5  # nearest rank: the 5th of 10
    assert s["p90_max_chain"] == 9  # the 9th of 10
    one = GAME.summarize([_result(12, 99_999)])
    assert (one["rate_80k"], one["rate_100k"], one["median_max_chain"], one["p90_max_chain"]) == (1.0, 0.0, 12, 12)


def test_early_stop_ends_the_game_at_that_chain() -> None:
    full = play_episode("puyo", "krieg", 3, {"pairs": 40})
    assert full.result["chains"] >= 2  # the seed fires more than one chain, so the stop has work to do
    stopped = play_episode("puyo", "krieg", 3, {"pairs": 40, "early_stop": 1})
    # the same moves up to the first chain, then the game is over
    assert stopped.result["chains"] == 1 and not stopped.result["dead"]
    assert stopped.result["pairs_played"] < full.result["pairs_played"]
    assert stopped.actions == full.actions[: len(stopped.actions)]
    replay = GAME.new_state(3, GAME.check_config({"pairs": 40}))
    for action in stopped.actions[:-1]:
        replay.apply(GAME.decode_action(action))
        assert replay.result()["chains"] == 0  # no chain fired before the last move
    off = play_episode("puyo", "krieg", 3, {"pairs": 40, "early_stop": 0})
    assert off.actions == full.actions


def test_early_stop_is_validated() -> None:
    with pytest.raises(ConfigError, match="early_stop"):
        GAME.check_config({"early_stop": -1})
    with pytest.raises(ConfigError, match="early_stop"):
        GAME.check_config({"early_stop": "80000"})
    result = CliRunner().invoke(cli, ["stats", "puyo", "--games", "1", "--early-stop", "-5"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("error: ")]) == 1


def test_stats_prints_the_new_figures() -> None:
    args = [
        "stats",
        "puyo",
        "--bot",
        "krieg",
        "--games",
        "2",
        "--pairs",
        "20",
        "--jobs",
        "1",
        "--quiet",
        "--early-stop",
        "80000",
        "--reach",
        "climb12",
        "--format",
        "json",
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)["summary"]
    for key in ("rate_60k", "rate_80k", "rate_100k", "median_max_chain", "p90_max_chain"):
        assert key in summary
