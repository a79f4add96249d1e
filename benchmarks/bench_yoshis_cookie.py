"""Yoshi's Cookie speed: bot planning time per decision (greedy target: median <= 2 ms), the planner's
look-ahead decisions beside its kernel alone on the same states (the reference), engine frames simulated per
second (plans replayed without bots), and whole-run throughput (one core).

Run: python benchmarks/bench_yoshis_cookie.py [--quick]
"""

from __future__ import annotations

import statistics
import sys
import time

from rich.console import Console
from rich.table import Table

from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.games.yoshis_cookie.bots.planner import LookAhead, PlannerBot, default_planner_weights
from puzzlebots.games.yoshis_cookie.engine import YoshiState
from puzzlebots.games.yoshis_cookie.game import GAME


def _decisions(bot_name: str, seeds: range, config: dict) -> tuple[list[YoshiState], list[list[str]]]:
    """States met at each decision of seeded runs, and each run's plans (for the engine replay)."""
    cfg = GAME.check_config(config)
    states: list[YoshiState] = []
    plans: list[list[str]] = []
    for seed in seeds:
        state = GAME.new_state(seed, cfg)
        bot = GAME.make_bot(bot_name, cfg, None, seed)
        run: list[str] = []
        while not state.is_terminal():
            states.append(state.clone())
            plan = bot.act(state)
            run.append(plan)
            state.apply(plan)
        plans.append(run)
    return states, plans


def _planning(bot_name: str, states: list[YoshiState], look: LookAhead | None = None) -> list[float]:
    if look is None:
        bot = GAME.make_bot(bot_name, states[0].config, None, 0)
    else:
        bot = PlannerBot(states[0].config, default_planner_weights(), look)
    bot.act(states[0])  # compile / warm up
    times = []
    for state in states:
        start = time.perf_counter()
        bot.act(state)
        times.append(time.perf_counter() - start)
    return times


def _row(table: Table, label: str, ms: list[float], note: str) -> None:
    table.add_row(
        label,
        str(len(ms)),
        f"{statistics.median(ms):.3f}",
        f"{ms[int(0.9 * (len(ms) - 1))]:.3f}",
        f"{ms[-1]:.3f}",
        note,
    )


def _look_rows(table: Table, states: list[YoshiState], times: list[float]) -> None:
    """The planner's look-ahead decisions, and its kernel alone on the same states (the reference)."""
    bot = PlannerBot(states[0].config, default_planner_weights())
    tight = [k for k, st in enumerate(states) if bot.tight(st)]
    if not tight:
        return
    kernel = _planning("planner", [states[k] for k in tight], LookAhead(candidates=1))
    looked = sorted(times[k] * 1000 for k in tight)
    alone = sorted(t * 1000 for t in kernel)
    ratio = statistics.median(looked) / statistics.median(alone)
    _row(table, "planner, look-ahead decisions", looked, f"{ratio:,.0f}x the kernel alone")
    _row(table, "planner kernel alone, same states", alone, "reference")


def main(quick: bool = False) -> None:
    console = Console()
    config = {"speed": "high", "max_stages": 3 if quick else 100}
    seeds = range(1 if quick else 4)
    cfg = GAME.check_config(config)

    table = Table(title="yoshis_cookie: planning time per decision (ms)")
    for col in ("bot", "decisions", "median", "p90", "max", "target"):
        table.add_column(col, justify="right" if col != "bot" else "left")
    all_plans = {}
    for name in ("greedy", "planner"):
        states, plans = _decisions(name, seeds, config)
        all_plans[name] = plans
        times = _planning(name, states)
        big = [t for t, st in zip(times, states, strict=True) if st.R * st.C >= 25]
        for label, sample in ((name, times), (f"{name} (matrix >= 25 cells)", big)):
            if not sample:
                continue
            ms = sorted(t * 1000 for t in sample)
            target = "median <= 2" if name == "greedy" else ""
            _row(table, label, ms, target)
        if name == "planner":
            _look_rows(table, states, times)
    print_fitted(console, table)

    table = Table(title="yoshis_cookie: engine and whole runs (high speed, normal mode)")
    for col in ("measure", "value", "note"):
        table.add_column(col)
    frames = 0
    applied = 0
    start = time.perf_counter()
    for seed, plans in zip(seeds, all_plans["greedy"], strict=True):
        state = GAME.new_state(seed, cfg)
        for plan in plans:
            state.apply(plan)
        frames += state.frame
        applied += len(plans)
    seconds = time.perf_counter() - start
    table.add_row("engine frames / s", f"{frames / seconds:,.0f}", f"{frames:,} frames, {applied} plans replayed")
    table.add_row("engine plans / s", f"{applied / seconds:,.0f}", "event-driven: contacts computed, not stepped")
    for name in ("greedy", "planner"):
        start = time.perf_counter()
        stages = 0
        for seed in seeds:
            state = GAME.new_state(seed, cfg)
            bot = GAME.make_bot(name, cfg, None, seed)
            while not state.is_terminal():
                state.apply(bot.act(state))
            stages += state.result()["stages_attempted"]
        seconds = time.perf_counter() - start
        table.add_row(f"{name} stages / s", f"{stages / seconds:,.1f}", f"{stages} stages, bot + engine")
    print_fitted(console, table)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
