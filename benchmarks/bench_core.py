"""Batch evaluation: `stats` speed-up from 1 to 2 workers, and peak memory per worker.

Targets (issue 2): --jobs 2 at least 1.7x faster than --jobs 1; at most 300 MB per worker.
Run: python benchmarks/bench_core.py [--quick] [--game hatris --bot searcher]
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.core.batch import evaluate, run_tasks
from puzzlebots.core.runner import play_episode


def peak_rss_mb() -> float:
    """This process's peak resident set (VmHWM), in MB."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def probe(game: str, bot: str, seed: int, max_actions: int) -> float:
    play_episode(game, bot, seed, max_actions=max_actions)
    return peak_rss_mb()


def main(quick: bool = False, game: str = "hatris", bot: str = "searcher") -> None:
    games, actions = (4, 150) if quick else (40, 3000)
    play_episode(game, bot, 0, max_actions=20)  # compile / load the numba cache before timing
    timings = {}
    for jobs in (1, 2):
        t0 = time.perf_counter()
        evaluate(game, bot, range(100, 100 + games), jobs=jobs, max_actions=actions, progress=False)
        timings[jobs] = time.perf_counter() - t0
    mems = run_tasks(probe, [(game, bot, 200 + i, actions) for i in range(2)], jobs=2, progress=False)
    speedup = timings[1] / timings[2]
    table = Table(title=f"stats over a process pool: {game}/{bot}, {games} games x {actions} decisions")
    for col in ("measure", "value", "target"):
        table.add_column(col)
    table.add_row("--jobs 1 wall time", f"{timings[1]:.2f} s", "")
    table.add_row("--jobs 2 wall time", f"{timings[2]:.2f} s", "")
    table.add_row("speed-up 2 vs 1", f"{speedup:.2f}x", ">= 1.7x")
    table.add_row("peak memory per worker", f"{max(mems):.0f} MB", "<= 300 MB")
    print_fitted(Console(), table)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--game", default="hatris")
    ap.add_argument("--bot", default="searcher")
    a = ap.parse_args()
    main(a.quick, a.game, a.bot)
