"""Batch evaluation: N seeded games over a ``concurrent.futures.Executor`` with a progress bar.

Results come back in seed order and hold nothing that depends on timing or on the number of workers, so
the same arguments give the same numbers for any ``jobs`` and any executor.
"""

from __future__ import annotations

import ctypes
import itertools
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .runner import play_episode
from .workers import check_executor, default_jobs

if TYPE_CHECKING:
    from .ray_executor import RayExecutor

#: calls submitted ahead per worker: enough to keep every worker busy, few enough that a huge batch streams
IN_FLIGHT_PER_WORKER = 4
#: Linux prctl option: the signal a process gets when the thread that started it exits
PR_SET_PDEATHSIG = 1
#: seconds a stopped pool's workers get to end on SIGTERM before they are killed (a numba kernel ends at once)
STOP_GRACE = 0.5
#: seconds a stopped pool's own threads get to notice its workers are gone
STOP_JOIN = 1.0
#: seconds between looks at whether a stopping pool's thread has dropped its cancelled calls
STOP_POLL = 0.001
#: the signals that stop a run (Ctrl-C, ``kill``)
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def die_with_parent(parent: int) -> None:
    """Worker initializer: on Linux the kernel kills this worker when its parent dies, even by ``kill -9``."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except AttributeError:  # pragma: no cover - not Linux: workers outlive a killed parent there
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the line above took effect
        os._exit(1)


def _start_worker(parent: int, then: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    """A pool worker: dies with its parent, SIGTERM (the pool's own way to stop a worker) ends it at once,
    whatever handler the parent had for it, and Ctrl-C is the parent's to handle (it stops the workers)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    if then is not None:
        then(*args)


class WorkerPool(ProcessPoolExecutor):
    """A process pool of ``workers`` processes that die with this process; ``initializer(*initargs)`` (a
    top-level function) then runs in each worker, as ``ProcessPoolExecutor``'s would."""

    def __init__(
        self, workers: int, initializer: Callable[..., None] | None = None, initargs: tuple[Any, ...] = ()
    ) -> None:
        super().__init__(max_workers=workers, initializer=_start_worker, initargs=(os.getpid(), initializer, initargs))
        self.workers = workers

    def stop_now(self) -> None:
        """Stop at once, busy or not: SIGTERM every worker, SIGKILL the ones still there after ``STOP_GRACE``,
        and let the pool's thread take in the results the workers had sent (their futures are then done).

        ``shutdown`` would wait for each busy worker to finish its call, which can take minutes.

        The pool's thread is told to shut down first, and the workers are stopped once it has dropped the calls
        cancelled before they started (``future.cancel()``: a caller giving up its queued calls). Python 3.11's
        thread, finding a worker gone, fails each call it still holds, and it dies on a cancelled one
        (``InvalidStateError`` in ``terminate_broken``), leaving a queue thread blocked in a pipe write that
        holds up this process's exit for ever.
        """
        processes = list((self._processes or {}).values())
        manager: threading.Thread | None = getattr(self, "_executor_manager_thread", None)
        super().shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + STOP_JOIN
        while manager is not None and manager.is_alive() and time.monotonic() < deadline:
            if not getattr(self, "_cancel_pending_futures", False):  # the thread clears it once it has dropped them
                break
            time.sleep(STOP_POLL)
        for process in processes:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + STOP_GRACE
        for process in processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
        for process in processes:
            process.join(STOP_JOIN)
        if manager is not None:
            manager.join(STOP_JOIN)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """As ``ProcessPoolExecutor.shutdown``, except that giving up the calls (``wait=False,
        cancel_futures=True``: an interrupt, an error) also stops the busy workers (``stop_now``): left to finish
        their calls, they would hold up this process's exit for as long as those take."""
        if not wait and cancel_futures:
            self.stop_now()
        else:
            super().shutdown(wait, cancel_futures=cancel_futures)


def make_executor(
    kind: str = "process", jobs: int | None = None, address: str | None = None
) -> WorkerPool | RayExecutor:
    """The one executor factory: a process pool (default) or Ray (``address`` None starts a local instance)."""
    check_executor(kind, jobs, address)
    if kind == "process":
        return WorkerPool(jobs or default_jobs())
    from .ray_executor import RayExecutor

    return RayExecutor(address=address, num_cpus=None if address else jobs or default_jobs())


def play_one(
    game: str,
    bot: str,
    seed: int,
    config: Mapping[str, Any],
    weights: Sequence[float] | None,
    max_actions: int | None,
) -> dict[str, Any]:
    """One game's result dict; a top-level function so that it pickles into worker processes."""
    return play_episode(game, bot, seed, config, weights, max_actions=max_actions).result


@contextmanager
def signals_held() -> Iterator[None]:
    """Run the block whole: Ctrl-C or SIGTERM arriving in it acts once it ends, so a result is handed on and
    marked handed on together (never twice, never lost). Outside the main thread signals go there anyway."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[signal.Signals] = []
    saved = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
    for sig in STOP_SIGNALS:
        signal.signal(sig, lambda signum, frame: caught.append(signal.Signals(signum)))
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        for signum in caught[:1]:
            handler = saved[signum]
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)


def progress_bar(console: Console | None = None, disable: bool = False) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console or Console(stderr=True),
        disable=disable,
        transient=False,
    )


def run_tasks(
    fn: Callable[..., Any],
    arg_tuples: Iterable[tuple[Any, ...]],
    *,
    total: int | None = None,
    jobs: int | None = None,
    executor: str = "process",
    address: str | None = None,
    description: str = "games",
    progress: bool = True,
    on_result: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """Run ``fn(*args)`` for every tuple, in parallel, and return the results in input order.

    ``arg_tuples`` is consumed lazily, a few calls per worker ahead, so a long batch never holds more than
    its results; ``total`` (default: its length) sizes the progress bar.
    ``jobs == 1`` with the process executor runs in this process (no pool start-up, easy profiling).
    ``on_result(index, value)`` is called as each result arrives (used to checkpoint partial work); an exception
    it raises ends the batch at once (the running calls are dropped) and reaches the caller.
    """
    if total is None:
        total = len(arg_tuples) if isinstance(arg_tuples, Sequence) else None
    results: dict[int, Any] = {}
    if total == 0:
        return []
    with progress_bar(disable=not progress) as bar:
        task = bar.add_task(description, total=total)

        def arrived(i: int, value: Any) -> None:
            results[i] = value
            if on_result is not None:
                on_result(i, value)
            bar.advance(task)

        if executor == "process" and (jobs or default_jobs()) == 1:
            check_executor(executor, jobs, address)
            for i, args in enumerate(arg_tuples):
                value = fn(*args)
                with signals_held():
                    arrived(i, value)
        else:
            pool = make_executor(executor, jobs, address)
            running: dict[Future[Any], int] = {}
            todo = enumerate(arg_tuples)
            try:
                while True:
                    room = IN_FLIGHT_PER_WORKER * pool.workers - len(running)
                    for i, args in itertools.islice(todo, max(0, room)):
                        running[pool.submit(fn, *args)] = i
                    if not running:
                        break
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for fut in done:
                        with signals_held():
                            arrived(running[fut], fut.result())
                            del running[fut]
            except BaseException:  # Ctrl-C, a failed call, or ``on_result`` calling a halt: nothing more is wanted
                with signals_held():
                    pool.shutdown(wait=False, cancel_futures=True)
                    for fut, i in running.items():  # finished before the stop: handed on, not lost
                        # (not again where ``on_result`` itself raised while it was handed on)
                        if i not in results and fut.done() and not fut.cancelled() and fut.exception() is None:
                            arrived(i, fut.result())
                raise
            pool.shutdown(wait=True)
    return [results[i] for i in range(len(results))]


def evaluate(
    game: str,
    bot: str,
    seeds: Sequence[int],
    config: Mapping[str, Any] | None = None,
    weights: Sequence[float] | None = None,
    *,
    jobs: int | None = None,
    executor: str = "process",
    address: str | None = None,
    max_actions: int | None = None,
    progress: bool = True,
    description: str | None = None,
    done: Mapping[int, dict[str, Any]] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play ``bot`` once per seed and return the result dicts in seed order.

    ``seeds`` may be a ``range``: the games stream through the pool, only their results are kept.
    ``done`` maps seeds already played (a resumed run) to their results; only the others are played.
    ``on_result`` sees each new result as it arrives.
    """
    done = dict(done or {})
    cfg = dict(config or {})
    w = list(weights) if weights is not None else None
    todo = [s for s in seeds if s not in done] if done else seeds

    def _arrived(i: int, result: dict[str, Any]) -> None:
        done[todo[i]] = result
        if on_result is not None:
            on_result(result)

    run_tasks(
        play_one,
        ((game, bot, s, cfg, w, max_actions) for s in todo),
        total=len(todo),
        jobs=jobs,
        executor=executor,
        address=address,
        description=description or f"{game}/{bot}",
        progress=progress,
        on_result=_arrived,
    )
    return [done[s] for s in seeds]
