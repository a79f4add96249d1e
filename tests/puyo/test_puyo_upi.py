"""UPI both ways (``upi``): our engine played through the host side gives the in-process bot's games, and an
external engine that crashes, hangs, talks nonsense or plays an illegal move loses that game with a one-line
reason while the next game goes on, its whole process group gone. The fake engines are small real scripts."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from puzzlebots.cli import cli
from puzzlebots.core.errors import InputError
from puzzlebots.core.seeds import bot_seed
from puzzlebots.games.puyo.cli import versus_bot, versus_config, versus_game
from puzzlebots.games.puyo.engine import Field
from puzzlebots.games.puyo.frame_versus import FrameVersus
from puzzlebots.games.puyo.game import GAME as PUYO
from puzzlebots.games.puyo.upi import close_bot, field_of_pfen, pairs_of_queue, pfen, queue_text

CONFIG = versus_config(PUYO, 2, upi_ms=100, upi_grace_ms=400)
#: an engine's move budget far out of a busy machine's reach: a fault that is not a hang is then told by what the
#: engine does, never by a slow answer running into the half second
PATIENT = versus_config(PUYO, 2, upi_ms=100, upi_grace_ms=600_000)
#: seconds a wait for what must happen may last (a hang guard, not a budget)
HANG_GUARD = 120.0
#: placements of both sides the builder's game through UPI is compared for (ten of the builder's)
BUILDER_MOVES = 20
#: the builder's search, small (about a tenth of a second a move where the default takes a second)
SMALL_BUILDER = {"builder_width": 20, "builder_depth": 6, "builder_futures": 2}

#: a fake engine: the handshake, then per ``go`` what ``ANSWER`` does; it starts a sleeping child first (so the
#: test sees the process group killed) and writes both process ids to the file named in argv[1]
FAKE = """
import os, subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
open(sys.argv[1], "w").write(f"{os.getpid()} {child.pid}")
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "upi":
        print("id name fake"); print("upiok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        ANSWER
"""
ANSWERS = {
    "crash": ("sys.exit(3)", "engine exited (code 3) before bestmove"),
    "hang": ("time.sleep(600)", "engine gave no bestmove within 0.5 s"),
    "nonsense": ("print('hello there', flush=True)", "engine said 'hello there' where bestmove was expected"),
    "illegal": ("print('bestmove 3 4', flush=True)", "illegal move (3, 4)"),
}


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def test_pfen_and_queues_read_back() -> None:
    field = Field.from_rows(["..YRGG", "YBBYRB", "RBYRGG", "RYGBRY"])
    text = pfen(field)
    assert text == "rry/ybb/gyby/bryr/rgrg/ygbg/"
    assert field_of_pfen(text).rows() == field.rows()
    assert pfen(field_of_pfen("//////")) == "//////"
    assert pairs_of_queue(queue_text([(1, 2), (3, 4)])) == [(1, 2), (3, 4)]
    for bad in ("r/g/b/y/o/", "r/g/b/y/o/x/", "rrrrrrrrrrrrrr/////"):
        with pytest.raises(InputError):
            field_of_pfen(bad)


def engine_spec(bot: str, seed: int, *options: str) -> str:
    """``upi:COMMAND`` for our own engine playing ``bot`` with the bot seed ``versus_game`` gives side 0."""
    command = [sys.executable, "-m", "puzzlebots", "puyo", "upi", "--bot", bot, "--seed", str(bot_seed(seed, 0))]
    return "upi:" + shlex.join([*command, *options])


@pytest.mark.parametrize("clock", ["frames", "turns"])
def test_our_engine_through_the_host_plays_the_in_process_bots_games(clock: str) -> None:
    seed = 3
    config = {**CONFIG, "versus_clock": clock, "upi_ms": 1000, "upi_grace_ms": 600_000}
    through_upi = versus_game(PUYO, engine_spec("krieg3", seed), "krieg", seed, config, 500)
    in_process = versus_game(PUYO, "krieg3", "krieg", seed, config, 500)
    assert through_upi == in_process
    assert not in_process.get("reason")


def first_moves(spec: str, seed: int, config: dict, moves: int) -> tuple[list[tuple[int, int, tuple]], dict]:
    """The first ``moves`` placements (side, frame, placement) of a frame-clock game of ``spec`` against krieg,
    and its result so far. The game is 500 turns long, as a whole one is: a bot that reads the turns left
    (``remaining``, which UPI does not carry) must not see an end near."""
    bots = [versus_bot(PUYO, spec, config, bot_seed(seed, 0)), versus_bot(PUYO, "krieg", config, bot_seed(seed, 1))]
    game = FrameVersus(seed, config, 500)
    log: list[tuple[int, int, tuple]] = []
    try:
        while len(log) < moves and (turn := game.advance()) is not None:
            side, frame = turn
            action = bots[side].act(game.players[side])
            game.place(side, action, frame)
            log.append((side, frame, tuple(action)))
    finally:
        for bot in bots:
            close_bot(bot)
    return log, game.result()


@pytest.mark.slow
def test_our_builder_through_the_host_makes_the_in_process_builders_moves() -> None:
    """The builder for its first moves, which already tell a lost seed or a field that reads back differently
    through the protocol; the cheap bot above plays whole games. Its search is made small on both sides (the
    engine's by its options): two futures of random pairs past the visible ones still draw on its seed."""
    seed = 3
    config = {**CONFIG, "versus_clock": "frames", "upi_ms": 1000, "upi_grace_ms": 600_000, **SMALL_BUILDER}
    options = [f"--{key.replace('_', '-')}={value}" for key, value in SMALL_BUILDER.items()]
    through_upi = first_moves(engine_spec("builder", seed, *options), seed, config, BUILDER_MOVES)
    in_process = first_moves("builder", seed, config, BUILDER_MOVES)
    assert through_upi == in_process
    assert len(through_upi[0]) == BUILDER_MOVES


@pytest.mark.parametrize("option", ["--builder-width=0", "--builder-depth=51", "--builder-futures=x"])
def test_a_search_size_out_of_range_is_one_error_line(option: str) -> None:
    result = CliRunner().invoke(cli, ["puyo", "upi", option], input="upi\n")
    assert result.exit_code == 2 and result.output.count("error:") == 1 and "upiok" not in result.output, result.output


@pytest.mark.parametrize("fault", sorted(ANSWERS))
def test_a_failing_engine_loses_with_one_line_and_leaves_no_process(tmp_path: Path, fault: str) -> None:
    answer, reason = ANSWERS[fault]
    script = tmp_path / "engine.py"
    script.write_text(FAKE.replace("ANSWER", answer))
    pids = tmp_path / "pids"
    spec = "upi:" + shlex.join([sys.executable, str(script), str(pids)])
    config = CONFIG if fault == "hang" else PATIENT  # the hang's fake sleeps 600 s: it outlasts 0.5 s on any machine
    for seed in (0, 1):  # the match goes on: the next game is played (and lost) the same way
        for side, (a, b) in enumerate(((spec, "krieg"), ("krieg", spec))):
            r = versus_game(PUYO, a, b, seed, config, 50)
            assert r["winner"] == 1 - side
            assert reason in r["reason"] and "\n" not in r["reason"]
            assert not any(alive(int(p)) for p in pids.read_text().split())
    assert versus_game(PUYO, "krieg", "krieg3", 0, CONFIG, 50)["reason"] == ""


def test_an_engine_that_cannot_start_loses(tmp_path: Path) -> None:
    r = versus_game(PUYO, f"upi:{tmp_path / 'no-such-engine'}", "krieg", 0, CONFIG, 50)
    assert r["winner"] == 1 and "could not start" in r["reason"]


def test_an_interrupted_host_leaves_no_engine_behind(tmp_path: Path) -> None:
    """Ctrl-C in the middle of a game: the host ends the engine's process group on its way out."""
    import signal
    import subprocess
    import time

    script = tmp_path / "engine.py"
    script.write_text(FAKE.replace("ANSWER", "time.sleep(600)"))
    pids = tmp_path / "pids"
    spec = "upi:" + shlex.join([sys.executable, str(script), str(pids)])
    host = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import sys\n"
                "from puzzlebots.games.puyo.cli import versus_config, versus_game\n"
                "from puzzlebots.games.puyo.game import GAME\n"
                "versus_game(GAME, sys.argv[1], 'krieg', 0, versus_config(GAME, 2, upi_ms=600000), 50)\n"
            ),
            spec,
        ],
        stderr=subprocess.DEVNULL,
    )
    try:
        while not (pids.exists() and len(pids.read_text().split()) == 2):  # the engine is up (counted, not timed)
            assert host.poll() is None
            time.sleep(0.05)
        engine = [int(p) for p in pids.read_text().split()]
        assert all(alive(p) for p in engine)
        time.sleep(0.5)  # let the host reach its wait for bestmove
        host.send_signal(signal.SIGINT)
        host.wait(HANG_GUARD)
    finally:
        if host.poll() is None:
            host.kill()
    deadline = time.monotonic() + HANG_GUARD  # the engine's group is ended: wait for that (a hang guard)
    while any(alive(p) for p in engine) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(p) for p in engine)
