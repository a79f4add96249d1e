"""Compile the numba kernels once, at install (`make install` runs this), so that a fresh clone's first
`make demo`, `make test`, `watch` or page step loads them from numba's on-disk cache instead of compiling them
while a user waits (a first Puyo `builder` decision compiles for about 20 s; it then loads in about a second).

It plays two decisions of every bot of every game with seeded episodes, a few versus turns of Puyo, and the
Cargo-Bot searches on a Tutorial level, through the command line; then it calls once the Puyo field kernels that
Python calls directly (the opponent reading of ``duelist``, garbage on the grid, and the differential tests, which
compare the bitboard kernel with the grid kernel call by call). The games are split into two lanes run side by
side in two processes (a kernel compiles on one core; the two lanes took 189 s and 167 s of the 354 s one process
took). Run: python scripts/warm_kernels.py (both lanes) or python scripts/warm_kernels.py GAME... (one lane).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

from puzzlebots.core.protocols import Episodic
from puzzlebots.core.registry import loadable_games
from puzzlebots.core.runner import play_episode

#: decisions per bot: the first compiles what the bot's search calls, the second what a changed state reaches
ACTIONS = 2
#: the Cargo-Bot searches, each on a Tutorial level and stopped early (their kernels compile on the first call)
CARGOBOT = [
    ["solve", "--level", "Cargo 101", "--jobs", "1"],
    ["run", "--level", "Cargo 101", "--program", "claw R claw L"],
    ["climb", "--level", "Cargo 101", "--max-iterations", "50"],
    ["climb", "--level", "Cargo 101", "--semantics", "game", "--max-iterations", "50"],
    ["evolve", "--level", "Cargo 101", "--evaluations", "40", "--population", "10"],
    ["sketch", "--level", "Cargo 101", "--time-limit", "1", "--jobs", "1"],
]
#: the games the first lane compiles; the second compiles every other game (each game's kernels in one process)
FIRST_LANE = ("puyo", "yoshis_cookie")
PUYO_VERSUS = ["puyo", "versus", "--bots", "beam,krieg", "--games", "1", "--max-turns", "4", "--jobs", "1"]


def warm_episodes(games: set[str]) -> None:
    for game in loadable_games():
        if game.name not in games or not isinstance(game, Episodic):
            continue
        config = game.check_config({})
        for bot in game.bots():
            start = time.monotonic()
            play_episode(game, bot.name, 0, config, None, max_actions=ACTIONS)
            print(f"  {game.name} {bot.name}: {time.monotonic() - start:.1f} s", flush=True)


def warm_commands(games: set[str]) -> None:
    commands = [PUYO_VERSUS, *(["cargobot", *a] for a in CARGOBOT)]
    for args in [a for a in commands if a[0] in games]:
        start = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "puzzlebots", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
        )
        if done.returncode != 0:
            sys.exit(f"warm-up: puzzlebots {' '.join(args)} failed:\n{done.stderr}")
        print(f"  {' '.join(args[:2])}: {time.monotonic() - start:.1f} s", flush=True)


def warm_puyo_field_kernels() -> None:
    """One call of each Puyo field kernel Python calls directly, on a small field (a chain and garbage)."""
    import numpy as np

    from puzzlebots.games.puyo.kernels import bitboard, field, placements
    from puzzlebots.games.puyo.rules import ROWS, VISIBLE_ROWS, WIDTH

    start = time.monotonic()
    cells, heights = np.zeros((WIDTH, ROWS), np.uint8), np.zeros(WIDTH, np.int64)
    cells[0, :3], cells[1, :2], heights[:2] = 1, 2, (3, 2)
    board = bitboard.new_field()
    bitboard.encode(cells, board)
    bitboard.decode(board, cells.copy(), heights.copy())
    stats, pos = np.zeros(3, np.int64), np.zeros(4, np.int64)
    bitboard.count(*bitboard.occupied(board))
    bitboard.height(board, 0), bitboard.cell(board, 0, 0), bitboard.group_size(board, 0, 0)
    field.group_size(cells, 0, 0)
    bitboard.play_pair(board.copy(), 0, 1, 1, pos, stats)
    placements.play_pair(cells.copy(), heights.copy(), 0, 1, 1, pos, stats)
    placements.drop_pair(cells.copy(), heights.copy(), 0, 1, 1, pos)
    bitboard.drop_pair(board.copy(), 0, 1, 1, pos)
    bitboard.resolve(board.copy(), stats), field.resolve(cells.copy(), heights.copy(), stats)
    garbage = np.ones(WIDTH, np.int64)
    bitboard.drop_garbage(board.copy(), garbage)
    bitboard.drop_garbage_grid(cells.copy(), heights.copy(), garbage)
    pairs = np.array([[1, 2]], np.int64)
    bitboard.bench_placements(board[None].copy(), pairs, VISIBLE_ROWS - 1)
    placements.bench_placements(cells[None].copy(), pairs, VISIBLE_ROWS - 1)
    bitboard.bench_resolve(board, 1), placements.bench_resolve(cells, heights, 1)
    print(f"  puyo field kernels: {time.monotonic() - start:.1f} s", flush=True)


def warm_yoshis_cookie_look_ahead() -> None:
    """The planner's ranked plans, which it asks for only when falling lines come near (late at high speed, and
    on the page's thinking panel): two decisions from the start never reach them."""
    import numpy as np

    from puzzlebots.games.yoshis_cookie.bots.lines import state_at
    from puzzlebots.games.yoshis_cookie.game import GAME
    from puzzlebots.games.yoshis_cookie.kernels.builder import MAX_MOVES
    from puzzlebots.games.yoshis_cookie.kernels.planner import planner_ranked

    start = time.monotonic()
    config = GAME.check_config({})
    state, bot = GAME.new_state(0, config), GAME.make_bot("planner", config, None, 0)
    outs, lines = np.zeros((2, MAX_MOVES), np.int8), np.zeros((2, 4), np.int64)
    planner_ranked(state.raw_grid, state_at(state), bot.rules, bot.weights, outs, lines)
    print(f"  yoshis_cookie look-ahead kernel: {time.monotonic() - start:.1f} s", flush=True)


def warm_cargobot_seen_table() -> None:
    """The climber's seen set rebuilt as it grows: a long climb reaches it, the short warm-up climbs do not."""
    from puzzlebots.games.cargobot.kernels.climb import Seen

    Seen(1).make_room(0, 2)


def warm(games: set[str]) -> None:
    warm_episodes(games)
    warm_commands(games)
    if "puyo" in games:
        warm_puyo_field_kernels()
    if "yoshis_cookie" in games:
        warm_yoshis_cookie_look_ahead()
    if "cargobot" in games:
        warm_cargobot_seen_table()


def main(games: list[str]) -> None:
    names = [game.name for game in loadable_games()]
    if unknown := set(games) - set(names):
        sys.exit(f"error: no game named {', '.join(sorted(unknown))}; the games are {', '.join(names)}")
    if games:
        warm(set(games))
        return
    start = time.monotonic()
    print("compiling the numba kernels once (cached for every later run), two lanes side by side", flush=True)
    lanes = [[n for n in names if n in FIRST_LANE], [n for n in names if n not in FIRST_LANE]]
    lanes = [lane for lane in lanes if lane]  # an empty lane would be this call again
    procs = [subprocess.Popen([sys.executable, __file__, *lane], env=os.environ.copy()) for lane in lanes]
    failed = [lane for lane, proc in zip(lanes, procs, strict=True) if proc.wait() != 0]
    if failed:
        sys.exit(f"warm-up failed for {', '.join(g for lane in failed for g in lane)}")
    print(f"kernels compiled and cached in {time.monotonic() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
