"""Puyo speed: placements fully resolved per second (one core), a 19-link chain resolve, time per bot decision.

Run ``python benchmarks/bench_puyo.py [--quick]``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from puzzlebots.core.seeds import bot_seed
from puzzlebots.games.puyo.engine import Field
from puzzlebots.games.puyo.game import GAME
from puzzlebots.games.puyo.kernels import placements
from puzzlebots.games.puyo.kernels.field import resolve

CHAIN19 = Path(__file__).parents[1] / "tests" / "data" / "puyo" / "chain19.txt"


def mid_game_fields(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` fields after 5-25 random placements (stable, alive) and a random pair for each."""
    rng = np.random.default_rng(seed)
    fields, pairs = [], []
    while len(fields) < n:
        f = Field()
        for _ in range(int(rng.integers(5, 26))):
            pair = (int(rng.integers(1, 5)), int(rng.integers(1, 5)))
            legal = f.placements(pair)
            if not legal:
                break
            f.play(pair, legal[int(rng.integers(len(legal)))])
        if not f.is_dead():
            fields.append(f.cells.copy())
            pairs.append((int(rng.integers(1, 5)), int(rng.integers(1, 5))))
    return np.array(fields), np.array(pairs, dtype=np.int64)


def bench_placements(quick: bool) -> tuple[int, float]:
    fields, pairs = mid_game_fields(500 if quick else 5000)
    placements.bench_placements(fields[:2], pairs[:2], 11)  # compile
    best = float("inf")
    count = 0
    for _ in range(1 if quick else 5):
        t = time.perf_counter()
        count, _links = placements.bench_placements(fields, pairs, 11)
        best = min(best, time.perf_counter() - t)
    return count, best


def bench_chain19(quick: bool) -> float:
    rows = [line for line in CHAIN19.read_text().splitlines() if line and not line.startswith("#")]
    field = Field.from_rows(rows)
    stats = np.zeros(3, dtype=np.int64)
    cells = np.empty_like(field.cells)
    heights = np.empty_like(field.heights)
    n = 200 if quick else 5000
    cells[:] = field.cells
    heights[:] = field.heights
    assert resolve(cells, heights, stats) == 175_080
    t = time.perf_counter()
    for _ in range(n):
        cells[:] = field.cells
        heights[:] = field.heights
        resolve(cells, heights, stats)
    return (time.perf_counter() - t) / n


def bench_bot(name: str, moves: int) -> float:
    """Mean seconds per decision over a game from seed 0 (``moves`` placements)."""
    config = GAME.check_config({"pairs": moves})
    warm = GAME.make_bot(name, GAME.check_config({"pairs": 3}), None, 1)
    warm_state = GAME.new_state(1, GAME.check_config({"pairs": 3}))
    warm_state.apply(warm.act(warm_state))
    bot = GAME.make_bot(name, config, None, bot_seed(0))
    state = GAME.new_state(0, config)
    n = 0
    t = time.perf_counter()
    while not state.is_terminal():
        state.apply(bot.act(state))
        n += 1
    return (time.perf_counter() - t) / max(n, 1)


def main(quick: bool = False) -> None:
    console = Console()
    count, seconds = bench_placements(quick)
    chain19 = bench_chain19(quick)
    table = Table(title="puyo engine (one core)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("target", justify="right")
    table.add_row("placements fully resolved / s", f"{count / seconds:,.0f}", ">= 1,000,000")
    table.add_row("19-link chain resolve (175,080 points)", f"{chain19 * 1e6:.1f} µs", "")
    console.print(table)
    bots = Table(title="puyo bots: time per decision (solo, seed 0)")
    bots.add_column("bot")
    bots.add_column("moves", justify="right")
    bots.add_column("s / decision", justify="right")
    bots.add_column("target", justify="right")
    for name in ("krieg", "krieg3", "beam"):
        moves = 5 if quick and name == "beam" else (20 if quick else 50)
        bots.add_row(name, str(moves), f"{bench_bot(name, moves):.4f}", "<= 0.5" if name == "beam" else "")
    console.print(bots)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
