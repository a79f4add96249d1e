"""Hatris speed: the searcher's decisions per second (one core, median over >= 1000 decisions, with helpers
available), the expectimax bot's beside the searcher's on the same positions, and engine spawns per second
without search (the random bot).

Run: python benchmarks/bench_hatris.py [--quick]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from rich.console import Console
from rich.table import Table

from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.games.hatris.bots import expectimax
from puzzlebots.games.hatris.bots.random import RandomBot
from puzzlebots.games.hatris.bots.searcher import Searcher, default_weights
from puzzlebots.games.hatris.config import Rules
from puzzlebots.games.hatris.engine import HatrisState


def _decision_times(decisions: int, forced_pool: list[int] | None) -> tuple[list[float], int]:
    """Time every searcher decision of consecutive games (seeds 0, 1, ...); with ``forced_pool`` each
    decision is searched as if that pool were on hand (the move played is the real one)."""
    rules = Rules({})
    bot = Searcher(rules, default_weights())
    times: list[float] = []
    with_helper = 0
    seed = 0
    while len(times) < decisions:
        state = HatrisState(seed, rules)
        seed += 1
        while not state.is_terminal() and len(times) < decisions:
            assert state.current is not None
            probe = state
            if forced_pool is not None:
                probe = state.clone()
                probe.pool = list(forced_pool)
            start = time.perf_counter()
            bot.act(probe)
            times.append(time.perf_counter() - start)
            with_helper += bool(probe.pool)
            state.apply(bot.act(state))
    return times, with_helper


def _full_field_times(decisions: int) -> list[float]:
    """Worst case: 6 piles of 8 random hats each (461 Alexey removals at each step), pool [Alexey, Alexey]."""
    rng = random.Random(0)
    rules = Rules({})
    bot = Searcher(rules, default_weights())
    times = []
    for _ in range(decisions):
        state = HatrisState(0, rules)
        state.piles = [[rng.choice([1, 4, 6, 5]) for _ in range(8)] for _ in range(6)]
        state.current = (rng.randint(1, 6), rng.randint(1, 6))
        state.next = (rng.randint(1, 6), rng.randint(1, 6))
        state.pool, state.bars = [0, 0], [0, 0]
        start = time.perf_counter()
        bot.act(state)
        times.append(time.perf_counter() - start)
    return times


def searcher_table(quick: bool) -> Table:
    n = 50 if quick else 3000
    Searcher(Rules({}), default_weights()).act(HatrisState(0, {}))  # compile outside the timing
    table = Table(title=f"Hatris searcher: decisions per second, one core ({n:,} decisions per row)")
    for col in ("pool searched", "decisions with a helper", "median ms", "p90 ms", "median decisions/s"):
        table.add_column(col, justify="right")
    cases: list[tuple[str, list[int] | None]] = [
        ("the game's own", None),
        ("[Vladimir]", [1]),
        ("[Alexey]", [0]),
        ("[Alexey, Alexey]", [0, 0]),
    ]
    for label, pool in cases:
        times, with_helper = _decision_times(n, pool)
        med = statistics.median(times)
        p90 = statistics.quantiles(times, n=10)[-1]
        table.add_row(label, f"{with_helper:,}", f"{med * 1e3:.3f}", f"{p90 * 1e3:.3f}", f"{1 / med:,.0f}")
    times = _full_field_times(n)
    med = statistics.median(times)
    p90 = statistics.quantiles(times, n=10)[-1]
    table.add_row(
        "[Alexey, Alexey], 8 hats per pile", f"{n:,}", f"{med * 1e3:.3f}", f"{p90 * 1e3:.3f}", f"{1 / med:,.0f}"
    )
    return table


def _bot_times(bot: Searcher, states: list[HatrisState]) -> list[float]:
    """CPU seconds of each decision (process time: a long decision on a shared machine is preempted, and wall
    time would count the other processes' turns)."""
    times = []
    for state in states:
        start = time.process_time()
        bot.act(state)
        times.append(time.process_time() - start)
    return times


def expectimax_table(quick: bool) -> Table:
    """expectimax against the searcher (the reference) on the same positions: every 7th position of the
    searcher's own games from seed 0 (so later levels, with all six hat types, are in), each position also
    searched with a pool of two Alexeys."""
    n = 10 if quick else 400
    rules = Rules({})
    searcher = Searcher(rules, default_weights())
    states: list[HatrisState] = []
    seed = 0
    while len(states) < n:
        state = HatrisState(seed, rules)
        seed += 1
        while not state.is_terminal() and len(states) < n:
            if state.spawns % 7 == 0:
                states.append(state.clone())
            state.apply(searcher.act(state))
    alexeys = []
    for state in states:
        probe = state.clone()
        probe.pool = [0, 0]
        alexeys.append(probe)
    table = Table(
        title=f"Hatris expectimax (keep {expectimax.KEEP}) and the searcher: the same {n:,} positions, "
        "one core, CPU time"
    )
    for col in ("bot", "pool searched", "median ms", "p90 ms", "median decisions/s", "time vs searcher"):
        table.add_column(col, justify="right")
    bots = [Searcher(rules, default_weights()), expectimax.Expectimax(rules, expectimax.default_weights())]
    for bot in bots:
        bot.act(states[0])  # compile outside the timing
    for label, probes in (("the game's own", states), ("[Alexey, Alexey]", alexeys)):
        meds = []
        for bot in bots:
            times = _bot_times(bot, probes)
            med = statistics.median(times)
            meds.append(med)
            p90 = statistics.quantiles(times, n=10)[-1]
            table.add_row(
                bot.name, label, f"{med * 1e3:.3f}", f"{p90 * 1e3:.3f}", f"{1 / med:,.0f}", f"{med / meds[0]:.1f}x"
            )
    return table


def engine_table(quick: bool) -> Table:
    games = 5 if quick else 400
    table = Table(title=f"Hatris engine without search: random bot, {games} games, one core")
    for col in ("pairs", "spawns", "seconds", "spawns/s"):
        table.add_column(col, justify="right")
    for source in ("nes", "uniform"):
        rules = Rules({"pair_source": source})
        spawns = 0
        start = time.perf_counter()
        for seed in range(games):
            state = HatrisState(seed, rules)
            bot = RandomBot(seed)
            while not state.is_terminal():
                state.apply(bot.act(state))
            spawns += state.spawns
        seconds = time.perf_counter() - start
        table.add_row(source, f"{spawns:,}", f"{seconds:.2f}", f"{spawns / seconds:,.0f}")
    return table


def main(quick: bool = False) -> None:
    console = Console()
    print_fitted(console, searcher_table(quick))
    print_fitted(console, expectimax_table(quick))
    print_fitted(console, engine_table(quick))


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
