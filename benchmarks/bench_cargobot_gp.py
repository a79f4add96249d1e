"""Cargo-Bot through the GP path: programs evaluated per second at population 1,000 on one level, against the Ruby
emulator's 130 k steps/s (issue 36). Two rows: the evaluator alone (``gp.evaluator.Evaluator.run`` on a generation
of the GP's random programs) and whole GP generations (``gp.search.gp``, lexicase: selection, variation, recall
and evaluation; programs run, so a recalled child costs its generation's time and counts no program). Steps per
program are counted in the same runs, so programs/s x mean steps = steps/s, and the ratio is that over 130,000.
One core; each figure the best of the passes. Programs per CPU second (``time.process_time``) stand beside the
wall-clock rate: on a shared machine the wall clock counts other processes' turns, the CPU clock only this one's.

A second table: the Cargo-Bot hill climber in game semantics (what ``bench-gp`` runs), iterations per CPU second of
the climb kernel (``bots.climb.kernel_climb``, what ``climb`` runs) against the batched Python climb
(``batched_climb``) in the same run, on levels where neither solves within ``CLIMB_ITERATIONS``; the two must end
with the same result, and the ratio is the figure (each rate the best of the passes).

Run: python benchmarks/bench_cargobot_gp.py [--quick] [--level NAME]   (or `puzzlebots bench cargobot_gp`)
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.games.cargobot.bots.climb import batched_climb, kernel_climb
from puzzlebots.games.cargobot.gp.evaluator import SEARCH_STEP_LIMIT, Evaluator
from puzzlebots.games.cargobot.gp.search import GPOptions, gp, random_genes
from puzzlebots.games.cargobot.levels import find_level

RUBY_STEPS_PER_SECOND = 130_000
POPULATION = 1_000
CLIMB_LEVELS = ("Mirror", "Double Flip", "Equalizer", "Multi Sort")
CLIMB_ITERATIONS = 20_000


class Counting(Evaluator):
    """The evaluator, adding up the programs it ran and their steps."""

    programs = 0
    steps = 0

    def run(self, genes: np.ndarray):  # type: ignore[no-untyped-def]
        out = super().run(genes)
        self.programs += len(genes)
        self.steps += int(out.steps.sum())
        return out


def measure(level_name: str, passes: int, generations: int) -> list[tuple[str, int, float, float, float]]:
    """(what, programs, programs/s, programs per CPU second, mean steps per program) per row, the best pass."""
    level = find_level(level_name)
    rows = []
    evaluator = Counting(level)
    random.seed(0)
    population = np.array(
        [random_genes(evaluator.genome, GPOptions.empty, GPOptions.condition) for _ in range(POPULATION)]
    )
    evaluator.run(population)  # compiled or loaded before the clock starts
    best, best_cpu = None, None
    for _ in range(passes):
        evaluator.programs = evaluator.steps = 0
        start, start_cpu = time.perf_counter(), time.process_time()
        evaluator.run(population)
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        best = seconds if best is None else min(best, seconds)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    rows.append(
        (
            "Evaluator.run, one generation of random programs",
            POPULATION,
            POPULATION / best,
            POPULATION / max(best_cpu or 0.0, 1e-9),
            evaluator.steps / evaluator.programs,
        )
    )
    options = GPOptions(population=POPULATION, selection="lexicase")
    budget = POPULATION * generations
    best, best_cpu, steps = 0.0, 0.0, 0.0
    for _ in range(passes):
        counting = Counting(level)
        start, start_cpu = time.perf_counter(), time.process_time()
        gp(counting, budget, 1, options)
        seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        best, best_cpu = max(best, counting.programs / seconds), max(best_cpu, counting.programs / cpu)
        steps, programs = counting.steps / counting.programs, counting.programs
    rows.append(
        (
            f"gp(), lexicase, a budget of {budget:,} programs run (selection + variation + recall + evaluation)",
            programs,
            best,
            best_cpu,
            steps,
        )
    )
    return rows


def measure_climb(levels: tuple[str, ...], iterations: int, passes: int) -> list[tuple[str, float, float]]:
    """(level, kernel iterations per CPU second, batched Python's) per level, seed 0, the best of the passes, at
    ``bench-gp``'s step limit."""
    limit = SEARCH_STEP_LIMIT["game"]
    kernel_climb(find_level("Cargo 101"), 0, "game", 50, 1, limit)  # compiled or loaded before the clock starts
    rows = []
    for name in levels:
        level = find_level(name)
        rates, results = [], []
        for run in (kernel_climb, batched_climb):
            best = 0.0
            for _ in range(passes):
                start = time.process_time()
                result = run(level, 0, "game", iterations, 1, limit)
                best = max(best, result.iterations / max(time.process_time() - start, 1e-9))
            rates.append(best)
            results.append(result)
        if results[0] != results[1]:
            raise SystemExit(f"{name}: the kernel climb ended otherwise than the batched climb")
        if results[0].solved or results[0].iterations != iterations:
            raise SystemExit(f"{name}: the climb solved it; pick a level it does not solve")
        rows.append((name, rates[0], rates[1]))
    return rows


def climb_table(quick: bool) -> Table:
    iterations, passes = (CLIMB_ITERATIONS // 10, 1) if quick else (CLIMB_ITERATIONS, 3)
    limit = SEARCH_STEP_LIMIT["game"]
    title = (
        f"Cargo-Bot hill climber, game semantics, step limit {limit:,}, seed 0, {iterations:,} iterations, "
        "one core (best of the passes)"
    )
    table = Table(title=title)
    for col in ("level", "kernel iterations per CPU s", "batched Python per CPU s", "ratio"):
        table.add_column(col)
    for name, kernel, python in measure_climb(CLIMB_LEVELS, iterations, passes):
        table.add_row(name, f"{kernel:,.0f}", f"{python:,.0f}", f"{kernel / python:,.1f}x")
    return table


def main(quick: bool = False, level: str = "Mirror") -> None:
    passes, generations = (1, 3) if quick else (3, 10)
    table = Table(
        title=f"Cargo-Bot GP path, {level}, population {POPULATION:,}, game semantics, step limit 1000, "
        "one core (best of the passes)"
    )
    columns = (
        "path",
        "programs",
        "programs/s",
        "per CPU s",
        "mean steps/program",
        "steps/s",
        "x Ruby (130 k steps/s): wall / CPU",
    )
    for col in columns:
        table.add_column(col)
    for what, programs, rate, cpu_rate, steps in measure(level, passes, generations):
        table.add_row(
            what,
            f"{programs:,}",
            f"{rate:,.0f}",
            f"{cpu_rate:,.0f}",
            f"{steps:,.1f}",
            f"{rate * steps / 1e6:,.2f} M",
            f"{rate * steps / RUBY_STEPS_PER_SECOND:,.1f} / {cpu_rate * steps / RUBY_STEPS_PER_SECOND:,.1f}",
        )
    print_fitted(Console(), table)
    print_fitted(Console(), climb_table(quick))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--level", default="Mirror")
    args = parser.parse_args()
    main(args.quick, args.level)
