"""``run_tasks`` stopped hands on every result the workers had sent, each once, and ends
busy workers at once instead of waiting for their calls to finish."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from puzzlebots.core.batch import WorkerPool, run_tasks

QUICK = 4


def quick_or_endless(i: int, marks: str) -> int:
    """Calls below ``QUICK`` return at once; the others mark their worker busy and never return."""
    if i < QUICK:
        return i
    (Path(marks) / f"busy-{i}").write_text(str(os.getpid()))
    while True:
        time.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] not in "ZX"
    except OSError:
        return False


def test_an_interrupt_hands_on_every_result_sent_and_ends_the_busy_workers(tmp_path: Path) -> None:
    handed: list[int] = []

    def on_result(index: int, value: Any) -> None:
        handed.append(value)
        if len(handed) == 1:  # both workers in endless calls: every quick result is sent, most not yet handed on
            deadline = time.monotonic() + 60
            while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
                time.sleep(0.02)
            os.kill(os.getpid(), signal.SIGINT)  # arrives while this result is being handed on

    saved = signal.signal(signal.SIGINT, signal.default_int_handler)  # a background run ignores SIGINT
    try:
        with pytest.raises(KeyboardInterrupt):
            run_tasks(
                quick_or_endless, [(i, str(tmp_path)) for i in range(8)], jobs=2, progress=False, on_result=on_result
            )
    finally:
        signal.signal(signal.SIGINT, saved)
    assert sorted(handed) == list(range(QUICK))  # each once: none lost, none twice
    workers = [int(p.read_text()) for p in tmp_path.iterdir()]
    assert len(workers) == 2 and not any(alive(w) for w in workers)


def test_stopping_a_pool_whose_caller_cancelled_a_queued_call_ends_its_thread_cleanly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A caller gives up its calls (``future.cancel()`` on one not yet started), then stops the pool: the pool's
    thread must end without an error. On Python 3.11 it used to die on the cancelled call when it found the
    workers gone, and the process then never exited (a Restoring Order solve hung after printing its result)."""
    errors: list[str] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: errors.append(args.exc_type.__name__))
    pool = WorkerPool(2)
    # 2 busy, up to 3 queued (started), the last pending: the queue holds one call more than the workers
    futures = [pool.submit(time.sleep, 3600) for _ in range(6)]
    deadline = time.monotonic() + 60  # a hang guard: the workers take the first two at once
    while not all(f.running() for f in futures[:2]) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert futures[5].cancel()
    manager = pool._executor_manager_thread
    assert manager is not None
    pool.stop_now()
    assert not manager.is_alive() and errors == []
    assert all(f.done() for f in futures) and futures[5].cancelled()
