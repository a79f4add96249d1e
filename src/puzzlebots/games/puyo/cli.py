"""``puzzlebots puyo versus`` and ``puzzlebots puyo play``: the game-specific commands.

Both turn ``puzzlebots.core.errors`` into ``error: ...`` and exit code 2 themselves, so they behave the
same when mounted elsewhere (e.g. aliased as ``puzzlebots versus puyo``).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from puzzlebots.core.errors import ConfigError, PuzzlebotsError
from puzzlebots.core.runner import BOT_SEED_SALT

from .game import GAME
from .versus import VERSUS_FIRE_LINKS, play_versus


def _user_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PuzzlebotsError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)

    return wrapper


def _bot_pair(spec: str) -> tuple[str, str]:
    names = [s.strip() for s in spec.split(",")]
    if len(names) != 2 or not all(names):
        raise ConfigError(f"puyo versus: --bots takes two bot names like beam,krieg, got {spec!r}")
    for n in names:
        GAME.bot_info(n)
    return names[0], names[1]


def versus_config(pairs_visible: int) -> dict[str, Any]:
    return GAME.check_config({"visible": pairs_visible, "beam_fire_links": VERSUS_FIRE_LINKS})


def run_versus(bot_a: str, bot_b: str, games: int, seed: int, visible: int = 2, max_turns: int = 500,
               progress: bool = True) -> dict[str, Any]:
    """Play ``games`` seeded versus games (seeds seed, seed+1, ...); the bots swap no sides (the sequence is
    shared, so sides are symmetric). Returns per-game results and the win counts."""
    config = versus_config(visible)
    results = []
    with Progress(disable=not progress, transient=True) as bar:
        task = bar.add_task(f"{bot_a} vs {bot_b}", total=games)
        for s in range(seed, seed + games):
            bots = (
                GAME.make_bot(bot_a, config, None, (s ^ BOT_SEED_SALT) * 2),
                GAME.make_bot(bot_b, config, None, (s ^ BOT_SEED_SALT) * 2 + 1),
            )
            r = play_versus(bots, s, config, max_turns).as_dict()
            r["seed"] = s
            results.append(r)
            bar.advance(task)
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


@click.command("versus")
@click.option("--bots", "bots", default="beam,krieg", show_default=True, help="two bot names, A,B")
@click.option("--games", type=click.IntRange(1), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="first seed (games use seed, seed+1, ...)")
@click.option("--visible", type=click.IntRange(0, 20), default=2, show_default=True, help="next pairs visible")
@click.option("--max-turns", type=click.IntRange(1), default=500, show_default=True, help="a draw after this")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, writable=True), default=None)
@_user_errors
def versus_command(bots: str, games: int, seed: int, visible: int, max_turns: int, json_path: str | None) -> None:
    """AI against AI with garbage: a summary of wins."""
    import json

    a, b = _bot_pair(bots)
    summary = run_versus(a, b, games, seed, visible, max_turns)
    table = Table(title=f"puyo versus, {games} games from seed {seed}")
    for col in ("bot", "wins", "win rate", "mean max chain"):
        table.add_column(col)
    for i, name in enumerate((a, b)):
        table.add_row(
            name, str(summary["wins"][i]), f"{summary['win_rate'][i]:.0%}", f"{summary['mean_max_chain'][i]:.2f}"
        )
    table.caption = f"draws {summary['draws']}, mean turns {summary['mean_turns']:.1f}"
    Console().print(table)
    if json_path:
        with open(json_path, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=1)


@click.command("play")
@click.option("--ai", default="krieg3", show_default=True, help="the AI opponent (krieg, krieg3, beam)")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--visible", type=click.IntRange(0, 20), default=2, show_default=True, help="next pairs visible")
@_user_errors
def play_command(ai: str, seed: int, visible: int) -> None:
    """Play against an AI in the terminal (KRIEG3's keys; the AI's target chain is drawn as an overlay)."""
    from .human import HumanMatch, run_match, terminal_keys

    GAME.bot_info(ai)
    if not sys.stdin.isatty():
        raise ConfigError("puyo play needs an interactive terminal")
    config = versus_config(visible)
    match = HumanMatch(seed, config, GAME.make_bot(ai, config, None, seed ^ BOT_SEED_SALT))
    run_match(match, terminal_keys(), Console())
