"""``puzzlebots puyo versus``, ``match``, ``play`` and ``upi``: the game-specific commands.

They are mounted by ``game.PuyoGame.extra_commands`` under the top-level ``puzzlebots`` group (also as
``puzzlebots versus puyo``), which turns every ``PuzzlebotsError`` into ``error: ...`` and exit code 2.
The adapter hands itself in (:func:`commands`) and every function here takes it as ``game``, so this module does
not import the adapter that imports it.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from puzzlebots.command_parts.game_options import game_option_decorators, with_options
from puzzlebots.command_parts.match import match_options, match_sprt, play_match
from puzzlebots.command_parts.options import SEED, choice_option, defaulted_option, executor_options, refuse_given
from puzzlebots.command_parts.output import OutputPath, write_json_atomic
from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.core.batch import run_tasks
from puzzlebots.core.config import keys_read_by
from puzzlebots.core.errors import ConfigError
from puzzlebots.core.jsonio import show
from puzzlebots.core.match import Sides
from puzzlebots.core.parameters import read_values
from puzzlebots.core.protocols import Episodic, Versus, capability
from puzzlebots.core.seeds import bot_seed
from puzzlebots.core.workers import MAX_GAMES

from .config import typed_config
from .frame_versus import play_frames
from .upi import PREFIX, EngineBot, close_bot, serve
from .versus import VERSUS_FIRE_LINKS, play_versus


def _bot_pair(game: Episodic, spec: str) -> tuple[str, str]:
    names = [s.strip() for s in spec.split(",")]
    if len(names) != 2 or not all(names):
        raise ConfigError(f"puyo versus: --bots takes two bot names like beam,krieg, got {show(spec)}")
    for n in names:
        check_bot(game, n)
    return names[0], names[1]


def check_bot(game: Episodic, spec: str) -> None:
    """A bot name, or ``upi:COMMAND`` (an external UPI engine) with a command."""
    if spec.startswith(PREFIX):
        if not spec[len(PREFIX) :].strip():
            raise ConfigError("puyo: upi:COMMAND needs a command, like upi:./nova-upi")
    else:
        game.bot_info(spec)


def versus_config(game: Episodic, pairs_visible: int, **keys: Any) -> dict[str, Any]:
    """A checked versus config: ``pairs_visible`` next pairs shown, the versus fire threshold, and ``keys``."""
    return game.check_config({"visible": pairs_visible, "beam_fire_links": VERSUS_FIRE_LINKS, **keys})


def versus_bot(game: Episodic, spec: str, config: Mapping[str, Any], seed: int) -> Any:
    """A bot by name, or an external engine for ``upi:COMMAND``."""
    if spec.startswith(PREFIX):
        return EngineBot(spec[len(PREFIX) :], config, spec)
    return game.make_bot(spec, config, None, seed)


def versus_game(
    game: Episodic,
    bot_a: str,
    bot_b: str,
    seed: int,
    config: Mapping[str, Any],
    max_turns: int,
    sides: Sides | None = None,
) -> dict[str, Any]:
    """One seeded versus game's result on the clock ``versus_clock`` (frames unless given); a
    top-level function so that it pickles into worker processes. With ``sides`` each bot reads ``config`` with
    its own overrides (``train --opponent`` rates a candidate against the shipped settings so). An external
    engine that fails loses the game (``reason`` says why); its process is ended when the game ends, however it
    ends."""
    own = (config, config) if sides is None else tuple(game.check_config({**config, **s}) for s in sides)
    bots = (versus_bot(game, bot_a, own[0], bot_seed(seed, 0)), versus_bot(game, bot_b, own[1], bot_seed(seed, 1)))
    r: dict[str, Any] = {}
    try:
        if typed_config(config).versus_clock == "frames":
            r = play_frames(bots, seed, config, max_turns)
        else:
            r = play_versus(bots, seed, config, max_turns).as_dict()
    finally:
        for side, bot in enumerate(bots):
            won = r.get("winner")
            close_bot(bot, None if won is None else ("win" if won == side else "lose"))
    r["seed"] = seed
    return r


def run_versus(
    game: Episodic,
    bot_a: str,
    bot_b: str,
    games: int,
    seed: int,
    visible: int = 2,
    max_turns: int = 500,
    progress: bool = True,
    *,
    jobs: int | None = None,
    executor: str = "process",
    address: str | None = None,
    clock: str = "frames",
    upi_ms: int = 1000,
) -> dict[str, Any]:
    """Play ``games`` seeded versus games (seeds seed, seed+1, ...); the bots swap no sides (the sequence is
    shared, so sides are symmetric). Returns per-game results and the win counts, the same for any ``jobs``."""
    config = versus_config(game, visible, versus_clock=clock, upi_ms=upi_ms)
    results = run_tasks(
        versus_game,
        ((game, bot_a, bot_b, s, config, max_turns) for s in range(seed, seed + games)),
        total=games,
        jobs=jobs,
        executor=executor,
        address=address,
        description=f"{bot_a} vs {bot_b}",
        progress=progress,
    )
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


def commands(game: Episodic) -> tuple[click.Command, ...]:
    """``versus``, ``match``, ``play`` and ``upi``, each calling its function below with ``game``."""
    return (
        command("versus", versus_command, game, VERSUS_OPTIONS),
        command("match", match, game, [*MATCH_OPTIONS, *game_option_decorators(game)]),
        command("play", play_command, game, PLAY_OPTIONS),
        command("upi", upi_command, game, [*UPI_OPTIONS, *game_option_decorators(game, UPI_SEARCH_KEYS)]),
    )


def command(name: str, run: Any, game: Episodic, options: list[Any]) -> click.Command:
    """The click command ``name``: ``options`` over ``run(game, ...)``, helped by ``run``'s docstring."""
    return click.command(name, context_settings=HELP, help=run.__doc__)(
        with_options(options, functools.partial(run, game))
    )


VERSUS_OPTIONS = [
    click.option("--bots", "bots", default="beam,krieg", show_default=True, help="two bot names, A,B"),
    click.option("--games", type=click.IntRange(1, MAX_GAMES), default=10, show_default=True, help="number of games"),
    click.option("--seed", type=SEED, default=0, show_default=True, help="first seed (games use seed, seed+1, ...)"),
    click.option("--visible", type=click.IntRange(0, 20), default=2, show_default=True, help="next pairs visible"),
    click.option("--max-turns", type=click.IntRange(1), default=500, show_default=True, help="a draw after this"),
    choice_option(
        "--clock",
        ["frames", "turns"],
        "frames",
        "real frames per placement, chain link and garbage drop, or the old turn-based versus",
    ),
    defaulted_option(
        "--upi-ms", click.IntRange(1, 600_000), 1000, "think time per move (go MS) for upi:COMMAND engines"
    ),
    executor_options,
    click.option("--json", "json_path", type=OutputPath(), default=None, help="write the summary and every game here"),
]


def versus_command(
    game: Episodic,
    bots: str,
    games: int,
    seed: int,
    visible: int,
    max_turns: int,
    clock: str,
    upi_ms: int,
    jobs: int | None,
    executor: str,
    address: str | None,
    json_path: Path | None,
) -> None:
    """AI against AI with garbage: a summary of wins (a bot may be upi:COMMAND, an external UPI engine)."""
    a, b = _bot_pair(game, bots)
    summary = run_versus(
        game,
        a,
        b,
        games,
        seed,
        visible,
        max_turns,
        jobs=jobs,
        executor=executor,
        address=address,
        clock=clock,
        upi_ms=upi_ms,
    )
    table = Table(title=f"puyo versus, {games} games from seed {seed}")
    for col in ("bot", "wins", "win rate", "mean max chain"):
        table.add_column(col)
    for i, name in enumerate((a, b)):
        table.add_row(
            name, str(summary["wins"][i]), f"{summary['win_rate'][i]:.0%}", f"{summary['mean_max_chain'][i]:.2f}"
        )
    table.caption = f"draws {summary['draws']}, mean turns {summary['mean_turns']:.1f}"
    print_fitted(Console(), table)
    if json_path is not None:
        write_json_atomic(json_path, summary)


PLAY_OPTIONS = [
    click.option("--ai", default="krieg3", show_default=True, help="the AI opponent (krieg, krieg3, beam)"),
    click.option(
        "--seed", type=SEED, default=0, show_default=True, help="which game: the same seed deals the same pairs"
    ),
    click.option("--visible", type=click.IntRange(0, 20), default=2, show_default=True, help="next pairs visible"),
    choice_option(
        "--clock",
        ["frames", "turns"],
        "frames",
        "the AI plays at its frames while you think, or one pair each after yours",
    ),
]


def play_command(game: Episodic, ai: str, seed: int, visible: int, clock: str) -> None:
    """Play against an AI in the terminal (KRIEG3's keys; the AI's target chain is drawn as an overlay)."""
    game.bot_info(ai)
    if not sys.stdin.isatty():
        raise ConfigError("puyo play needs an interactive terminal")
    config = versus_config(game, visible)
    bot = game.make_bot(ai, config, None, bot_seed(seed))
    if clock == "frames":
        import time

        from .frame_page import FramePage
        from .frame_terminal import run_frame_match, terminal_reader

        with terminal_reader() as read:
            run_frame_match(FramePage(seed, config, bot, ai, time.monotonic), read, Console())
        return
    from .human import HumanMatch, run_match, terminal_keys

    run_match(HumanMatch(seed, config, bot), terminal_keys(), Console())


UPI_OPTIONS = [
    click.option("--bot", "bot_name", default="builder", show_default=True, help="the bot that answers"),
    click.option("--seed", type=SEED, default=0, show_default=True, help="the bot's seed"),
    choice_option("--reach", ["strict", "climb12"], "strict", "columns a pair can cross"),
]


#: the builder's search size, which ``upi`` takes as ``versus`` and ``match`` do (a host playing a smaller builder)
UPI_SEARCH_KEYS = ("builder_width", "builder_depth", "builder_futures")


def upi_command(game: Episodic, bot_name: str, seed: int, reach: str, **kwargs: Any) -> None:
    """Speak UPI (nova's engine protocol) on stdin/stdout, so that other hosts can play our bots."""
    game.bot_info(bot_name)
    chosen = {k[len("config__") :]: v for k, v in kwargs.items() if v is not None}
    config = game.check_config({"beam_fire_links": VERSUS_FIRE_LINKS, "reach": reach, **chosen})
    serve(lambda: game.make_bot(bot_name, config, None, seed), reach, bot_name, sys.stdin, sys.stdout, sys.stderr)


#: game options a versus game never reads (solo only)
SOLO_ONLY = ("config__pairs", "config__early_stop")

MATCH_OPTIONS = [
    click.option("--bots", "bots", default="builder,krieg", show_default=True, help="two bot names, A,B"),
    click.option("--max-turns", type=click.IntRange(1), default=500, show_default=True, help="a draw after this"),
    click.option(
        "--tuned",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="settings file `train --opponent` wrote for bot A: A plays them, B the config's (with --bots "
        "duelist,duelist, the tuned thresholds against the shipped ones)",
    ),
    match_options,
]


def match(
    game: Episodic,
    bots: str,
    max_turns: int,
    ms: int | None,
    games: int,
    seed: int,
    sprt: tuple[float, float] | None,
    alpha: float,
    beta: float,
    tuned: Path | None,
    **kwargs: Any,
) -> None:
    """Bot A against bot B in pairs of versus games (one seed, sides swapped): wins, draws, the Elo difference
    with its 95% interval, and with --sprt a sequential test that stops the match once it decides; with --tuned,
    A plays the settings a `train --opponent` run wrote."""
    test = match_sprt(games, sprt, alpha, beta)
    names = [s.strip() for s in bots.split(",")]
    if len(names) != 2 or not all(names):
        raise ConfigError(f"puyo match: --bots takes two bot names like builder,krieg, got {bots!r}")
    for name in names:
        check_bot(game, name)
    refuse_given(click.get_current_context(), SOLO_ONLY, "is for solo games: versus does not read it")
    chosen = {k[len("config__") :]: kwargs.pop(k) for k in list(kwargs) if k.startswith("config__")}
    chosen = {k: v for k, v in chosen.items() if v is not None}
    config = game.check_config({**versus_config(game, chosen.get("visible", 2)), **chosen})
    if ms is not None:
        config["think_ms"] = ms
    sides: Sides | None = None
    if tuned is not None:
        parameters = capability(game, Versus).tuned_parameters(names[0])
        if not parameters:
            raise ConfigError(f"--tuned: bot A, {names[0]}, has no settings that train --opponent tunes")
        own = read_values(tuned, parameters)
        game.check_config({**config, **own})
        sides = (own, {})
    play_match(
        functools.partial(versus_game, game),
        (names[0], names[1]),
        (config, max_turns),
        {
            "game": game.name,
            "config": {k: config[k] for k in keys_read_by(game.config_schema, names)},
            "max_turns": max_turns,
        },
        games=games,
        seed=seed,
        sprt=test,
        sides=sides,
        labels=None if tuned is None else (f"{names[0]} (tuned)", names[1]),
        **kwargs,
    )
