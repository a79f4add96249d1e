"""The ``cargobot`` commands: ``levels``, ``run``, ``solve``, ``sketch``, ``climb``, ``evolve`` (mounted as
``puzzlebots cargobot``).

Bad input raises ``PuzzlebotsError``; the top-level ``puzzlebots`` group turns it into one ``error: ...`` line on
stderr and exit code 2.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.live import Live
from rich.progress import Progress
from rich.table import Table

from puzzlebots.cli.options import DELAY, MAX_SECONDS, SEED, FiniteFloat, executor_options, refuse_given
from puzzlebots.cli.output import OutputPath, write_json_atomic
from puzzlebots.core.batch import default_jobs
from puzzlebots.core.errors import InputError
from puzzlebots.core.files import beside
from puzzlebots.core.jsonio import name_of

from . import engine
from .bots.climb import climb as run_climb
from .bots.drivers import DriverSketch, sub_searches
from .bots.evolve import check_options as check_evolve_options
from .bots.evolve import evolve as run_evolve
from .bots.hints import NO_HINTS, Hints, board_hints, parse_hints
from .bots.sketch import ITERATIONS as SKETCH_ITERATIONS
from .bots.sketch import MAX_SECONDS as SKETCH_MAX_SECONDS
from .bots.sketch import MAX_TICK_CAP as SKETCH_MAX_TICK_CAP
from .bots.sketch import TICK_CAP as SKETCH_TICK_CAP
from .bots.sketch import sketch as run_sketch
from .bots.solve import DEFAULT_TICK_CAP, SolveResult, adopt, prepare, recorded
from .bots.solve import solve as run_solve
from .bots.sweep import Sweep, compose, sweeps
from .engine import GAME_TICK_LIMIT, HEIGHT_LIMIT, SEMANTICS, run_level
from .language import format_registers, parse_registers
from .levels import Level, board_from_json, find_level, load_levels
from .progress import ProgressFile
from .progress import load as load_progress
from .render import board_panel, trace_run
from .rules import DEFAULT_FUNCTIONS, PACKS
from .verify import play_out

#: bounds of ``run``'s numbers: far beyond any level, and within what the kernels' integers hold
MAX_PILES = 1_000
MAX_HEIGHT = 1_000_000
LEVELS_FILE = click.option(
    "--levels-file", type=click.Path(dir_okay=False), default=None, help="A levels JSON file (default: packaged)."
)


def search_run_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options climb and evolve share: the length of one run of a script, JSON output, the levels file."""
    command = LEVELS_FILE(command)
    command = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(command)
    return click.option("--step-limit", type=click.IntRange(1, GAME_TICK_LIMIT), default=200, show_default=True,
                        help="Most steps (vaguery) or ticks (game) of one run of a script.")(command)


@click.command(help="The table of levels.")
@LEVELS_FILE
@click.option("--json", "as_json", is_flag=True, help="Print the levels as JSON.")
def levels(levels_file: str | None, as_json: bool) -> None:
    rows = load_levels(levels_file)
    if as_json:
        click.echo(json.dumps([_level_row(lv) for lv in rows], indent=1))
        return
    table = Table(title="Cargo-Bot levels")
    for col in ("pack", "#", "level", "claw", "piles", "crates", "conditions", "functions", "stars a,b,c", "best"):
        table.add_column(col)
    for lv in rows:
        r = _level_row(lv)
        table.add_row(
            lv.pack, str(lv.number or ""), lv.name, str(lv.claw),
            f"{r['piles']}" + (f" (board 1 of {r['boards']})" if r["boards"] > 1 else ""), str(r["crates"]),
            ",".join(lv.conditions) or "-", "/".join(map(str, lv.functions)), ",".join(map(str, lv.stars)),
            str(lv.best_known or "-"),
        )  # fmt: skip
    Console().print(table)


def _level_row(lv: Level) -> dict[str, Any]:
    return {
        "pack": lv.pack, "number": lv.number, "name": lv.name, "claw": lv.claw, "piles": len(lv.stacks),
        "crates": sum(map(len, lv.stacks)), "conditions": list(lv.conditions), "functions": list(lv.functions),
        "stars": list(lv.stars), "best_known": lv.best_known, "boards": len(lv.boards()),
    }  # fmt: skip


@click.command(help="Run a program on a level (or on --stacks/--goal/--claw) and report the outcome.")
@click.option("--level", "level_name", default=None, help="Level name, e.g. 'Inverter' or 'easy 3'.")
@click.option("--program", required=True, help="Script syntax (R L claw callN[_cond], prog_N) or JSON list form.")
@click.option("--semantics", type=click.Choice(SEMANTICS), default="game", show_default=True,
              help="game: the iPad game's rules; vaguery: the looser rules of Bill Tozier's Ruby emulator "
              "(the article's).")  # fmt: skip
@click.option("--stacks", default=None, help="Start board as JSON, e.g. '[[\"red\"],[]]' (without --level).")
@click.option("--goal", default=None, help="Goal board as JSON (without --level).")
@click.option("--claw", type=click.IntRange(1, MAX_PILES), default=1, show_default=True,
              help="1-based start pile (without --level).")  # fmt: skip
@click.option("--fragile", is_flag=True, help="With --semantics vaguery: a wall crash ends the run.")
@click.option("--unstable", is_flag=True, help="With --semantics vaguery: a topple ends the run.")
@click.option("--height-limit", type=click.IntRange(0, MAX_HEIGHT), default=HEIGHT_LIMIT, show_default=True,
              help="With --semantics vaguery: a pile taller than this topples.")  # fmt: skip
@click.option("--step-limit", type=click.IntRange(0, GAME_TICK_LIMIT), default=None,
              help="Most steps (--semantics vaguery, default 200) or ticks (game, default and most 10^7); "
              "0: the default.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--watch", is_flag=True, help="Animate the claw in the terminal.")
@click.option("--delay", type=DELAY, default=0.15, show_default=True, help="--watch: seconds per step (0-60).")
@LEVELS_FILE
def run(
    level_name: str | None, program: str, semantics: str, stacks: str | None, goal: str | None, claw: int,
    fragile: bool, unstable: bool, height_limit: int, step_limit: int | None, as_json: bool, watch: bool,
    delay: float, levels_file: str | None,
) -> None:  # fmt: skip
    ctx = click.get_current_context()
    if semantics == "game":
        refuse_given(ctx, ["fragile", "unstable", "height_limit"], "is for --semantics vaguery only")
    if not watch:
        refuse_given(ctx, ["delay"], "is for --watch only")
    if level_name:
        refuse_given(ctx, ["stacks", "goal", "claw"], "sets up a board of your own: leave out --level")
    level = find_level(level_name, load_levels(levels_file)) if level_name else None
    target: list[list[str]] | None
    if level is not None:
        report = run_level(
            level, program, semantics, fragile=fragile, unstable=unstable, height_limit=height_limit,
            step_limit=step_limit,
        )  # fmt: skip
        start, target, claw, stars = level.board(), level.goal_board(), level.claw, None
        if semantics == "game" and report.solved:
            stars = level.stars_for(parse_registers(program))
    else:
        if stacks is None:
            raise InputError("give --level NAME, or a board with --stacks (and --goal)")
        start = board_from_json(stacks, "--stacks")
        target = board_from_json(goal, "--goal") if goal else None
        stars = None
        report = engine.run(
            semantics, program, start, target, claw, fragile=fragile, unstable=unstable,
            height_limit=height_limit, step_limit=step_limit,
        )  # fmt: skip
    if watch:
        functions = level.functions if level else DEFAULT_FUNCTIONS
        _watch(program, semantics, start, target, claw, functions, fragile, unstable, height_limit, step_limit, delay)
    data = report.to_json() | {"stars": stars}
    if as_json:
        click.echo(json.dumps(data))
        return
    count = "ticks" if semantics == "game" else "steps"
    click.echo(
        f"{report.outcome}: {report.steps} {count}, {report.moves} moves, {report.crashes} crashes, "
        f"{report.topples} topples, claw {report.claw}, holding {report.holding or '-'}"
        + (f", {stars} stars" if stars else "")
    )
    click.echo(f"final stacks: {json.dumps(report.stacks)}")


def _watch(
    program: str, semantics: str, start: list[list[str]], target: list[list[str]] | None, claw: int,
    functions: tuple[int, ...], fragile: bool, unstable: bool, height_limit: int, step_limit: int | None,
    delay: float,
) -> None:  # fmt: skip
    console = Console()
    with Live(console=console, refresh_per_second=30, transient=False) as live:
        for frame in trace_run(
            program, semantics, start, target, claw, fragile=fragile, unstable=unstable,
            height_limit=height_limit, step_limit=step_limit, functions=functions,
        ):  # fmt: skip
            live.update(board_panel(frame, target))
            time.sleep(delay)
    console.print()


CORE_PACKS = PACKS[:4]  # Tutorial to Hard
#: default --total-time of ``solve --all``: the whole run fits in an hour
ALL_LEVELS_SECONDS = 3600.0
#: under --total-time, a level whose best known program is larger than this gets a quarter share
LIKELY_SIZE = 10
#: seconds kept back under --total-time for each level still to run (starting its pool, the last task's overrun)
LEVEL_OVERHEAD = 2.0
#: the limit of a level reached when the total time is spent: it reports its record without searching
NO_TIME = 1e-3
#: a further pass over the open levels (``_finished``) starts only if the time left gives each this many seconds
PASS_SECONDS = 5.0
#: default --sketch-share: half of a level's time beyond Tutorial-Hard goes to sketches if the exhaustive
#: search has not found a program in the first half
SKETCH_SHARE = 0.5
#: the first turn of each sweep sub-problem's and driver sketch's search, in seconds; every round doubles it
SWEEP_TURN = 20.0


@click.command(help="Find a smallest program for a level (game semantics) by exhaustive search; beyond Tutorial-Hard, "
               "searches that do not prove their programs smallest (sweep sub-problems, driver sketches, board "
               "rules, program sketches) take over when the exhaustive one runs out of time.")
@click.option("--level", "level_name", default=None, help="Level name.")
@click.option("--all", "all_levels", is_flag=True, help="Every level of the levels file.")
@executor_options
@click.option("--time-limit", type=FiniteFloat(min=0, max=MAX_SECONDS), default=600.0, show_default=True,
              help="Seconds per level (0: none); under --total-time, per level and pass.")  # fmt: skip
@click.option(
    "--total-time",
    type=FiniteFloat(min=1, max=MAX_SECONDS),
    default=None,
    help=f"Seconds for the whole run (default with --all: {ALL_LEVELS_SECONDS:.0f}): Tutorial-Hard levels get "
    "--time-limit, the others share what is left (a quarter share where the best known program has more than "
    f"{LIKELY_SIZE} registers), and the run ends within it. Time left after every level had its share goes to "
    "the unsolved ones (and those a sketch or sweep solved above their best known size) in further passes, "
    "each going on where it stopped.",
)
@click.option("--max-size", type=click.IntRange(min=1), default=None, help="Largest register budget to try.")
@click.option("--tick-cap", type=click.IntRange(1, GAME_TICK_LIMIT), default=DEFAULT_TICK_CAP, show_default=True,
              help="Most ticks of one run of a candidate program.")  # fmt: skip
@click.option("--json", "json_file", type=OutputPath(), default=None, help="Write the results here.")
@click.option("--progress", "progress_file", type=OutputPath(), default=None,
              help="Keep the search's progress here, to --resume it (default with --json: FILE.progress).")
@click.option("--resume", is_flag=True, help="Go on from the progress file: finished sizes and levels are not redone.")
@click.option("--sketch-share", type=FiniteFloat(min=0, max=0.9), default=SKETCH_SHARE, show_default=True,
              help="Part of a level's time (beyond Tutorial-Hard) kept, when the exhaustive search runs out of time, "
              "for searches that find programs without proving them smallest: through the level's sweep "
              "sub-problems and driver sketches where it has them, else under rules read off the board at the best "
              "known size, then over program sketches (0: off).")
@click.option("--shape", default=None, help="Hint (with --level): at most so many registers per function, F1 first, "
              "no function past them, e.g. 8,4.")  # fmt: skip
@click.option("--pile-rules", default=None, help="Hint (with --level): one rule per pile, e.g. 'I G I- G+ I-': the "
              "pile stays a bottom part of its start (I) or goal (G) pile, is only taken from (-) or only put on (+); "
              "'.' for none.")  # fmt: skip
@click.option("--min-ops", default=None, help="Hint (with --level): registers of an op every solution is taken to "
              "hold, e.g. right=2,left=2,pickup=2.")  # fmt: skip
@click.option("--fix", default=None, help="Hint (with --level): functions given whole, in script syntax; the search "
              "builds the others, e.g. 'call2 R call1' (F1) or 'prog_2 claw L_none claw R' (F2).")  # fmt: skip
@click.option("--board-rules", is_flag=True, help="With --level: only the search under the rules read off the board, "
              "at the level's best known size (what --all runs when the exhaustive search leaves a level open).")
@click.option("--sweeps", "sweeps_only", is_flag=True, help="With --level: only the search through the level's sweep "
              "sub-problems and driver sketches, for --time-limit (0: no limit), going on from their records with "
              "--resume.")
@LEVELS_FILE
def solve(
    level_name: str | None, all_levels: bool, jobs: int | None, executor: str, address: str | None,
    time_limit: float, total_time: float | None, max_size: int | None, tick_cap: int, json_file: Path | None,
    progress_file: Path | None, resume: bool, sketch_share: float, shape: str | None, pile_rules: str | None,
    min_ops: str | None, fix: str | None, board_rules: bool, sweeps_only: bool, levels_file: str | None,
) -> None:  # fmt: skip
    pool = load_levels(levels_file)
    if all_levels == bool(level_name):
        raise InputError("give exactly one of --level NAME and --all")
    targets = pool if all_levels else [find_level(level_name or "", pool, subproblems=True)]
    if all_levels:
        refuse_given(click.get_current_context(), ("shape", "pile_rules", "min_ops", "fix", "board_rules",
                     "sweeps_only"), "is for one level: not with --all")  # fmt: skip
    hints = parse_hints(targets[0], shape, pile_rules, min_ops, fix)
    if board_rules:
        refuse_given(click.get_current_context(), ("shape", "pile_rules", "min_ops", "fix", "max_size"), "is not for "
                     "--board-rules, which reads its hints off the board and searches the best known size")  # fmt: skip
        if targets[0].subproblem:
            raise InputError(f"--board-rules reads one board: {targets[0].name} is a sub-problem")
        hints = _board_rules(targets[0])
    if sweeps_only:
        refuse_given(click.get_current_context(), ("shape", "pile_rules", "min_ops", "fix", "max_size", "board_rules"),
                     "is not for --sweeps, which searches the sweep sub-problems")  # fmt: skip
        if not sweeps(targets[0]):
            raise InputError(f"--sweeps: {targets[0].name} has no sweep sub-problem (its piles are not set right one "
                             "after another from the claw rightwards)")  # fmt: skip
    if all_levels and total_time is None:
        total_time = ALL_LEVELS_SECONDS
    book = _progress_book(progress_file or _beside(json_file), resume, tick_cap, pool, targets,
                          NO_HINTS if board_rules else hints)  # fmt: skip
    exhaustive = partial(run_solve, jobs=jobs, max_size=max_size, tick_cap=tick_cap, executor=executor,
                         address=address, book=book, hints=hints)  # fmt: skip
    if board_rules:
        best = targets[0].best_known
        exhaustive = partial(exhaustive, book=book.ruled_book(), first=best, max_size=best)
    unrecorded: dict[str, float] = {}  # seconds of a level's unsuccessful sketch searches (not in its record)
    with Progress(transient=True) as bar:
        task = bar.add_task("solving", total=len(targets))

        def search(lv: Level, seconds: float | None, number: int) -> SolveResult:
            def show(what: str) -> None:
                bar.update(task, description=f"{'' if number == 1 else f'pass {number}: '}{lv.name}{what}")

            # a provisional level's whole share goes to its exhaustive search
            sketching = seconds is not None and lv.pack not in CORE_PACKS and max_size is None and not hints.given()
            sketching = sketching and not lv.subproblem  # (the sketch search plays one board by the game's rules)
            sketching = sketching and not _provisional(book, lv)
            share = sketch_share if sketching else 0.0
            workers = {"jobs": _sketch_jobs(jobs, executor), "executor": executor, "address": address}
            if sweeps_only:
                result = _sweeps_alone(lv, seconds, exhaustive, book, show)
            else:
                result = _search_level(lv, seconds, share, exhaustive, show, book, workers, later=number > 1)
            result = replace(result, seconds=result.seconds + unrecorded.get(lv.name, 0.0))
            unrecorded[lv.name] = result.seconds - (book.ruled if board_rules else book.levels)[lv.name].seconds
            bar.advance(task)
            return result

        def announce(number: int, levels: list[Level], room: float) -> None:
            bar.update(task, total=(bar.tasks[0].total or 0) + len(levels))
            above = sum(_provisional(book, lv) for lv in levels)
            parts = [f"{n} {what}{'s' * (n > 1)}{after}" for n, what, after in (
                (len(levels) - above, "unsolved level", ""), (above, "level", " solved above its best known size"))
                if n]  # fmt: skip
            verb = "share" if len(levels) > 1 else "gets"
            click.echo(f"pass {number}: {' and '.join(parts)} {verb} the {room:,.0f} s left", err=True)

        try:
            rows = _passes(targets, book, max_size, time_limit, total_time, search, announce)
        except KeyboardInterrupt:
            if book.path is not None:
                click.echo(f"progress saved in {book.path}: continue with --resume", err=True)
            raise
    _print_results(targets, rows, json_file)


def _board_rules(level: Level) -> Hints:
    """``--board-rules``: the hints ``solve --all`` reads off ``level``'s board (InputError if it has none)."""
    hints = board_hints(level)
    if hints is None or level.best_known is None:
        why = "no pile gets a rule" if hints is None else "it has no best known size to search"
        raise InputError(f"--board-rules: {level.name} has no board rules ({why})")
    return hints


def _print_results(targets: list[Level], rows: dict[str, tuple[SolveResult, int]], json_file: Path | None) -> None:
    """The table (one row per level, in the levels file's order), the summary line, the --json file."""
    table = Table(title="Cargo-Bot solve (game semantics)", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for col in ("level", "size", "best known", "proven minimal", "method", "pass", "searched to", "seconds",
                "program"):  # fmt: skip
        # the numbers' columns keep their longest word whole on 80 columns; the level and the program wrap
        wraps = col in ("level", "program")
        table.add_column(col, no_wrap=col == "method", overflow="fold" if wraps else "ellipsis",
                         min_width=None if wraps else max(map(len, col.split())))  # fmt: skip
    results = []
    for lv in targets:
        result, number = rows[lv.name]
        results.append(result.to_json() | {"pass": number, "pack": lv.pack, "best_known": lv.best_known})
        table.add_row(
            lv.name, str(result.size or "-"), str(lv.best_known or "-"), "yes" if result.proven_minimal else "no",
            result.method, str(number), str(result.searched_to), f"{result.seconds:.1f}", results[-1]["program"] or "-",
        )  # fmt: skip
    Console().print(table)
    solved = sum(r["solved"] for r in results)
    click.echo(f"solved {solved}/{len(results)} in {sum(r['seconds'] for r in results):.1f} s")
    if json_file is not None:
        write_json_atomic(json_file, results)


def _passes(
    targets: list[Level], book: ProgressFile, max_size: int | None, limit: float, total: float | None,
    search: Callable[[Level, float | None, int], SolveResult],
    announce: Callable[[int, list[Level], float], None] = lambda *_: None, clock: Callable[[], float] = time.monotonic,
) -> dict[str, tuple[SolveResult, int]]:  # fmt: skip
    """Pass 1 searches every level for its share (``_level_time``). Under ``total`` (and without ``max_size``),
    while time is left and levels are open (``_finished``), a further pass gives that time to them (the same
    weights, every level sharing); ``search(level, seconds, pass number)`` goes on from the level's record, so
    nothing finished is searched again. In a further pass the levels a sketch or sweep solved above their best known
    size come first: their search ends at the sketch program's size, and the time they save goes to the
    unsolved levels after them in the same pass. Each level's last result and the pass that gave it."""
    started = clock()
    rows: dict[str, tuple[SolveResult, int]] = {}
    todo, number = targets, 1
    while True:
        for k, lv in enumerate(todo):
            left = [t for t in todo[k:] if not _finished(book, t, max_size)]
            seconds = _level_time(lv, left, limit, total, clock() - started, later=number > 1)
            rows[lv.name] = (search(lv, seconds, number), number)
        number += 1
        todo = [lv for lv in targets if not _finished(book, lv, max_size)]
        todo.sort(key=lambda lv: not _provisional(book, lv))  # stable: in the levels file's order otherwise
        room = 0.0 if total is None or max_size is not None else total - (clock() - started)
        if not todo or room - LEVEL_OVERHEAD * len(todo) < PASS_SECONDS * len(todo):
            break
        announce(number, todo, room)
    return rows


def _search_level(level: Level, seconds: float | None, share: float, exhaustive: Callable[..., SolveResult],
                  show: Callable[[str], None], book: ProgressFile, workers: dict[str, Any] | None = None,
                  later: bool = False) -> SolveResult:  # fmt: skip
    """One pass over a level: the exhaustive search from its record for ``1 - share`` of ``seconds``; then, on a
    level with sweep sub-problems (``bots.sweep``), the search through them and its driver sketches
    (``bots.drivers``) for the rest (``_sweep_after``); on another, with board rules (``board_hints``) and a best
    known size, the search under them at that size (``_ruled_after``), then the sketch search (``_sketch_after``,
    on ``workers``: ``jobs``, ``executor``, ``address`` as ``solve`` got them) for what is left. In a ``later``
    pass a level whose sweeps or driver sketches are not all exhausted gives them the whole time: its exhaustive
    search stopped in pass 1 far below its best known size, and each size costs it about 17 times the one
    before, so the programs are theirs to find."""
    start = time.monotonic()
    show("")
    subs = sub_searches(level)
    if later and share and any(not _exhausted(level, sub, book) for sub in subs):
        return _sweep_after(level, _as_recorded(level, book), seconds or float("inf"), subs, exhaustive, book, show)
    result = exhaustive(level, time_limit=seconds and seconds * (1 - share), progress=lambda n: show(f": size {n}"))

    def rest() -> float:
        return (seconds or 0.0) - (time.monotonic() - start)

    if not share or result.solved or result.searched_to >= sum(level.functions):
        return result
    if subs:
        return _sweep_after(level, result, rest(), subs, exhaustive, book, show)
    ruled = board_hints(level)
    if ruled is not None and level.best_known is not None and result.searched_to < level.best_known and rest() >= 1:
        show(": board rules")
        result = _ruled_after(level, result, rest(), ruled, exhaustive, book)
    if not result.solved and rest() >= 1:
        show(": sketches")
        result = _sketch_after(level, result, min(rest(), SKETCH_MAX_SECONDS), book.tick_cap, book, **(workers or {}))
    return result


def _sweep_after(level: Level, result: SolveResult, seconds: float, subs: list[DriverSketch | Sweep],
                 exhaustive: Callable[..., SolveResult], book: ProgressFile,
                 show: Callable[[str], None]) -> SolveResult:  # fmt: skip
    """``result`` (the exhaustive search, out of time), or the level solved in ``seconds`` through its driver
    sketches (the level under a sketch's fixed functions, up to its best known size) and sweep sub-problems: each
    searched exhaustively (its own record in ``ProgressFile.sweeps``, so a later pass or a resumed run goes on
    where it stopped) in turns, each round twice as long as the one before, so the one that needs less finds
    first. The first turn is the least time a search not yet exhausted has had (at least ``SWEEP_TURN``), so
    the rounds go on doubling across passes and ``--resume`` instead of starting short again. The first program
    found (a sweep's helper behind its driver) is the level's (method ``driver`` or ``sweep``; not proven
    smallest)."""
    todo = [sub for sub in subs if not _exhausted(level, sub, book)]
    start, turn = time.monotonic(), _first_turn(todo, book)
    while todo and seconds - (time.monotonic() - start) >= 1:
        for sub in list(todo):
            left = seconds - (time.monotonic() - start)
            if left < 1:
                break
            same = [s for s in subs if type(s) is type(sub)]
            where = f": {'sweep' if isinstance(sub, Sweep) else 'driver'} {same.index(sub) + 1} of {len(same)}"
            top = _top(level, sub)
            if isinstance(sub, Sweep):
                found = exhaustive(sub.level, time_limit=min(turn, left), book=book.sweep_book(),
                                   progress=lambda n, where=where: show(f"{where}, size {n}"))  # fmt: skip
                program = compose(found.program) if found.program is not None else None
            else:
                found = exhaustive(sub.level, time_limit=min(turn, left), book=book.sweep_book(), max_size=top,
                                   hints=sub.hints, progress=lambda n, where=where: show(f"{where}, size {n}"))
                program = found.program
            if program is not None and play_out(level, program).solved:
                method = "sweep" if isinstance(sub, Sweep) else "driver"
                return adopt(level, result, program, time.monotonic() - start, method, book)
            if found.solved or found.searched_to >= top:
                todo.remove(sub)  # exhausted (or, never expected: ``Level.home``, a helper that does not carry over)
        turn *= 2
    return replace(result, seconds=result.seconds + time.monotonic() - start)


def _sweeps_alone(level: Level, seconds: float | None, exhaustive: Callable[..., SolveResult], book: ProgressFile,
                  show: Callable[[str], None]) -> SolveResult:  # fmt: skip
    """``--sweeps``: the level through its driver sketches and sweep sub-problems alone (``_sweep_after``), for
    ``seconds`` (None: no limit), its exhaustive search's record as it stands (a new one: nothing searched)."""
    start = _as_recorded(level, book)
    if start.solved:
        return start
    return _sweep_after(level, start, seconds or float("inf"), sub_searches(level), exhaustive, book, show)


def _as_recorded(level: Level, book: ProgressFile) -> SolveResult:
    """The level's exhaustive search as its record stands (a new record: nothing searched), searching nothing."""
    rec = book.entry(level, prepare(level, book.tick_cap))
    if rec.result is not None and not rec.provisional(level):
        return recorded(level, rec)
    return SolveResult(level.name, False, None, None, None, None, rec.seconds, rec.nodes, rec.searched_to)


def _first_turn(todo: list[DriverSketch | Sweep], book: ProgressFile) -> float:
    """The first turn of ``_sweep_after``: the least time any of ``todo`` has had, at least ``SWEEP_TURN``."""
    had = [book.sweeps[sub.level.name].seconds if sub.level.name in book.sweeps else 0.0 for sub in todo]
    return max(SWEEP_TURN, min(had, default=0.0))


def _top(level: Level, sub: DriverSketch | Sweep) -> int:
    """The largest size a sweep's or driver sketch's search goes to: a driver sketch stops at the level's best
    known size."""
    return sum(sub.level.functions) if isinstance(sub, Sweep) else level.best_known or sum(level.functions)


def _exhausted(level: Level, sub: DriverSketch | Sweep, book: ProgressFile) -> bool:
    """True if the record of ``sub`` says its search is over with nothing found: every size up to ``_top``
    searched (a record with a program stays: its search hands the program back at once)."""
    rec = book.sweeps.get(sub.level.name)
    return rec is not None and rec.result is None and rec.searched_to >= _top(level, sub)


def _ruled_after(level: Level, result: SolveResult, seconds: float, ruled: Hints,
                 exhaustive: Callable[..., SolveResult], book: ProgressFile) -> SolveResult:  # fmt: skip
    """``result`` (the exhaustive search, out of time), or the level solved in ``seconds`` by the same search
    under the board rules ``ruled``, at the level's best known size only (its own record in the progress file,
    ``ProgressFile.ruled``, so a later pass or a resumed run goes on where it stopped). What it finds is no
    larger than the best known program, and not proven smallest (method ``ruled``, or ``stations``)."""
    assert level.best_known is not None
    start = time.monotonic()
    found = exhaustive(level, time_limit=seconds, hints=ruled, first=level.best_known, max_size=level.best_known,
                       book=book.ruled_book())  # fmt: skip
    spent = time.monotonic() - start
    if not found.solved or found.program is None:
        return replace(result, seconds=result.seconds + spent)
    return adopt(level, result, found.program, spent, found.method, book)


def _sketch_after(level: Level, result: SolveResult, seconds: float, tick_cap: int, book: ProgressFile,
                  jobs: int | None = 1, executor: str = "process",
                  address: str | None = None) -> SolveResult:  # fmt: skip
    """``result`` (the exhaustive search, out of time), or the level solved by ``sketch`` in ``seconds``, on
    ``jobs`` processes or on Ray (``executor``, ``address``, as ``solve`` has them). The seed is the number of
    sketch searches the level's record has started (counted and saved before this one runs), so a later pass or
    a resumed run draws restarts no earlier search drew, for any ``jobs`` or executor (every restart draws from
    the seed and its own number). The sketches' runs stop at ``tick_cap`` too, so what they find is a program
    the exhaustive search would have found at its size: its sizes below stay proven empty."""
    rec = book.levels[level.name]
    seed, rec.sketches = rec.sketches, rec.sketches + 1
    book.save(force=True)
    found = run_sketch(level, seed, time_limit=seconds, tick_cap=min(tick_cap, SKETCH_TICK_CAP),
                       keep_on_interrupt=False, jobs=jobs, executor=executor, address=address)  # fmt: skip
    if not found.solved or found.program is None:
        return replace(result, seconds=result.seconds + found.seconds)
    return adopt(level, result, found.program, found.seconds, found.method, book)


def _beside(json_file: Path | None) -> Path | None:
    """The default progress file: beside the --json file."""
    return None if json_file is None else beside(json_file, ".progress")


def _progress_book(path: Path | None, resume: bool, tick_cap: int, pool: list[Level],
                   targets: list[Level], hints: Hints = NO_HINTS) -> ProgressFile:  # fmt: skip
    """The progress file of this run, checked before any work: resumed (it must exist and fit this run), or new
    (it must not exist: a finished search is not overwritten by accident)."""
    if path is None:
        if resume:
            raise InputError("--resume needs the progress file: give --progress FILE (or the --json of that run)")
        return ProgressFile(None, tick_cap)
    if not resume:
        if path.exists():
            raise InputError(f"progress file {name_of(path)} exists: pass --resume to go on from it, or delete it")
        return ProgressFile(path, tick_cap)
    if not path.exists():
        raise InputError(f"--resume: no progress file {name_of(path)}")
    book = load_progress(path, tick_cap, pool)
    for lv in targets:
        if lv.name in book.levels:
            rec = book.entry(lv, prepare(lv, tick_cap, hints))
            todo = "" if rec.frontier is None else f", {len(rec.frontier.pending)} prefixes of the next size left"
            state = "solved" if rec.result else f"sizes up to {rec.searched_to} searched{todo}"
            if rec.provisional(lv):
                assert rec.result is not None
                state = (f"solved by the {rec.result['method']} search at size {rec.result['size']} (best known "
                         f"{lv.best_known}), "
                         f"sizes up to {rec.searched_to} searched{todo}")  # fmt: skip
            click.echo(f"resuming {lv.name}: {state}, {rec.nodes:,} nodes in {rec.seconds:.1f} s before", err=True)
        if lv.name in book.ruled:
            ruled = board_hints(lv)
            if ruled is None:
                raise InputError(f"progress file {name_of(path)}: level {lv.name!r} has no board rules, yet a record "
                                 "of a search under them")  # fmt: skip
            rec = book.ruled_book().entry(lv, prepare(lv, tick_cap, ruled))  # refused if another search made it
            state = "solved" if rec.result else f"size {rec.searched_to + 1} in progress"
            click.echo(f"resuming {lv.name} under board rules: {state}, {rec.nodes:,} nodes in {rec.seconds:.1f} s "
                       "before", err=True)  # fmt: skip
        for sub in sub_searches(lv):
            if sub.level.name in book.sweeps:
                sub_hints = sub.hints if isinstance(sub, DriverSketch) else NO_HINTS
                rec = book.sweep_book().entry(sub.level, prepare(sub.level, tick_cap, sub_hints))  # refused if another
                state = "solved" if rec.result else f"sizes up to {rec.searched_to} searched"
                click.echo(f"resuming {sub.level.name}: {state}, {rec.nodes:,} nodes in {rec.seconds:.1f} s before",
                           err=True)  # fmt: skip
    return book


def _sketch_jobs(jobs: int | None, executor: str) -> int | None:
    """``--jobs`` as the sketch search takes it: a process count (default one per usable core), or on Ray as
    given (None: the cluster's CPUs)."""
    return jobs or default_jobs() if executor == "process" else jobs


def _provisional(book: ProgressFile, level: Level) -> bool:
    """True if the level's record holds a sketch program above its best known size, smaller sizes still open."""
    rec = book.levels.get(level.name)
    return rec is not None and rec.provisional(level)


def _finished(book: ProgressFile, level: Level, max_size: int | None) -> bool:
    """True if the level's record leaves nothing to search: solved (by a program that is not provisional:
    ``LevelProgress.provisional``), or every size up to the limit searched."""
    rec = book.levels.get(level.name)
    if rec is None:
        return False
    solved = rec.result is not None and not rec.provisional(level)
    return solved or rec.searched_to >= (max_size or sum(level.functions))


def _weight(level: Level) -> float:
    return 1.0 if level.best_known is not None and level.best_known <= LIKELY_SIZE else 0.25


def _level_time(level: Level, left: list[Level], limit: float, total: float | None, elapsed: float,
                later: bool = False) -> float | None:  # fmt: skip
    """Per-level limit: ``limit``; under ``total`` the Tutorial-Hard levels still get ``limit`` and the others
    share what is left, weighted towards those with a known program of at most ``LIKELY_SIZE``. ``left``: the
    levels still to search, this one included; each of them keeps ``LEVEL_OVERHEAD`` seconds back, so the run
    ends within ``total``. In a ``later`` pass every level shares, Tutorial-Hard ones too, each at most ``limit``."""
    if total is None:
        return limit or None
    remaining = max(NO_TIME, total - elapsed - LEVEL_OVERHEAD * max(1, len(left)))
    if level.pack in CORE_PACKS and not later:
        return min(limit, remaining) if limit else remaining
    weights = sum(_weight(lv) for lv in left if later or lv.pack not in CORE_PACKS)
    share = remaining * _weight(level) / max(weights, _weight(level))
    return max(NO_TIME, min(limit, share) if limit else share)


@click.command(help="Find a winning program (game semantics) by a search over program sketches; not proven smallest. "
               "Restarts run on --jobs worker processes or as Ray tasks (--executor ray, --address): the same seed "
               "finds the same programs on any of them, unless the time limit cuts the search short.")
@click.option("--level", "level_name", required=True, help="Level name.")
@click.option("--time-limit", type=FiniteFloat(min=0, max=SKETCH_MAX_SECONDS, min_open=True), default=300.0,
              show_default=True, help="Seconds for the whole search, shrinking included.")  # fmt: skip
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the restarts (the same seed draws the same sketches and fillings).")  # fmt: skip
@click.option("--tick-cap", type=click.IntRange(1, SKETCH_MAX_TICK_CAP), default=SKETCH_TICK_CAP, show_default=True,
              help="Most ticks of one run while searching (a program needing more is not found).")  # fmt: skip
@click.option("--iterations", type=click.IntRange(1, 10**9), default=SKETCH_ITERATIONS, show_default=True,
              help="Programs run by one restart's local search.")  # fmt: skip
@click.option("--stop-at", type=click.IntRange(1, 1000), default=None,
              help="Stop at a program of at most this many registers (default: the best known size).")  # fmt: skip
@executor_options
@click.option("--json", "json_file", type=OutputPath(), default=None, help="Write the result here.")
@LEVELS_FILE
def sketch(
    level_name: str, time_limit: float, seed: int, tick_cap: int, iterations: int, stop_at: int | None,
    jobs: int | None, executor: str, address: str | None, json_file: Path | None, levels_file: str | None,
) -> None:  # fmt: skip
    level = find_level(level_name, load_levels(levels_file))
    with Progress(transient=True) as progress:
        task = progress.add_task(f"sketching {level.name}", total=time_limit)

        def show(elapsed: float, best: int | None, restarts: int) -> None:
            size = f"best size {best}" if best else "no program yet"
            progress.update(task, completed=elapsed, description=f"{level.name}: {size}, restart {restarts + 1}")

        result = run_sketch(level, seed, time_limit, tick_cap, iterations, stop_at, progress=show,
                            jobs=_sketch_jobs(jobs, executor), executor=executor, address=address)  # fmt: skip
    if result.interrupted:
        click.echo("interrupted: the best program found so far", err=True)
    if result.solved:
        click.echo(f"{level.name}: solved with {result.size} registers (best known {level.best_known or '-'}, first "
                   f"found {result.found_size}), {result.stars} stars, {result.ticks} ticks")  # fmt: skip
        click.echo(f"program: {format_registers(result.program)}")  # type: ignore[arg-type]
    else:
        click.echo(f"{level.name}: no program found")
    click.echo(f"method sketch, minimality not proven; {result.restarts} restarts, {result.evaluations} programs "
               f"run, {result.seconds:.1f} s")  # fmt: skip
    if json_file is not None:
        write_json_atomic(json_file, result.to_json() | {"pack": level.pack, "best_known": level.best_known})


@click.command(help="The Ruby example's hill climber on a level.")
@click.option("--level", "level_name", required=True, help="Level name.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Seed of the climber's random changes.")  # fmt: skip
@click.option("--semantics", type=click.Choice(SEMANTICS), default="vaguery", show_default=True,
              help="game: the iPad game's rules; vaguery: the looser rules of Bill Tozier's Ruby emulator "
              "(the article's).")  # fmt: skip
@click.option("--max-iterations", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Most scripts to try.")  # fmt: skip
@click.option("--stop-after", type=click.IntRange(min=1), default=21, show_default=True,
              help="Stop after this many distinct solving scripts (the Ruby stops after more than 20).")  # fmt: skip
@search_run_options
def climb(
    level_name: str, seed: int, semantics: str, max_iterations: int, stop_after: int, step_limit: int,
    as_json: bool, levels_file: str | None,
) -> None:  # fmt: skip
    level = find_level(level_name, load_levels(levels_file))
    _report_search(
        "climbing", level, max_iterations, as_json,
        lambda tick: run_climb(level, seed, semantics, max_iterations, stop_after, step_limit, progress=tick),
        lambda r: f"{r.iterations} iterations ({r.solutions} solving scripts)",
    )  # fmt: skip


def _report_search(what: str, level: Level, total: int, as_json: bool, search: Callable[[Callable[[int], None]], Any],
                   done: Callable[[Any], str]) -> None:
    """Run a script search (climb, evolve) under a progress bar; print its result, or one JSON object."""
    with Progress(transient=True) as progress:
        task = progress.add_task(f"{what} {level.name}", total=total)
        result = search(lambda k: progress.advance(task, k))
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    state = "solved" if result.solved else "not solved"
    click.echo(f"{level.name}: {state} after {done(result)}")
    click.echo(f"script: {result.script}")
    click.echo(f"score (rebuild, crashes, topples): {list(result.score)}")


@click.command(help="A genetic program over Ruby scripts on a level (climb's tokens and mutation, plus crossover).")
@click.option("--level", "level_name", required=True, help="Level name.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the search.")
@click.option("--population", type=click.IntRange(min=2, max=100_000), default=200, show_default=True,
              help="Scripts per generation.")  # fmt: skip
@click.option("--evaluations", type=click.IntRange(min=2, max=10**9), default=100_000, show_default=True,
              help="Budget: most scripts to run (as climb's --max-iterations).")  # fmt: skip
@click.option("--elite", type=click.IntRange(min=0), default=2, show_default=True,
              help="Best scripts kept unchanged each generation.")  # fmt: skip
@click.option("--crossover", type=FiniteFloat(0.0, 1.0), default=0.7, show_default=True,
              help="Share of children made by crossover (the rest are mutated copies).")  # fmt: skip
@search_run_options
def evolve(
    level_name: str, seed: int, population: int, evaluations: int, elite: int, crossover: float, step_limit: int,
    as_json: bool, levels_file: str | None,
) -> None:  # fmt: skip
    check_evolve_options(population, evaluations, elite, crossover)
    level = find_level(level_name, load_levels(levels_file))
    _report_search(
        "evolving", level, evaluations, as_json,
        lambda tick: run_evolve(level, seed, population, evaluations, elite, crossover, step_limit, progress=tick),
        lambda r: f"{r.evaluations} evaluations ({r.generations} generations)",
    )  # fmt: skip


COMMANDS = (levels, run, solve, sketch, climb, evolve)
