"""The ``cargobot`` commands that run programs and search scripts: ``run`` (a program in either semantics, on a
level or a board of one's own), ``climb`` (the Ruby hill climber). ``cli`` mounts them with
the others.

Bad input raises ``PuzzlebotsError``; the top-level ``puzzlebots`` group turns it into one ``error: ...`` line on
stderr and exit code 2.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.progress import Progress

from puzzlebots.command_parts.options import DELAY, SEED, defaulted_option, refuse_given
from puzzlebots.command_parts.terminal import live_view
from puzzlebots.core.errors import InputError

from . import engine
from .bots.climb import climb as run_climb
from .engine import GAME_TICK_LIMIT, HEIGHT_LIMIT, SEMANTICS, Rules, Start, run_level
from .language import parse_registers, register_count
from .levels import Level, board_from_json, find_level, load_levels
from .render import board_panel, trace_run
from .rules import DEFAULT_FUNCTIONS

#: bounds of ``run``'s numbers: far beyond any level, and within what the kernels' integers hold
MAX_PILES = 1_000
MAX_HEIGHT = 1_000_000
LEVELS_FILE = click.option(
    "--levels-file", type=click.Path(dir_okay=False), default=None, help="A levels JSON file (default: packaged)."
)


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def semantics_option(
    default: str, vaguery: str = "the looser rules of Bill Tozier's Ruby emulator (the article's)"
) -> Decorator:
    """``--semantics``, as every command that runs programs names the two rule sets."""
    return click.option(
        "--semantics",
        type=click.Choice(SEMANTICS),
        default=default,
        show_default=True,
        help=f"game: the iPad game's rules; vaguery: {vaguery}.",
    )


def step_limit_option(default: int | None, help: str) -> Decorator:
    """``--step-limit`` of the searches: the length of one run of a program."""
    return click.option(
        "--step-limit", type=click.IntRange(1, GAME_TICK_LIMIT), default=default, show_default=True, help=help
    )


def search_run_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """climb's options for the length of one run of a script, JSON output and the levels file."""
    command = LEVELS_FILE(command)
    command = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(command)
    return step_limit_option(200, "Most steps (vaguery) or ticks (game) of one run of a script.")(command)


@click.command(help="Run a program on a level (or on --stacks/--goal/--claw) and report the outcome.")
@click.option("--level", "level_name", default=None, help="Level name, e.g. 'Inverter' or 'easy 3'.")
@click.option("--program", required=True, help="Script syntax (R L claw callN[_cond], prog_N) or JSON list form.")
@semantics_option("game")
@click.option("--stacks", default=None, help="Start board as JSON, e.g. '[[\"red\"],[]]' (without --level).")
@click.option("--goal", default=None, help="Goal board as JSON (without --level).")
@defaulted_option("--claw", click.IntRange(1, MAX_PILES), 1, "1-based start pile (without --level).")
@click.option("--fragile", is_flag=True, help="With --semantics vaguery: a wall crash ends the run.")
@click.option("--unstable", is_flag=True, help="With --semantics vaguery: a topple ends the run.")
@defaulted_option(
    "--height-limit",
    click.IntRange(0, MAX_HEIGHT),
    HEIGHT_LIMIT,
    "With --semantics vaguery: a pile taller than this topples.",
)
@click.option(
    "--step-limit",
    type=click.IntRange(0, GAME_TICK_LIMIT),
    default=None,
    help="Most steps (--semantics vaguery, default 200) or ticks (game, default and most 10^7); 0: the default.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--watch", is_flag=True, help="Animate the claw in the terminal.")
@click.option("--delay", type=DELAY, default=0.15, show_default=True, help="--watch: seconds per step (0-60).")
@LEVELS_FILE
def run(
    level_name: str | None,
    program: str,
    semantics: str,
    stacks: str | None,
    goal: str | None,
    claw: int,
    fragile: bool,
    unstable: bool,
    height_limit: int,
    step_limit: int | None,
    as_json: bool,
    watch: bool,
    delay: float,
    levels_file: str | None,
) -> None:
    ctx = click.get_current_context()
    if semantics == "game":
        refuse_given(ctx, ["fragile", "unstable", "height_limit"], "is for --semantics vaguery only")
    if not watch:
        refuse_given(ctx, ["delay"], "is for --watch only")
    if level_name:
        refuse_given(ctx, ["stacks", "goal", "claw"], "sets up a board of your own: leave out --level")
    rules = Rules(semantics, fragile=fragile, unstable=unstable, height_limit=height_limit, step_limit=step_limit)
    level = find_level(level_name, load_levels(levels_file)) if level_name else None
    target: list[list[str]] | None
    if level is not None:
        report = run_level(level, program, rules)
        start, target, claw = level.board(), level.goal_board(), level.claw
    else:
        if stacks is None:
            raise InputError("give --level NAME, or a board with --stacks (and --goal)")
        start = board_from_json(stacks, "--stacks")
        target = board_from_json(goal, "--goal") if goal else None
        report = engine.run(rules, program, start, target, claw)
    stars = None if level is None else rules.model.stars(level, program, report)
    if watch:
        functions = level.functions if level else DEFAULT_FUNCTIONS
        _watch(program, rules, Start(start, target, claw, functions), delay)
    registers = None if stars is None else register_count(parse_registers(program))
    data = report.to_json() | {"stars": stars, "registers": registers}
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(
        f"{report.outcome}: {report.steps} {rules.model.count}, {report.moves} moves, {report.crashes} crashes, "
        f"{report.topples} topples, claw {report.claw}, holding {report.holding or '-'}"
        + (f", {level.rating(parse_registers(program))}" if stars and level is not None else "")
    )
    click.echo(f"final stacks: {json.dumps(report.stacks)}")


def _watch(program: str, rules: Rules, start: Start, delay: float) -> None:
    console = Console()
    with live_view(console) as draw:
        for frame in trace_run(program, rules, start):
            draw(board_panel(frame, start.goal))
            time.sleep(delay)
    console.print()


@click.command(help="The Ruby example's hill climber on a level.")
@click.option("--level", "level_name", required=True, help="Level name.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the climber's random changes.")
@semantics_option("vaguery")
@click.option(
    "--max-iterations", type=click.IntRange(min=1), default=100_000, show_default=True, help="Most scripts to try."
)
@defaulted_option(
    "--stop-after",
    click.IntRange(min=1),
    21,
    "Stop after this many distinct solving scripts (the Ruby stops after more than 20).",
)
@search_run_options
def climb(
    level_name: str,
    seed: int,
    semantics: str,
    max_iterations: int,
    stop_after: int,
    step_limit: int,
    as_json: bool,
    levels_file: str | None,
) -> None:
    level = find_level(level_name, load_levels(levels_file))
    _report_search(
        "climbing",
        level,
        max_iterations,
        as_json,
        lambda tick: run_climb(level, seed, semantics, max_iterations, stop_after, step_limit, progress=tick),
        lambda r: f"{r.iterations} iterations ({r.solutions} solving scripts)",
    )


def _report_search(
    what: str,
    level: Level,
    total: int,
    as_json: bool,
    search: Callable[[Callable[[int], None]], Any],
    done: Callable[[Any], str],
) -> None:
    """Run a script search (climb, evolve) under a progress bar; print its result, or one JSON object."""
    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{what} {level.name}", total=total)
        result = search(lambda k: progress.advance(task, k))
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    state = "solved" if result.solved else "not solved"
    click.echo(f"{level.name}: {state} after {done(result)}")
    click.echo(f"script: {result.script}")
    click.echo(f"score (rebuild, crashes, topples): {list(result.score)}")
