"""``cargobot solve``: parses its options, runs the campaign (``campaign``) over the levels asked for and
prints what it found, a table and a legend (``--json``: the rows). Mounted by ``cli`` with the other commands.

Bad input raises ``PuzzlebotsError``; the top-level ``puzzlebots`` group turns it into one ``error: ...`` line on
stderr and exit code 2.
"""

from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from puzzlebots.command_parts.options import (
    MAX_SECONDS,
    FiniteFloat,
    defaulted_option,
    executor_options,
    refuse_given,
)
from puzzlebots.command_parts.output import OutputPath, write_json_atomic
from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.core.errors import InputError
from puzzlebots.core.files import beside

from . import campaign
from .bots.hints import NO_HINTS, Hints, parse_hints
from .bots.solve import DEFAULT_TICK_CAP
from .bots.sweep import sweeps
from .engine import GAME_TICK_LIMIT
from .levels import Level, find_level, load_levels
from .progress import ProgressFile
from .run_cli import LEVELS_FILE

#: the texts of --shape, --pile-rules, --min-ops and --fix as given (None: not given)
HintTexts = tuple[str | None, str | None, str | None, str | None]


@click.command(
    help="Find a smallest program for a level (game semantics) by exhaustive search; beyond Tutorial-Hard, "
    "searches that do not prove their programs smallest (sweep sub-problems, driver sketches, board "
    "rules, program sketches) take over when the exhaustive one runs out of time."
)
@click.option("--level", "level_name", default=None, help="Level name.")
@click.option("--all", "all_levels", is_flag=True, help="Every level of the levels file.")
@executor_options
@defaulted_option(
    "--time-limit",
    FiniteFloat(min=0, max=MAX_SECONDS),
    600.0,
    "Seconds per level (0: none); under --total-time, per level and pass.",
)
@click.option(
    "--total-time",
    type=FiniteFloat(min=1, max=MAX_SECONDS),
    default=None,
    help=f"Seconds for the whole run (default with --all: {campaign.ALL_LEVELS_SECONDS:.0f}): Tutorial-Hard levels get "
    "--time-limit, the others share what is left (a quarter share where the best known program has more than "
    f"{campaign.LIKELY_SIZE} registers), and the run ends within it. Time left after every level had its share goes to "
    "the unsolved ones (and those a sketch or sweep solved above their best known size) in further passes, "
    "each going on where it stopped.",
)
@click.option("--max-size", type=click.IntRange(min=1), default=None, help="Largest register budget to try.")
@defaulted_option(
    "--tick-cap", click.IntRange(1, GAME_TICK_LIMIT), DEFAULT_TICK_CAP, "Most ticks of one run of a candidate program."
)
@click.option("--json", "json_file", type=OutputPath(), default=None, help="Write the results here.")
@click.option(
    "--progress",
    "progress_file",
    type=OutputPath(),
    default=None,
    help="Keep the search's progress here, to --resume it (default with --json: FILE.progress).",
)
@click.option("--resume", is_flag=True, help="Go on from the progress file: finished sizes and levels are not redone.")
@defaulted_option(
    "--sketch-share",
    FiniteFloat(min=0, max=0.9),
    campaign.SKETCH_SHARE,
    "Part of a level's time (beyond Tutorial-Hard) kept, when the exhaustive search runs out of time, "
    "for searches that find programs without proving them smallest: through the level's sweep "
    "sub-problems and driver sketches where it has them, else under rules read off the board at the best "
    "known size, then over program sketches (0: off).",
)
@click.option(
    "--shape",
    default=None,
    help="Hint (with --level): at most so many registers per function, F1 first, no function past them, e.g. 8,4.",
)
@click.option(
    "--pile-rules",
    default=None,
    help="Hint (with --level): one rule per pile, e.g. 'I G I- G+ I-': the "
    "pile stays a bottom part of its start (I) or goal (G) pile, is only taken from (-) or only put on (+); "
    "'.' for none.",
)
@click.option(
    "--min-ops",
    default=None,
    help="Hint (with --level): registers of an op every solution is taken to hold, e.g. right=2,left=2,pickup=2.",
)
@click.option(
    "--fix",
    default=None,
    help="Hint (with --level): functions given whole, in script syntax; the search "
    "builds the others, e.g. 'call2 R call1' (F1) or 'prog_2 claw L_none claw R' (F2).",
)
@click.option(
    "--board-rules",
    is_flag=True,
    help="With --level: only the search under the rules read off the board, "
    "at the level's best known size (what --all runs when the exhaustive search leaves a level open).",
)
@click.option(
    "--sweeps",
    "sweeps_only",
    is_flag=True,
    help="With --level: only the search through the level's sweep "
    "sub-problems and driver sketches, for --time-limit (0: no limit), going on from their records with "
    "--resume.",
)
@LEVELS_FILE
def solve(
    level_name: str | None,
    all_levels: bool,
    jobs: int | None,
    executor: str,
    address: str | None,
    time_limit: float,
    total_time: float | None,
    max_size: int | None,
    tick_cap: int,
    json_file: Path | None,
    progress_file: Path | None,
    resume: bool,
    sketch_share: float,
    shape: str | None,
    pile_rules: str | None,
    min_ops: str | None,
    fix: str | None,
    board_rules: bool,
    sweeps_only: bool,
    levels_file: str | None,
) -> None:
    pool = load_levels(levels_file)
    if all_levels == bool(level_name):
        raise InputError("give exactly one of --level NAME and --all")
    targets = pool if all_levels else [find_level(level_name or "", pool, subproblems=True)]
    hints = _hints(targets[0], (shape, pile_rules, min_ops, fix), all_levels, board_rules, sweeps_only)
    if all_levels and total_time is None:
        total_time = campaign.ALL_LEVELS_SECONDS
    path = progress_file or (None if json_file is None else beside(json_file, ".progress"))
    book, resumed = campaign.open_book(path, resume, tick_cap, pool, targets, NO_HINTS if board_rules else hints)
    for line in resumed:
        click.echo(line, err=True)
    mode = "board rules" if board_rules else "sweeps" if sweeps_only else "full"
    plan = campaign.Plan(
        time_limit=time_limit,
        total_time=total_time,
        max_size=max_size,
        tick_cap=tick_cap,
        sketch_share=sketch_share,
        hints=hints,
        mode=mode,
        jobs=jobs,
        executor=executor,
        address=address,
    )
    _print_results(targets, _run_campaign(plan, book, targets), json_file)


def _hints(level: Level, given: HintTexts, all_levels: bool, board_rules: bool, sweeps_only: bool) -> Hints:
    """The hints of a one-level search (``level``): the ones ``given`` (the texts of --shape, --pile-rules,
    --min-ops and --fix), or with --board-rules those read off the board; refuses the hint options that --all,
    --board-rules or --sweeps would ignore."""
    ctx = click.get_current_context()
    if all_levels:
        refuse_given(
            ctx,
            ("shape", "pile_rules", "min_ops", "fix", "board_rules", "sweeps_only"),
            "is for one level: not with --all",
        )
    hints = parse_hints(level, *given)
    if board_rules:
        refuse_given(
            ctx,
            ("shape", "pile_rules", "min_ops", "fix", "max_size"),
            "is not for --board-rules, which reads its hints off the board and searches the best known size",
        )
        if level.subproblem:
            raise InputError(f"--board-rules reads one board: {level.name} is a sub-problem")
        hints = campaign.ruled_hints(level)
    if sweeps_only:
        refuse_given(
            ctx,
            ("shape", "pile_rules", "min_ops", "fix", "max_size", "board_rules"),
            "is not for --sweeps, which searches the sweep sub-problems",
        )
        if not sweeps(level):
            raise InputError(
                f"--sweeps: {level.name} has no sweep sub-problem (its piles are not set right one "
                "after another from the claw rightwards)"
            )
    return hints


def _run_campaign(plan: campaign.Plan, book: ProgressFile, targets: list[Level]) -> dict[str, campaign.Row]:
    """Run the campaign over ``targets`` under a progress bar, each new pass announced on stderr."""
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("solving", total=len(targets))

        def step(level: Level, number: int, what: str) -> None:
            bar.update(task, description=f"{'' if number == 1 else f'pass {number}: '}{level.name}{what}")

        def next_pass(number: int, levels: list[Level], room: float) -> None:
            bar.update(task, total=(bar.tasks[0].total or 0) + len(levels))
            above = sum(campaign.provisional(book, lv) for lv in levels)
            parts = [
                f"{n} {what}{'s' * (n > 1)}{after}"
                for n, what, after in (
                    (len(levels) - above, "unsolved level", ""),
                    (above, "level", " solved above its best known size"),
                )
                if n
            ]
            verb = "share" if len(levels) > 1 else "gets"
            click.echo(f"pass {number}: {' and '.join(parts)} {verb} the {room:,.0f} s left", err=True)

        listeners = campaign.Listeners(step=step, done=lambda _: bar.advance(task), next_pass=next_pass)
        try:
            rows = campaign.Campaign(plan, book, listeners).run(targets)
        except KeyboardInterrupt:
            if book.path is not None:
                click.echo(f"progress saved in {book.path}: continue with --resume", err=True)
            raise
    return rows


#: what the solve table's figures mean, printed under it
SOLVE_LEGEND = (
    "size: registers of the program found; stars: the game's 1-3 for that size; searched to: every "
    "program up to this size was tried; pass: the pass of this run that gave the row"
)


def _print_results(targets: list[Level], rows: dict[str, campaign.Row], json_file: Path | None) -> None:
    """The table (one row per level, in the levels file's order), the summary line, the --json file."""
    table = Table(title="Cargo-Bot solve (game semantics)", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for col in (
        "level",
        "size",
        "stars",
        "best known",
        "proven minimal",
        "method",
        "pass",
        "searched to",
        "seconds",
        "program",
    ):
        # the numbers' columns keep their longest word whole on 80 columns; the level and the program wrap
        wraps = col in ("level", "program")
        table.add_column(
            col,
            no_wrap=col == "method",
            overflow="fold" if wraps else "ellipsis",
            min_width=None if wraps else max(map(len, col.split())),
        )
    results = []
    for lv in targets:
        result, number = rows[lv.name].result, rows[lv.name].number
        results.append(result.to_json() | {"pass": number, "pack": lv.pack, "best_known": lv.best_known})
        table.add_row(
            lv.name,
            str(result.size or "-"),
            str(result.stars or "-"),
            str(lv.best_known or "-"),
            "yes" if result.proven_minimal else "no",
            result.method,
            str(number),
            str(result.searched_to),
            f"{result.seconds:.1f}",
            results[-1]["program"] or "-",
        )
    print_fitted(Console(), table)
    click.echo(SOLVE_LEGEND)
    solved = sum(r["solved"] for r in results)
    click.echo(f"solved {solved}/{len(results)} in {sum(r['seconds'] for r in results):.1f} s")
    if json_file is not None:
        write_json_atomic(json_file, results)
