"""UPI, the text protocol of Puyo engines (morioprog/nova ``upi/src/upi.rs``), both ways.

The host writes ``upi`` (the engine answers ``id name ...``, ``id author ...``, ``upiok``), ``isready``
(``readyok``), ``upinewgame``, then per move ``position`` with 14 fields and ``go MS`` (the engine answers
``bestmove X R``), and ``gameover win|lose`` at the end. The 14 fields are, for the side to move and then the
other side: the board in pfen (columns 1-6, each bottom-up in ``rgbyo``, each closed by ``/``), the queue (the
current and next pairs, axis then child colour), the frame, the carried-over score, the fixed garbage, the
incoming garbage and the link of the chain in progress.

``EngineBot`` is the host: an external engine started as a process (``upi:COMMAND``, split like a shell line,
never run by a shell) that plays as a bot; a crash, a hang past ``go`` plus the grace time, a line that is not
``bestmove`` or an illegal move loses that game with a one-line reason, and its process group is killed when
the game ends. ``serve`` is the engine: one of our bots answering on stdin/stdout.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from puzzlebots.core.errors import InputError

from .engine import Field, Pair
from .frame_versus import EngineFault
from .rules import COLOUR_LETTERS, GARBAGE, ROWS, WIDTH

PREFIX = "upi:"
LETTERS = COLOUR_LETTERS[1:].lower()  # colour 1..5 -> r g b y p
#: seconds an engine may take to start and answer ``upi`` and ``isready`` (where it may compile or load)
START_SECONDS = 300.0
#: how often a wait for the engine looks whether it is still running
POLL_SECONDS = 0.02


def pfen(field: Field) -> str:
    """The board in pfen: every column bottom-up, each closed by ``/``."""
    out = []
    for x in range(WIDTH):
        col = field.cells[x, : int(field.heights[x])]
        out.append("".join("o" if c == GARBAGE else LETTERS[int(c) - 1] for c in col) + "/")
    return "".join(out)


def field_of_pfen(text: str, reach: str = "strict") -> Field:
    """A field from pfen; ``InputError`` if it is not one."""
    cols = text.split("/")
    if len(cols) != WIDTH + 1 or cols[-1] != "":
        raise InputError(f"upi: a pfen board has 6 columns each closed by '/', got {text!r}")
    rows = []
    for y in range(ROWS):
        row = ""
        for col in cols[:WIDTH]:
            if len(col) > ROWS:
                raise InputError(f"upi: a pfen column holds at most {ROWS} puyos, got {col!r}")
            ch = col[y].lower() if y < len(col) else "."
            if ch != "." and ch != "o" and ch not in LETTERS:
                raise InputError(f"upi: unknown puyo {ch!r} in pfen {text!r}")
            row += "o" if ch == "o" else "." if ch == "." else COLOUR_LETTERS[LETTERS.index(ch) + 1]
        rows.append(row)
    return Field.from_rows(list(reversed(rows)), reach)


def queue_text(pairs: Iterable[Pair]) -> str:
    return "".join(LETTERS[a - 1] + LETTERS[c - 1] for a, c in pairs)


def pairs_of_queue(text: str) -> list[Pair]:
    if not text or len(text) % 2 or any(ch not in LETTERS for ch in text.lower()):
        raise InputError(f"upi: a queue is pairs of colour letters rgby, got {text!r}")
    t = text.lower()
    return [(LETTERS.index(t[i]) + 1, LETTERS.index(t[i + 1]) + 1) for i in range(0, len(t), 2)]


def side_fields(view: Any, frame: int) -> list[str]:
    """The 7 position fields of one side (a ``frame_versus.SideView``)."""
    return [
        pfen(view.field),
        queue_text(view.pairs),
        str(frame),
        str(view.carry),
        str(view.fixed),
        str(view.incoming),
        str(view.chain),
    ]


def position_line(state: Any) -> str:
    """The ``position`` line for the side to move: ``state`` is a ``FramePlayer`` (both sides, the clock) or
    any bot state (a turn-based player: the other side is sent as an empty board with the same queue)."""
    if hasattr(state, "observe"):
        obs = state.observe()
        return " ".join(["position", *side_fields(obs.me, obs.frame), *side_fields(obs.other, obs.frame)])
    pending = int(getattr(state, "pending", 0))
    me = [
        pfen(state.field),
        queue_text(state.next_pairs()),
        "0",
        str(getattr(state, "remainder", 0)),
        str(pending),
        "0",
        "0",
    ]
    other = ["//////", queue_text(state.next_pairs()), "0", "0", "0", "0", "0"]
    return " ".join(["position", *me, *other])


class EngineBot:
    """An external UPI engine as a bot; ``close`` ends its process group."""

    def __init__(self, command: str | Sequence[str], config: Mapping[str, Any], name: str | None = None) -> None:
        """``command``: a shell-like line to split, or the program and its arguments already split."""
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.argv:
            raise InputError("upi: the engine command is empty (use upi:COMMAND)")
        self.name = name or PREFIX + shlex.join(self.argv)
        # ``think_ms``: the equal think time a match runner gives every bot, where it sets one
        self.think_ms = int(config.get("think_ms") or config.get("upi_ms", 1000))
        self.grace = int(config.get("upi_grace_ms", 2000)) / 1000
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.started = False

    # -- the process --------------------------------------------------------------------------------
    def start(self) -> None:
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
                start_new_session=True,
                preexec_fn=die_with_parent,
            )
        except OSError as error:
            raise EngineFault(f"engine {self.argv[0]!r} could not start: {error.strerror or error}") from None
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()
        self.send("upi")
        self.expect(lambda line: line == "upiok", START_SECONDS, "upiok", ("id ",))
        self.send("isready")
        self.expect(lambda line: line == "readyok", START_SECONDS, "readyok")
        self.send("upinewgame")
        self.started = True

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineFault(self._exited("before reading " + line.split()[0])) from None

    def _exited(self, when: str) -> str:
        code = self.proc.poll() if self.proc is not None else None
        if code is None and self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.proc.wait(0.5)
        return f"engine exited (code {code}) {when}"

    def expect(self, ok: Callable[[str], bool], seconds: float, what: str, skip: Sequence[str] = ()) -> str:
        """The next line that ``ok`` accepts, skipping blank, ``info`` and ``skip`` lines; a fault otherwise."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                line = self.lines.get(timeout=POLL_SECONDS)
            except queue.Empty:
                # a child the engine started may hold its output open after it died: ask the process itself
                if self.proc is not None and self.proc.poll() is not None and self.lines.empty():
                    raise EngineFault(self._exited(f"before {what}")) from None
                if time.monotonic() >= deadline:
                    raise EngineFault(f"engine gave no {what} within {seconds:g} s") from None
                continue
            if line is None:
                raise EngineFault(self._exited(f"before {what}"))
            if not line or line.startswith("info") or line.startswith(tuple(skip)):
                continue
            if ok(line):
                return line
            raise EngineFault(f"engine said {line[:60]!r} where {what} was expected")

    # -- the bot --------------------------------------------------------------------------------------
    def act(self, state: Any) -> tuple[int, int]:
        if not self.started:
            self.start()
        self.send(position_line(state))
        self.send(f"go {self.think_ms}")
        line = self.expect(lambda s: s.split()[:1] == ["bestmove"], self.think_ms / 1000 + self.grace, "bestmove")
        parts = line.split()
        if len(parts) != 3 or not all(p.isdigit() for p in parts[1:]):
            raise EngineFault(f"engine said {line[:60]!r}: bestmove takes X R (two whole numbers)")
        return int(parts[1]), int(parts[2])

    def target_cells(self) -> list[tuple[int, int, int]]:
        return []

    def close(self, outcome: str | None = None) -> None:
        """Tell the engine the game's outcome (``win``/``lose`` from its side) and end its process group."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if outcome and proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(f"gameover {outcome}\nquit\n")
                proc.stdin.flush()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(5)
        deadline = time.monotonic() + 5
        while group_alive(proc.pid) and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)  # the engine's own children die a moment after the signal
        for stream in (proc.stdin, proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()


def die_with_parent() -> None:
    """In the engine's process, before it runs: on Linux, be killed when the host dies, even by SIGKILL (where the
    host cannot kill the group itself)."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def group_alive(pgid: int) -> bool:
    """Whether a live (not zombie) process of process group ``pgid`` remains (read from /proc; False without)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == pgid and fields[0] != "Z":
                return True
    return False


def close_bot(bot: Any, outcome: str | None = None) -> None:
    """End an external engine (nothing for our own bots)."""
    if isinstance(bot, EngineBot):
        bot.close(outcome)


# -- the engine side ----------------------------------------------------------------------------------
class PositionState:
    """A ``position`` line seen as a bot state: our side's field, queue and pending garbage."""

    #: pairs left in the game: unknown over UPI, so "many" (a bot only caps its search by it)
    REMAINING = 10**6

    def __init__(self, fields: Sequence[str], reach: str) -> None:
        self.field = field_of_pfen(fields[0], reach)
        self.pairs = pairs_of_queue(fields[1])
        numbers = [fields[i] for i in (2, 3, 4, 5, 6)]
        if not all(n.isdigit() for n in numbers):
            raise InputError(f"upi: position fields 3-7 are whole numbers, got {numbers}")
        self.remainder = int(fields[3])
        self.pending = int(fields[4]) + int(fields[5])
        self.index = 0

    def current(self) -> Pair:
        return self.pairs[0]

    def next_pairs(self) -> list[Pair]:
        return list(self.pairs)

    def remaining(self) -> int:
        return self.REMAINING


def warm_up(bot: Any, reach: str) -> None:
    """One move of a throwaway bot on an empty field, so that the first ``go`` does not pay for compiling."""
    bot.act(PositionState(["//////", "rgby", "0", "0", "0", "0", "0"], reach))


def serve(make_bot: Callable[[], Any], reach: str, name: str, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> None:
    """Answer UPI on ``stdin``/``stdout`` with the bot ``make_bot`` makes (a new one per ``upinewgame``);
    a line it cannot use is reported on ``stderr`` in one line and skipped. Ends at ``quit`` or end of input."""

    def say(line: str) -> None:
        stdout.write(line + "\n")
        stdout.flush()

    bot = make_bot()
    state: PositionState | None = None
    for raw in stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        try:
            if cmd == "upi":
                say(f"id name puzzlebots {name}")
                say("id author puzzlebots")
                say("upiok")
            elif cmd == "isready":
                warm_up(make_bot(), reach)  # compiles the bot's kernels before the clock runs
                say("readyok")
            elif cmd == "upinewgame":
                bot = make_bot()
                state = None
            elif cmd == "position":
                if len(words) != 15:
                    raise InputError(f"upi: position takes 14 fields, got {len(words) - 1}")
                state = PositionState(words[1:8], reach)
            elif cmd == "go":
                if state is None:
                    raise InputError("upi: go before any position")
                x, r = bot.act(state)
                say(f"bestmove {x} {r}")
            elif cmd == "quit":
                return
            elif cmd != "gameover":
                raise InputError(f"upi: unknown command {cmd!r}")
        except InputError as error:
            stderr.write(f"error: {error}\n")
            stderr.flush()
