"""``puzzlebots puyo versus`` and ``puzzlebots puyo play``: the game-specific commands.

They are mounted by ``game.PuyoGame.extra_commands`` under the top-level ``puzzlebots`` group (also as
``puzzlebots versus puyo``), which turns every ``PuzzlebotsError`` into ``error: ...`` and exit code 2.
This module imports the game adapter; the adapter imports it only when asked for its commands.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from puzzlebots.cli.options import SEED, executor_options
from puzzlebots.cli.output import OutputPath, write_json_atomic
from puzzlebots.core.batch import MAX_GAMES, run_tasks
from puzzlebots.core.errors import ConfigError
from puzzlebots.core.jsonio import show
from puzzlebots.core.seeds import bot_seed

from .game import GAME
from .versus import VERSUS_FIRE_LINKS, play_versus


def _bot_pair(spec: str) -> tuple[str, str]:
    names = [s.strip() for s in spec.split(",")]
    if len(names) != 2 or not all(names):
        raise ConfigError(f"puyo versus: --bots takes two bot names like beam,krieg, got {show(spec)}")
    for n in names:
        GAME.bot_info(n)
    return names[0], names[1]


def versus_config(pairs_visible: int) -> dict[str, Any]:
    return GAME.check_config({"visible": pairs_visible, "beam_fire_links": VERSUS_FIRE_LINKS})


def versus_game(bot_a: str, bot_b: str, seed: int, config: Mapping[str, Any], max_turns: int) -> dict[str, Any]:
    """One seeded versus game's result; a top-level function so that it pickles into worker processes."""
    bots = (
        GAME.make_bot(bot_a, config, None, bot_seed(seed, 0)),
        GAME.make_bot(bot_b, config, None, bot_seed(seed, 1)),
    )
    r = play_versus(bots, seed, config, max_turns).as_dict()
    r["seed"] = seed
    return r


def run_versus(bot_a: str, bot_b: str, games: int, seed: int, visible: int = 2, max_turns: int = 500,
               progress: bool = True, *, jobs: int | None = None, executor: str = "process",
               address: str | None = None) -> dict[str, Any]:
    """Play ``games`` seeded versus games (seeds seed, seed+1, ...); the bots swap no sides (the sequence is
    shared, so sides are symmetric). Returns per-game results and the win counts, the same for any ``jobs``."""
    config = versus_config(visible)
    results = run_tasks(versus_game, ((bot_a, bot_b, s, config, max_turns) for s in range(seed, seed + games)),
                        total=games, jobs=jobs, executor=executor, address=address,
                        description=f"{bot_a} vs {bot_b}", progress=progress)
    wins = [sum(1 for r in results if r["winner"] == i) for i in (0, 1)]
    return {
        "bots": [bot_a, bot_b],
        "games": games,
        "wins": wins,
        "draws": games - sum(wins),
        "win_rate": [w / games for w in wins],
        "mean_turns": sum(r["turns"] for r in results) / games,
        "mean_max_chain": [sum(r["max_chains"][i] for r in results) / games for i in (0, 1)],
        "results": results,
    }


#: ``-h`` as well as ``--help``, also where a command is run on its own (the top-level group passes it on)
HELP = {"help_option_names": ["-h", "--help"]}


@click.command("versus", context_settings=HELP)
@click.option("--bots", "bots", default="beam,krieg", show_default=True, help="two bot names, A,B")
@click.option("--games", type=click.IntRange(1, MAX_GAMES), default=10, show_default=True, help="number of games")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="first seed (games use seed, seed+1, ...)")
@click.option("--visible", type=click.IntRange(0, 20), default=2, show_default=True, help="next pairs visible")
@click.option("--max-turns", type=click.IntRange(1), default=500, show_default=True, help="a draw after this")
@executor_options
@click.option("--json", "json_path", type=OutputPath(), default=None, help="write the summary and every game here")
def versus_command(bots: str, games: int, seed: int, visible: int, max_turns: int, jobs: int | None,
                   executor: str, address: str | None, json_path: Path | None) -> None:
    """AI against AI with garbage: a summary of wins."""
    a, b = _bot_pair(bots)
    summary = run_versus(a, b, games, seed, visible, max_turns, jobs=jobs, executor=executor, address=address)
    table = Table(title=f"puyo versus, {games} games from seed {seed}")
    for col in ("bot", "wins", "win rate", "mean max chain"):
        table.add_column(col)
    for i, name in enumerate((a, b)):
        table.add_row(
            name, str(summary["wins"][i]), f"{summary['win_rate'][i]:.0%}", f"{summary['mean_max_chain'][i]:.2f}"
        )
    table.caption = f"draws {summary['draws']}, mean turns {summary['mean_turns']:.1f}"
    Console().print(table)
    if json_path is not None:
        write_json_atomic(json_path, summary)


@click.command("play", context_settings=HELP)
@click.option("--ai", default="krieg3", show_default=True, help="the AI opponent (krieg, krieg3, beam)")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="which game: the same seed deals the same pairs")
@click.option("--visible", type=click.IntRange(0, 20), default=2, show_default=True, help="next pairs visible")
def play_command(ai: str, seed: int, visible: int) -> None:
    """Play against an AI in the terminal (KRIEG3's keys; the AI's target chain is drawn as an overlay)."""
    from .human import HumanMatch, run_match, terminal_keys

    GAME.bot_info(ai)
    if not sys.stdin.isatty():
        raise ConfigError("puyo play needs an interactive terminal")
    config = versus_config(visible)
    match = HumanMatch(seed, config, GAME.make_bot(ai, config, None, bot_seed(seed)))
    run_match(match, terminal_keys(), Console())
