"""Duelist's think time per move on the frame clock, beside the frames its placements take (issue 33, item 3).

Plays a few frame-clock games of ``duelist`` against ``krieg3`` (from seed 100,000; the opponent is cheap, so
the machine's cores go to duelist's parallel futures) and times every duelist decision: wall time (what the
clock would charge) and the process's CPU time (summed over numba's threads). Beside it, the frames each chosen
placement takes on the clock (``frames.placement_frames``, nova's numbers) at 60 fps: the think time should stay
under them (its 95th percentile at most a placement's frames). The first decision, which loads the compiled
kernels, is not counted.

Run ``python benchmarks/bench_puyo_duelist.py [--quick]`` or ``puzzlebots bench puyo_duelist``.
"""

from __future__ import annotations

import math
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.core.seeds import bot_seed
from puzzlebots.games.puyo.engine import placement_of
from puzzlebots.games.puyo.frame_versus import play_frames
from puzzlebots.games.puyo.frames import FPS, placement_frames
from puzzlebots.games.puyo.game import GAME
from puzzlebots.games.puyo.rules import PLACEMENTS
from puzzlebots.games.puyo.versus import VERSUS_FIRE_LINKS

FIRST_SEED = 100_000
#: turns of the one game ``--quick`` plays (the smoke test's run, which checks that the script runs, not the figure)
QUICK_TURNS = 6


class Timed:
    """Wraps a bot: the wall and CPU seconds of each decision, and the frames its placement takes."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.frames: list[int] = []

    def act(self, player: Any) -> tuple[int, int]:
        heights = player.field.heights.copy()
        w0, c0 = time.perf_counter(), time.process_time()
        action = self.bot.act(player)
        self.wall.append(time.perf_counter() - w0)
        self.cpu.append(time.process_time() - c0)
        x, r = PLACEMENTS[player.field.check_placement(player.current(), placement_of(action))]
        self.frames.append(placement_frames(heights, x, r))
        return action


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q`` percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def main(quick: bool = False) -> None:
    games = 1 if quick else 4
    turns = QUICK_TURNS if quick else 500  # quick: the table still prints, from the first moves of one game
    config = GAME.check_config({"visible": 2, "beam_fire_links": VERSUS_FIRE_LINKS})
    timed = Timed(GAME.make_bot("duelist", config, None, bot_seed(FIRST_SEED, 0)))
    warm = GAME.make_bot("duelist", config, None, 0)
    play_frames([warm, GAME.make_bot("krieg3", config, None, 1)], FIRST_SEED, config, 2)  # compile/load kernels
    for seed in range(FIRST_SEED, FIRST_SEED + games):
        timed.bot = GAME.make_bot("duelist", config, None, bot_seed(seed, 0))
        play_frames([timed, GAME.make_bot("krieg3", config, None, bot_seed(seed, 1))], seed, config, turns)
    ms_per_frame = 1000 / FPS
    table = Table(
        title=f"duelist think time per move, frame clock ({games} games vs krieg3 from seed {FIRST_SEED}, "
        f"{len(timed.wall)} moves, width {config['duelist_width']}, depth {config['duelist_depth']}, "
        f"futures {config['duelist_futures']})"
    )
    for col in ("figure", "mean ms", "95th pct ms", "max ms"):
        table.add_column(col)
    for name, values in (("think, wall", timed.wall), ("think, CPU (all threads)", timed.cpu)):
        table.add_row(
            name,
            f"{1000 * sum(values) / len(values):.0f}",
            f"{1000 * percentile(values, 0.95):.0f}",
            f"{1000 * max(values):.0f}",
        )
    frames = [f * ms_per_frame for f in timed.frames]
    table.add_row(
        "its placement on the clock",
        f"{sum(frames) / len(frames):.0f}",
        f"5th pct {percentile(frames, 0.05):.0f}",
        f"min {min(frames):.0f}",
    )
    table.caption = (
        f"95th percentile of wall think time {1000 * percentile(timed.wall, 0.95):.0f} ms against the "
        f"shortest placement {min(frames):.0f} ms ({min(timed.frames)} frames at {FPS} fps)"
    )
    print_fitted(Console(), table)


if __name__ == "__main__":
    main(quick="--quick" in sys.argv[1:])
