"""Commands that work for every game: stats, watch, train, replay, versus, bench, serve.

``stats``, ``watch`` and ``train`` are groups with one sub-command per game, built from the game's adapter, so
each game's own options (``GAME.config_options()``) show in ``puzzlebots stats GAME --help``.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

import click
from rich.console import Console, Group
from rich.text import Text

from ..command_parts.game_options import game_option_decorators, split_config, with_options
from ..command_parts.options import (
    DELAY,
    FiniteFloat,
    choice_option,
    defaulted_option,
    executor_options,
    json_option,
    max_actions_option,
    plot_option,
    quiet_option,
    refuse_given,
    seed_option,
)
from ..command_parts.output import OutputPath, progress_log, read_progress, write_json_atomic
from ..command_parts.terminal import live_view, print_fitted
from ..core import config as config_mod
from ..core.errors import ConfigError, InputError
from ..core.files import beside, short_name
from ..core.protocols import Commands, Episodic, Game, TerminalView, Versus, capability
from ..core.registry import get_game, loadable_games
from ..core.replay import MAX_ACTIONS as MAX_REPLAY_ACTIONS
from ..core.replay import check_replay, read_replay, write_replay
from ..core.results import check_result, result_template
from ..core.runner import play_episode
from ..core.seeds import MAX_SEED, bot_seed
from ..core.workers import MAX_GAMES
from .app import cli
from .output import load_weights, plot_histogram, plot_learning_curve, summary_table

Factory = Callable[[Episodic], click.Command]


class GameDispatch(click.Group):
    """A group whose first argument names a game; ``get_command`` raises a one-line error for a bad one."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        return args[0], self.get_command(ctx, args[0]), args[1:]


class PerGame(GameDispatch):
    """A group whose sub-commands are the episodic games, each built by ``factory(game)``."""

    def __init__(self, *args: Any, factory: Factory, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.factory = factory

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [g.name for g in loadable_games() if isinstance(g, Episodic)]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        # ConfigError for an unknown game, or one without seeded games: one line, exit 2
        return self.factory(capability(get_game(cmd_name), Episodic))


def bot_option(game: Any) -> Callable[[Any], Any]:
    names = [b.name for b in game.bots()]
    return click.option(
        "--bot", "bot", default=names[0], show_default=True, help=f"Which bot plays: {', '.join(names)}."
    )


def check_start(
    game: Episodic, bot: str, config: dict[str, Any], weights: Sequence[float] | None, seed: int
) -> dict[str, Any]:
    """Refuse what would fail or be ignored once games run, before the first one; the shape of a result.

    The bot and its weights; a game option that only other bots read; and, by building the first game and
    its bot here, every input file the config names (a missing templates or board file).
    """
    game.bot_info(bot)
    game.check_weights(bot, weights)
    unread = config_mod.unread_keys(game.config_schema, bot)
    refuse_given(click.get_current_context(), ["config__" + k for k in unread], f"has no effect with --bot {bot}")
    game.new_state(seed, config)
    game.make_bot(bot, config, weights, bot_seed(seed))
    return result_template(game, config)


# --------------------------------------------------------------------------- stats


def fitness_cap(game: Episodic, config: dict[str, Any]) -> float | None:
    """The value that caps the game's fitness under ``config`` (its ``fitness_cap`` key), or None."""
    return None if game.fitness_cap is None else float(config[game.fitness_cap])


def cap_note(cap: float | None, values: Sequence[float], label: str) -> str:
    """How many of ``values`` stand at the cap, in words ("" without a cap)."""
    if cap is None:
        return ""
    return f"capped at {cap:,g} {label}: {sum(1 for v in values if v >= cap):,} of {len(values):,} games reached it"


def plotted(
    game: Episodic, results: Sequence[dict[str, Any]], config: dict[str, Any] | None = None
) -> tuple[list[float], str, str]:
    """What ``stats --plot`` draws, in the game's units: its ``plot_figure`` (result key, label) if it names
    one, else the fitness under ``fitness_label``; and a note on the fitness's cap where the game has one."""
    key, label = game.plot_figure or (None, game.fitness_label)
    if key is None:
        values = [game.fitness(r) for r in results]
        return values, label, cap_note(fitness_cap(game, config) if config else None, values, label)
    return [float(r[key]) for r in results], label, ""


def make_stats(game: Episodic) -> click.Command:
    def run(
        bot: str,
        games: int,
        seed: int,
        jobs: int | None,
        executor: str,
        address: str | None,
        json_path: Path | None,
        plot: Path | None,
        weights_path: Path | None,
        max_actions: int | None,
        quiet: bool,
        output_format: str,
        **kwargs: Any,
    ) -> None:
        config = split_config(game, kwargs)
        weights = load_weights(weights_path, game, bot) if weights_path else None
        template = check_start(game, bot, config, weights, seed)
        seeds = range(seed, seed + games)
        if seeds[-1] > MAX_SEED:
            raise ConfigError(f"--seed {seed} with --games {games:,} runs past the last seed, {MAX_SEED}")
        head = {
            "game": game.name,
            "bot": bot,
            "config": config,
            "seeds": [seed, games],
            "weights": weights,
            "max_actions": max_actions,
        }
        progress_file = beside(json_path, ".partial") if json_path else None
        done = (
            read_progress(progress_file, head, seeds, lambda value, where: check_result(value, template, where))
            if progress_file
            else {}
        )
        from ..core.batch import evaluate  # here, not at the top: --help imports no process pool

        with progress_log(progress_file, head, resumed=bool(done)) as keep:
            results = evaluate(
                game.name,
                bot,
                seeds,
                config,
                weights,
                jobs=jobs,
                executor=executor,
                address=address,
                max_actions=max_actions,
                progress=not quiet,
                done=done,
                on_result=keep,
            )
        summary = game.summarize(results)
        doc = {
            "game": game.name,
            "bot": bot,
            "config": config,
            "weights": weights,
            "games": results,
            "summary": summary,
        }
        if output_format == "json":
            Console().print_json(json.dumps({"game": game.name, "bot": bot, "games": games, "summary": summary}))
        else:
            title = f"{game.title}: {bot}, {games:,} games from seed {seed}"
            print_fitted(Console(), summary_table(title, summary, dict(game.summary_notes)))
        if json_path is not None:
            write_json_atomic(json_path, doc)
            if progress_file is not None:
                with suppress(OSError):  # a name someone else took meanwhile is theirs to clear
                    progress_file.unlink()
        if plot is not None:
            values, label, note = plotted(game, results, config)
            plot_histogram(plot, values, label, f"{game.title}: {bot}, {games:,} games from seed {seed}", note)

    options = stats_options(game)
    return click.command(game.name, help=f"Play N seeded {game.title} games and summarize them.")(
        with_options(options, run)
    )


def stats_options(game: Episodic) -> list[Callable[[Any], Any]]:
    """The options of ``stats`` for ``game``: the bot, the games and seeds, where it runs, its outputs."""
    return [
        bot_option(game),
        defaulted_option(
            "--games",
            click.IntRange(1, MAX_GAMES),
            100,
            f"Number of games (at most {MAX_GAMES:,}: every result is kept until the summary).",
        ),
        seed_option("First seed: the games use it and the seeds after it (the same seeds give the same games)."),
        executor_options,
        json_option("Write every game's result and the summary here. An interrupted run resumes."),
        plot_option("Histogram of the main figure"),
        click.option(
            "--weights",
            "weights_path",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="Weights file (from `train`) instead of the shipped defaults.",
        ),
        max_actions_option("Stop each game after this many decisions."),
        quiet_option,
        click.option(
            "--format",
            "output_format",
            type=click.Choice(["table", "json"]),
            default="table",
            show_default=True,
            help="How the summary is printed: a table, or JSON for other programs.",
        ),
        *game_option_decorators(game),
    ]


stats = PerGame(
    "stats",
    factory=make_stats,
    help="Play N seeded games with a bot and summarize them (a table; JSON and a plot on request).",
)
cli.add_command(stats)


# --------------------------------------------------------------------------- watch


def make_watch(game: Episodic) -> click.Command:
    def run(
        bot: str,
        seed: int,
        delay: float,
        max_actions: int | None,
        replay_path: Path | None,
        weights_path: Path | None,
        hash_every: int,
        **kwargs: Any,
    ) -> None:
        if replay_path is None:
            refuse_given(click.get_current_context(), ["hash_every"], "is for the replay file: give it with --replay")
        view = capability(game, TerminalView)
        config = split_config(game, kwargs)
        weights = load_weights(weights_path, game, bot) if weights_path else None
        check_start(game, bot, config, weights, seed)
        console = Console()
        with live_view(console) as draw:

            def show(state: Any, b: Any, action: Any) -> None:
                draw(Group(view.render(state, b), Text(f"{game.name} / {bot} / seed {seed}")))
                if delay:
                    time.sleep(delay)

            if replay_path is not None:  # a replay holds so many actions at most: the game stops there
                max_actions = min(max_actions or MAX_REPLAY_ACTIONS, MAX_REPLAY_ACTIONS)
            episode = play_episode(
                game,
                bot,
                seed,
                config,
                weights,
                record=replay_path is not None,
                hash_every=hash_every,
                max_actions=max_actions,
                on_step=show,
            )
        console.print_json(json.dumps(episode.result))
        if replay_path is not None:
            write_replay(replay_path, episode, game.rules_version, hash_every)
            console.print(f"replay written to {replay_path}", soft_wrap=True)  # a path is never wrapped

    options = [
        bot_option(game),
        seed_option("Which game: the same seed always deals the same pieces."),
        click.option("--delay", type=DELAY, default=0.05, show_default=True, help="Seconds between decisions (0-60)."),
        max_actions_option("Stop after this many decisions."),
        click.option(
            "--replay",
            "replay_path",
            type=OutputPath(),
            default=None,
            help=f"Also save the game as a replay file (which stops the game after {MAX_REPLAY_ACTIONS:,} "
            "decisions, the most a replay holds).",
        ),
        click.option(
            "--weights",
            "weights_path",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help="Weights file instead of the shipped defaults.",
        ),
        defaulted_option(
            "--hash-every",
            click.IntRange(min=1),
            10,
            "With --replay: write a state hash every N actions (a replay checks them when re-run).",
        ),
        *game_option_decorators(game),
    ]
    return click.command(game.name, help=f"Watch a bot play {game.title} live.")(with_options(options, run))


cli.add_command(PerGame("watch", factory=make_watch, help="Watch a bot play, live in the terminal."))


# --------------------------------------------------------------------------- train


def make_train(game: Episodic) -> click.Command:
    from ..core.tuning import TrainSettings, train, tuned_names  # numpy and cma: loaded for train only

    def run(
        bot: str,
        method: str,
        games_per_eval: int,
        generations: int,
        out: Path,
        resume: bool,
        seed: int,
        jobs: int | None,
        executor: str,
        address: str | None,
        variants: int,
        rounds: int,
        sigma: float,
        popsize: int,
        init: str,
        plot: Path | None,
        max_actions: int | None,
        opponent: str | None,
        quiet: bool,
        force: bool,
        **kwargs: Any,
    ) -> None:
        check_train_options(method, games_per_eval, variants, popsize)
        config = split_config(game, kwargs)
        game.bot_info(bot)
        if opponent is None:
            check_start(game, bot, config, None, seed)
            defaults = game.default_weights(bot) if init == "default" else None
        else:
            defaults = None
            unread = set(config_mod.unread_keys(game.config_schema, bot))
            for name in opponent.split(","):
                game.bot_info(name)
                unread &= set(config_mod.unread_keys(game.config_schema, name))
            refuse_given(
                click.get_current_context(),
                ["config__" + k for k in sorted(unread)],
                f"has no effect with --bot {bot} --opponent {opponent}",
            )
            refuse_given(
                click.get_current_context(),
                ["config__" + p.name for p in capability(game, Versus).tuned_parameters(bot)],
                "is what --opponent tunes: each candidate sets it (--init default starts from the shipped value)",
            )
        settings = TrainSettings(
            game.name,
            bot,
            method,
            games_per_eval,
            generations,
            seed,
            variants,
            rounds,
            sigma,
            popsize,
            init,
            config,
            max_actions,
            opponent,
        )
        console = Console(stderr=True)

        cap = fitness_cap(game, config) if opponent is None else None

        def report(state: Any) -> None:
            if opponent is not None:
                console.print(
                    f"generation {state.generation}/{generations}: {state.rating:.1%} of the points against {opponent}"
                )
                return
            capped = (
                ""
                if cap is None
                else f" (capped at {cap:,g}" + (": every game reached it)" if state.rating >= cap else ")")
            )
            console.print(
                f"generation {state.generation}/{generations}: "
                f"mean {game.fitness_label} {state.rating:,.1f} per game{capped}"
            )

        state = train(
            settings,
            out,
            resume=resume,
            force=force,
            jobs=jobs,
            executor=executor,
            address=address,
            progress=not quiet,
            defaults=defaults,
            on_generation=report,
        )
        table = {n: round(w, 5) for n, w in zip(tuned_names(settings), state.weights, strict=True)}
        Console().print_json(json.dumps({"generations": state.generation, "rating": state.rating, "weights": table}))
        if plot is not None:
            label = game.fitness_label if opponent is None else f"points per game against {opponent}"
            plot_learning_curve(plot, state.history, f"{game.title}: {bot}, {method}", label)

    options = train_options(game)
    return click.command(game.name, help=f"Tune a {game.title} bot's weights.")(with_options(options, run))


def train_options(game: Episodic) -> list[Callable[[Any], Any]]:
    """The options of ``train`` for ``game``: the bot, the method and its settings, the output files."""
    from ..core.tuning import MAX_SIGMA, METHODS, TRAINING_SEEDS

    tunable = [b.name for b in game.bots() if b.weight_names]
    versus = [b.name for b in game.bots() if isinstance(game, Versus) and game.tuned_parameters(b.name)]
    return [
        click.option(
            "--bot",
            default=tunable[0] if tunable else None,
            show_default=True,
            help=f"Bot whose weights to tune: {', '.join(tunable) or 'none'}"
            + (f"; with --opponent: {', '.join(versus)}." if versus else "."),
        ),
        choice_option("--method", METHODS, "hill", "hill: the Hatris article's hill climber; cma: CMA-ES."),
        defaulted_option(
            "--games-per-eval",
            click.IntRange(1, TRAINING_SEEDS),
            8,
            "Games each candidate set of weights is rated on (the same seeds for every candidate, drawn "
            "each generation from seeds 0-9,999, which strength figures never use).",
        ),
        defaulted_option(
            "--generations", click.IntRange(min=1), 10, "Rounds of improvement; the weights file is written after each."
        ),
        click.option(
            "--out",
            type=OutputPath(),
            required=True,
            help="Weights file written after every generation (checkpoint beside it: OUT.ckpt).",
        ),
        click.option(
            "--resume",
            is_flag=True,
            help="Continue from OUT.ckpt (made with the same settings; --generations may grow).",
        ),
        click.option("--force", is_flag=True, help="Start over even if OUT or OUT.ckpt exists (both are replaced)."),
        seed_option("First seed of the rating games (keep tuning seeds apart from the ones you report)."),
        executor_options,
        defaulted_option(
            "--variants", click.IntRange(min=1), 8, "hill only: changed copies of the weights tried in each round."
        ),
        defaulted_option(
            "--rounds", click.IntRange(min=1), 4, "hill only: rounds of trying variants in each generation."
        ),
        defaulted_option(
            "--sigma",
            FiniteFloat(min=0, max=MAX_SIGMA, min_open=True),
            0.3,
            "How far a change goes (hill: spread of the random factor each weight is multiplied by; "
            "cma: the starting step size).",
        ),
        click.option(
            "--popsize",
            type=click.IntRange(min=0),
            default=0,
            help="cma only: candidates per generation, at least 2 (0: CMA-ES's own default).",
        ),
        choice_option(
            "--init", ["random", "default"], "random", "Start from random weights (as the article) or the shipped ones."
        ),
        plot_option("Learning curve"),
        max_actions_option("Cap each rating game at this many decisions (a versus game: turns each, then a draw)."),
        click.option(
            "--opponent",
            default=None,
            callback=bot_list,
            help="Tune against this bot instead: rate each candidate by its points in game pairs (one seed, sides "
            "swapped, as `match` plays them) and tune the bot's parameters, not its weights; --games-per-eval "
            "then counts pairs; the tuned bot's own name plays its shipped settings; several bots, comma-separated, "
            "each play the same seeds"
            + (f" (versus tuning: {', '.join(versus)})." if versus else "; this game has no versus play."),
        ),
        quiet_option,
        *game_option_decorators(game),
    ]


cli.add_command(PerGame("train", factory=make_train, help="Tune a bot's evaluation weights (hill climbing, CMA-ES)."))


def bot_list(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--opponent``: one bot or several, comma-separated, each named once; given back comma-joined."""
    if value is None:
        return None
    names = [n.strip() for n in value.split(",")]
    if not all(names) or len(set(names)) != len(names):
        raise click.BadParameter(f"takes bot names like duelist,krieg3, each once, got {value[:60]!r}")
    return ",".join(names)


def check_train_options(method: str, games_per_eval: int, variants: int, popsize: int) -> None:
    """Refuse options of the other method, a population cma cannot use, and batches too large to hold."""
    ctx = click.get_current_context()
    if method == "hill":
        refuse_given(ctx, ["popsize"], "is for --method cma only")
        batch = variants * games_per_eval
    else:
        refuse_given(ctx, ["variants", "rounds"], "is for --method hill only")
        if popsize == 1:
            raise ConfigError("--popsize 1: CMA-ES needs a population of at least 2 (0: its default)")
        batch = popsize * games_per_eval
    if batch > MAX_GAMES:
        raise ConfigError(
            f"one round would rate {batch:,} games (candidates x --games-per-eval); the most is {MAX_GAMES:,}"
        )


# --------------------------------------------------------------------------- replay


@cli.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--show/--no-show", default=True, show_default=True, help="Draw the game as it re-runs.")
@click.option(
    "--delay",
    type=DELAY,
    default=0.05,
    show_default=True,
    help="Seconds between actions when shown (0-60; 0: as fast as possible).",
)
def replay_cmd(file: Path, show: bool, delay: float) -> None:
    """Re-run a replay file, show it, and report the first diverging state hash."""
    if not show:
        refuse_given(click.get_current_context(), ["delay"], "is for showing the game: leave out --no-show")
    rep = read_replay(file)
    view = capability(get_game(rep.header["game"]), TerminalView)
    console = Console()
    if show:
        with live_view(console) as draw:

            def step(state: Any, n: int) -> None:
                draw(Group(view.render(state), Text(f"{file.name}: action {n}/{rep.length}")))
                if delay:
                    time.sleep(delay)

            check = check_replay(rep, step)
    else:
        check = check_replay(rep)
    if not check.ok:
        assert check.divergence is not None
        n, want, got = check.divergence
        raise InputError(f"{rep.name} diverges after action {n}: recorded hash {want}, engine gives {got}")
    console.print(f"{rep.name}: {check.actions} actions, {check.checked_hashes} hashes match", soft_wrap=True)
    console.print_json(json.dumps(check.result))


# --------------------------------------------------------------------------- versus


def versus_command(game: Game) -> click.Command | None:
    """The ``versus`` command among the game's own commands (``Commands``), if it has one."""
    if not isinstance(game, Commands):
        return None
    return next((c for c in game.extra_commands() if c.name == "versus"), None)


class VersusGroup(GameDispatch):
    """``puzzlebots versus GAME ...``: the game's own ``versus`` command, where it has one."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [g.name for g in loadable_games() if versus_command(g) is not None]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = versus_command(get_game(cmd_name))
        if cmd is None:
            have = ", ".join(self.list_commands(ctx)) or "none"
            raise ConfigError(f"{cmd_name} has no versus mode (games with one: {have})")
        return cmd


cli.add_command(VersusGroup("versus", help="Bot against bot, for the games with a versus mode of their own."))


# --------------------------------------------------------------------------- bench


def benchmarks_dir() -> Path:
    """The benchmarks/ folder of the checkout this package is imported from (``src/puzzlebots`` beside it).

    Found from the package's own location, never from the working directory, so that a ``benchmarks/`` folder
    planted where the command runs is never run. An installed package has none (they are not shipped).
    """
    package = Path(__file__).resolve().parents[1]
    root = package.parents[1]
    folder = root / "benchmarks"
    if package != root / "src" / "puzzlebots" or not (root / "pyproject.toml").is_file() or not folder.is_dir():
        raise InputError(
            f"no benchmarks beside this puzzlebots ({short_name(package)}): they ship with the source checkout only"
        )
    return folder


@cli.command("bench")
@click.argument("names", nargs=-1)
@click.option("--quick", is_flag=True, help="Seconds instead of minutes: smaller samples.")
def bench_cmd(names: tuple[str, ...], quick: bool) -> None:
    """Run the benchmarks (all, or those named by their file, bench_<name>.py) and print their tables."""
    import importlib.util

    folder = benchmarks_dir()
    files = sorted(folder.glob("bench_*.py"))
    known = {f.stem[len("bench_") :]: f for f in files}
    for n in names:
        if n not in known:
            raise ConfigError(f"unknown benchmark {n!r} (have: {', '.join(known)})")
    for name, path in known.items():
        if names and name not in names:
            continue
        spec = importlib.util.spec_from_file_location(f"puzzlebots_bench_{name}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # so worker processes can unpickle the benchmark's functions
        spec.loader.exec_module(module)
        Console().rule(f"benchmark: {name}")
        module.main(quick=quick)


# --------------------------------------------------------------------------- serve


@cli.command(
    "serve", add_help_option=False, context_settings={"ignore_unknown_options": True, "allow_extra_args": True}
)
@click.pass_context
def serve_cmd(ctx: click.Context) -> None:
    """The local web viewer and player (needs the [web] extra). See `puzzlebots serve --help`."""
    try:
        from ..web.cli import serve
    except ImportError as exc:
        raise ConfigError(f"puzzlebots serve needs the [web] extra ({exc})") from exc
    serve.main(ctx.args, prog_name="puzzlebots serve", standalone_mode=False)
