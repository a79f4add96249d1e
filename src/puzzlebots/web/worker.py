"""One page's ``Session`` in a process of its own (``python -m puzzlebots.web.worker``), started by the server.

A bot's work (one numba call can run for minutes) cannot be interrupted inside a thread, but a process can
be killed: the server kills this one when a request runs over its time budget, when the page leaves, and
when the server stops. On Linux the kernel also kills it when the server dies, even by ``kill -9``.

Requests and answers are frames on stdin and on the original stdout: a 4-byte big-endian length, then that
many bytes of UTF-8 JSON; each frame this process sends starts with a byte that says what it is: ``PROGRESS``, a
report of the call running (``WebReporting``: any number of them), or ``ANSWER``, the one answer that ends it.
Anything else printed (by a library, by C code) goes to stderr, so it cannot corrupt a frame. ``STOP_SIGNAL``
from the server (the page said stop) asks the call running to end early; a new request forgets it.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any, BinaryIO

from .session import Session

#: prctl option: the signal this process gets when its parent dies (linux/prctl.h)
PR_SET_PDEATHSIG = 1
LENGTH_BYTES = 4
#: the first byte of a frame this process sends: a progress report of the call running, or its answer
PROGRESS, ANSWER = b"p", b"a"
#: the signal by which the server passes on a page's stop
STOP_SIGNAL = signal.SIGUSR1


def frame(data: bytes) -> bytes:
    return len(data).to_bytes(LENGTH_BYTES, "big") + data


def read_exactly(stream: BinaryIO, size: int) -> bytes | None:
    """``size`` bytes, or None if the server closed the pipe first."""
    data = stream.read(size)
    return data if len(data) == size else None


def die_with_parent(parent: int) -> None:
    """Linux: ask the kernel to kill this process when the server dies; then check the server did not die first."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


class Channel:
    """This process's side of the pipes: frames out, and whether the page said stop to the call running."""

    def __init__(self, answers: BinaryIO) -> None:
        self.answers = answers
        self.stop_asked = False

    def send(self, kind: bytes, text: str) -> None:
        self.answers.write(frame(kind + text.encode("utf-8")))
        self.answers.flush()

    def report(self, update: dict[str, Any]) -> None:
        self.send(PROGRESS, json.dumps(update))

    def stopped(self) -> bool:
        return self.stop_asked

    def on_stop(self, signum: int, stack: Any) -> None:
        self.stop_asked = True


def serve(session: Session, requests: BinaryIO, channel: Channel) -> None:
    """Answer framed requests in order until the server closes the pipe (it also does so by dying)."""
    while (header := read_exactly(requests, LENGTH_BYTES)) is not None:
        body = read_exactly(requests, int.from_bytes(header, "big"))
        if body is None:
            return
        channel.stop_asked = False  # a stop meant for a call that ended before it came
        channel.send(ANSWER, session.reply(body.decode("utf-8", errors="replace")))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m puzzlebots.web.worker")
    parser.add_argument("--parent", type=int, required=True, help="the server's process id")
    parser.add_argument("--replays", type=Path, default=None, help="the replay folder the page may open")
    parser.add_argument(
        "--engines",
        type=json.loads,
        default={},
        help="the operator's external engines, a JSON object of name to program and arguments",
    )
    args = parser.parse_args()
    die_with_parent(args.parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C in the terminal stops the server, which stops us
    channel = Channel(os.fdopen(os.dup(sys.stdout.fileno()), "wb"))
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    signal.signal(STOP_SIGNAL, channel.on_stop)
    engines = {str(name): tuple(str(word) for word in argv) for name, argv in args.engines.items()}
    serve(Session(args.replays, engines, channel.report, channel.stopped), sys.stdin.buffer, channel)


if __name__ == "__main__":
    main()
