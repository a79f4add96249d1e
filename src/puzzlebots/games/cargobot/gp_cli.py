"""The genetic-programming commands: ``evolve`` (the GP on DEAP on one level, or the old GA with ``--method ga``)
and ``bench-gp`` (the benchmark suite, ``gp.suite``). ``cli`` mounts them with the others.

Every option is checked before any program runs; bad input raises ``PuzzlebotsError`` (one ``error:`` line, exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from puzzlebots.command_parts.figures import image_formats, save_figure
from puzzlebots.command_parts.options import SEED, FiniteFloat, executor_options, refuse_given
from puzzlebots.command_parts.output import OutputPath, progress_log, read_progress, write_json_atomic
from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.core.batch import run_tasks
from puzzlebots.core.errors import InputError
from puzzlebots.core.files import beside

from .bots.evolve import check_options as check_ga_options
from .bots.evolve import evolve as run_ga
from .gp import suite
from .gp.evaluator import SEARCH_STEP_LIMIT, Evaluator
from .gp.families import split
from .gp.search import SELECTIONS, GPOptions
from .gp.search import gp as run_gp
from .levels import find_level, load_levels
from .run_cli import LEVELS_FILE, _report_search, semantics_option, step_limit_option

GA_STEP_LIMIT = 200
GP_ONLY = (
    "selection",
    "mutation",
    "condition",
    "tournament",
    "no_parsimony",
    "no_board_case",
    "no_recall",
    "family",
    "jobs",
    "semantics",
)
STEP_LIMIT = step_limit_option(
    None,
    "Most steps (vaguery) or ticks (game) of one run of a program (default: "
    f"{SEARCH_STEP_LIMIT['game']} ticks, {SEARCH_STEP_LIMIT['vaguery']} steps).",
)
SEMANTICS_OPTION = semantics_option("game", "the Ruby emulator's")


def option(*names: str, **settings: Any) -> Any:
    """A ``click`` option that shows its default, as every option here does."""
    return click.option(*names, show_default=True, **settings)


@click.command(
    help="Genetic programming on a level: DEAP over programs legal in the level's toolbox and slots, "
    "with lexicase (default), epsilon-lexicase or tournament selection; --method ga: the older "
    "genetic algorithm over Ruby scripts (vaguery semantics)."
)
@click.option("--level", "level_name", required=True, help="Level name.")
@option("--method", type=click.Choice(("gp", "ga")), default="gp", help="gp or the old ga.")
@option("--seed", type=SEED, default=0, help="Seed of the search.")
@option("--selection", type=click.Choice(SELECTIONS), default="lexicase", help="gp: how parents are chosen.")
@click.option(
    "--population", type=click.IntRange(2, 100_000), help="Programs per generation (default: gp 500, ga 200)."
)
@option("--evaluations", type=click.IntRange(2, 10**9), default=100_000, help="Budget: most programs to run.")
@option("--elite", type=click.IntRange(min=0), default=2, help="Best programs kept unchanged each generation.")
@option(
    "--crossover",
    type=FiniteFloat(0.0, 1.0),
    default=0.7,
    help="Chance of crossover per pair of children (ga: share of children by crossover).",
)
@option("--mutation", type=FiniteFloat(0.0, 1.0), default=GPOptions.mutation, help="gp: chance a child is mutated.")
@option(
    "--condition",
    type=FiniteFloat(0.0, 1.0),
    default=GPOptions.condition,
    help="gp: chance a drawn register carries a condition (the hill climber's).",
)
@option(
    "--tournament",
    type=click.IntRange(2, 100_000),
    default=GPOptions.tournament,
    help="gp: tournament size (with --selection tournament).",
)
@click.option("--no-parsimony", is_flag=True, help="gp: tournaments compare total error only, not then size.")
@click.option(
    "--no-board-case",
    is_flag=True,
    help="gp: lexicase selects on the evaluator's cases only, not also on the whole board's rebuild distance.",
)
@click.option(
    "--no-recall",
    is_flag=True,
    help="gp: run every new child, also one that reads the registers of a program already run alike.",
)
@click.option("--family", is_flag=True, help="gp: train on the level family's training boards, test on its others.")
@option(
    "--jobs",
    type=click.IntRange(1, 256),
    default=1,
    help="gp: worker processes evaluating each generation (the same answer for any count).",
)
@SEMANTICS_OPTION
@STEP_LIMIT
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@LEVELS_FILE
def evolve(method: str, **settings: Any) -> None:
    if method == "ga":
        refuse_given(click.get_current_context(), GP_ONLY, "is for --method gp only")
        _evolve_ga(**settings)
    else:
        _evolve_gp(**settings)


def _evolve_ga(
    level_name: str,
    levels_file: str | None,
    seed: int,
    population: int | None,
    evaluations: int,
    elite: int,
    crossover: float,
    step_limit: int | None,
    as_json: bool,
    **_: Any,
) -> None:
    check_ga_options(population or 200, evaluations, elite, crossover)
    level = find_level(level_name, load_levels(levels_file))
    _report_search(
        "evolving",
        level,
        evaluations,
        as_json,
        lambda tick: run_ga(
            level, seed, population or 200, evaluations, elite, crossover, step_limit or GA_STEP_LIMIT, progress=tick
        ),
        lambda r: f"{r.evaluations} evaluations ({r.generations} generations)",
    )


def _evolve_gp(
    level_name: str,
    levels_file: str | None,
    seed: int,
    population: int | None,
    evaluations: int,
    family: bool,
    jobs: int,
    semantics: str,
    step_limit: int | None,
    as_json: bool,
    **gp_settings: Any,
) -> None:
    """The GP on one level (``gp_settings``: selection, elite, crossover, mutation, condition, tournament,
    no_parsimony, no_board_case, no_recall)."""
    flags: dict[str, Any] = {name: not gp_settings.pop(f"no_{name}") for name in ("parsimony", "board_case", "recall")}
    options = GPOptions(population or GPOptions.population, **flags, **gp_settings)
    options.check(evaluations)
    level = find_level(level_name, load_levels(levels_file))
    train, test = split(level, seed) if family else (None, [])
    with Evaluator(level, train, semantics=semantics, step_limit=step_limit, jobs=jobs) as evaluator:
        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task(f"evolving {level.name}", total=evaluations)
            result = run_gp(evaluator, evaluations, seed, options, progress=lambda k: bar.advance(task, k))
    data = result.to_json() | {"semantics": semantics, "step_limit": evaluator.step_limit}
    if family:
        won = (
            Evaluator(level, test, semantics=semantics, step_limit=step_limit).evaluate([result.program])
            if result.solved
            else None
        )
        data |= {"test_boards": len(test), "test_solved": None if won is None else int((won.outcome == 0).sum())}
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(
        f"{level.name}: {'solved' if result.solved else 'not solved'} after {result.evaluations:,} evaluations "
        f"({result.generations} generations, {result.recalled:,} children recalled, {result.method}, "
        f"{semantics} semantics)"
    )
    click.echo(
        f"program ({result.size} registers, {result.found_size} as found; best known "
        f"{level.best_known or '-'}): {result.program or '(empty)'}"
    )
    if not result.solved:
        click.echo(f"best total case error: {result.best_error}")
    if family:
        click.echo(f"family: test boards won {data['test_solved'] if result.solved else '-'}/{len(test)}")


@click.command(
    "bench-gp",
    help="The GP benchmark: methods x levels x seeded runs at a fixed budget of program "
    "evaluations; per method and level the success rate, median evaluations to the first win and "
    "median winner size against the best known (the exhaustive solver's reference).",
)
@click.option(
    "--methods",
    default=None,
    help=f"Comma-separated methods (default: {','.join(suite.METHODS)}; with --families all but climb).",
)
@click.option(
    "--levels",
    "level_names",
    default=None,
    help="Comma-separated level names (default: every level, or with --families every level with a family).",
)
@option(
    "--runs",
    type=click.IntRange(1, 1000),
    default=10,
    help="Seeded runs per method and level (run r has seed --seed + r for every method).",
)
@option(
    "--evaluations",
    type=click.IntRange(1, 10**9),
    default=300_000,
    help="Budget of program evaluations per run.",
)
@option("--seed", type=SEED, default=0, help="Seed of the first run.")
@option(
    "--population",
    type=click.IntRange(2, 100_000),
    default=GPOptions.population,
    help="The GP's programs per generation.",
)
@click.option(
    "--families",
    is_flag=True,
    help="Train on each level family's training boards and report the winners' test-board success.",
)
@SEMANTICS_OPTION
@STEP_LIMIT
@executor_options
@click.option(
    "--json",
    "json_path",
    type=OutputPath(),
    default=None,
    help="Write every run and the table here; an interrupted run resumes from FILE.partial.",
)
@click.option(
    "--plot",
    type=OutputPath(image_formats),
    default=None,
    help="Plot each method's success rate against evaluations here.",
)
@LEVELS_FILE
def bench_gp(
    methods: str | None,
    level_names: str | None,
    runs: int,
    evaluations: int,
    seed: int,
    population: int,
    families: bool,
    semantics: str,
    step_limit: int | None,
    jobs: int | None,
    executor: str,
    address: str | None,
    json_path: Path | None,
    plot: Path | None,
    levels_file: str | None,
) -> None:
    default = [m for m in suite.METHODS if not (families and m == "climb")]
    chosen = suite.check_methods([m.strip() for m in methods.split(",")] if methods else default, families)
    pool = load_levels(levels_file)
    if level_names:
        levels = [find_level(n.strip(), pool) for n in level_names.split(",")]
    else:
        levels = [lv for lv in pool if not lv.subproblem and (not families or lv.name in suite.FAMILIES)]
    if families:
        suite.check_family_levels(levels)
    plan = suite.Plan(evaluations, semantics, step_limit, population, families)
    for method in chosen:
        if method.startswith("gp-"):
            plan.gp_options(method).check(evaluations)
    if seed + runs - 1 > SEED.max:  # type: ignore[operator]
        raise InputError(f"seeds {seed}-{seed + runs - 1} go past the largest seed {SEED.max}")
    Evaluator(levels[0], semantics=semantics, step_limit=step_limit)  # the step limit and semantics, checked once
    tasks = [(m, lv.name, seed + r) for lv in levels for m in chosen for r in range(runs)]
    by_name = {lv.name: lv for lv in levels}
    head = {
        "command": "bench-gp",
        "tasks": len(tasks),
        "plan": plan.__dict__,
        "methods": list(chosen),
        "levels": [lv.name for lv in levels],
        "runs": runs,
        "seed": seed,
    }
    partial = beside(json_path, ".partial") if json_path else None
    done = read_progress(partial, head, range(len(tasks)), suite.checked_record(tasks)) if partial else {}
    todo = [i for i in range(len(tasks)) if i not in done]
    with progress_log(partial, head, resumed=bool(done)) as keep:
        fresh = run_tasks(
            suite.run_one,
            [(i, tasks[i][0], by_name[tasks[i][1]], tasks[i][2], plan) for i in todo],
            jobs=jobs,
            executor=executor,
            address=address,
            description="runs",
            on_result=lambda _, record: keep(record),
        )
    records = sorted([*done.values(), *fresh], key=lambda r: r["seed"])
    rows = suite.summarize(records, chosen, levels, runs)
    _print_suite(rows, chosen, runs, evaluations)
    if json_path is not None:
        write_json_atomic(json_path, {**head, "runs_done": records, "table": rows})
        if partial is not None:
            partial.unlink(missing_ok=True)
    if plot is not None:
        save_figure(_curves(records, chosen, evaluations, runs, len(levels)), plot)


def _print_suite(rows: list[dict[str, Any]], methods: tuple[str, ...], runs: int, evaluations: int) -> None:
    table = Table(
        title=f"bench-gp: {runs} runs per method and level at {evaluations:,} evaluations: wins/runs "
        "(median evaluations to the first win; median size)",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("level", overflow="fold")
    table.add_column("best known")
    for method in methods:
        table.add_column(method)
    by = {(r["level"], r["method"]): r for r in rows}
    for level in dict.fromkeys(r["level"] for r in rows):
        cells = []
        for method in methods:
            r = by[level, method]
            extra = f" ({r['median_evaluations']:,.0f}; {r['median_size']:g})" if r["solved"] else ""
            test = f" test {r['test_share']:.0%}" if r["test_share"] is not None else ""
            cells.append(f"{r['solved']}/{r['runs']}{extra}{test}")
        table.add_row(level, str(by[level, methods[0]]["best_known"] or "-"), *cells)
    print_fitted(Console(), table)
    for method in methods:
        click.echo(f"{method}: {len(suite.half_solved(rows, method))} levels solved in at least half the runs")


def _curves(records: list[dict[str, Any]], methods: tuple[str, ...], budget: int, runs: int, levels: int) -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), layout="constrained")
    for method in methods:
        xs, ys = suite.success_curve(records, method, budget)
        ax.step(xs, ys, where="post", label=method)
    ax.set_xscale("log")
    ax.set_xlabel("program evaluations")
    ax.set_ylabel("share of runs won")
    ax.set_ylim(0, 1)
    ax.set_title(f"Cargo-Bot bench-gp: {levels} levels x {runs} runs")
    ax.legend()
    return fig
