"""Batch evaluation: N seeded games over a ``concurrent.futures.Executor`` with a progress bar.

Results come back in seed order and hold nothing that depends on timing or on the number of workers, so
the same arguments give the same numbers for any ``jobs`` and any executor.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .errors import ConfigError
from .runner import play_episode

EXECUTORS = ("process", "ray")


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def make_executor(kind: str = "process", jobs: int | None = None, address: str | None = None) -> Executor:
    """A process pool (default) or a Ray cluster (``address`` None starts a local one)."""
    jobs = jobs or default_jobs()
    if kind == "process":
        return ProcessPoolExecutor(max_workers=jobs)
    if kind == "ray":
        try:
            from .ray_executor import RayExecutor
        except ImportError as exc:  # ray not installed
            raise ConfigError(f"--executor ray needs the [ray] extra ({exc})") from exc
        return RayExecutor(address=address, num_cpus=jobs)
    raise ConfigError(f"unknown executor {kind!r} (choose from {', '.join(EXECUTORS)})")


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
    arg_tuples: Sequence[tuple[Any, ...]],
    *,
    jobs: int | None = None,
    executor: str = "process",
    address: str | None = None,
    description: str = "games",
    progress: bool = True,
    on_result: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """Run ``fn(*args)`` for every tuple, in parallel, and return the results in input order.

    ``jobs == 1`` with the process executor runs in this process (no pool start-up, easy profiling).
    ``on_result(index, value)`` is called as each result arrives (used to checkpoint partial work).
    """
    results: list[Any] = [None] * len(arg_tuples)
    if not arg_tuples:
        return results
    with progress_bar(disable=not progress) as bar:
        task = bar.add_task(description, total=len(arg_tuples))
        if executor == "process" and (jobs or default_jobs()) == 1:
            for i, args in enumerate(arg_tuples):
                results[i] = fn(*args)
                if on_result is not None:
                    on_result(i, results[i])
                bar.advance(task)
            return results
        pool = make_executor(executor, jobs, address)
        futures: dict[Future[Any], int] = {}
        try:
            for i, args in enumerate(arg_tuples):
                futures[pool.submit(fn, *args)] = i
            for fut in as_completed(futures):
                i = futures[fut]
                results[i] = fut.result()
                if on_result is not None:
                    on_result(i, results[i])
                bar.advance(task)
        except BaseException:
            for fut in futures:
                fut.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown(wait=True)
    return results


def evaluate(
    game: str,
    bot: str,
    seeds: Iterable[int],
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

    ``done`` maps seeds already played (a resumed run) to their results; only the others are played.
    ``on_result`` sees each new result as it arrives.
    """
    seeds = list(seeds)
    done = dict(done or {})
    cfg = dict(config or {})
    todo = [s for s in seeds if s not in done]
    args = [(game, bot, s, cfg, list(weights) if weights is not None else None, max_actions) for s in todo]

    def _arrived(i: int, result: Any) -> None:
        if on_result is not None:
            on_result(result)

    fresh = run_tasks(
        play_one,
        args,
        jobs=jobs,
        executor=executor,
        address=address,
        description=description or f"{game}/{bot}",
        progress=progress,
        on_result=_arrived,
    )
    done.update({s: r for s, r in zip(todo, fresh, strict=True)})
    return [done[s] for s in seeds]
