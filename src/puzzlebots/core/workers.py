"""Where a batch's games run and how many at once: the choices every command that plays many games shares.

Kept apart from ``core.batch`` (process pools, progress bars) so that ``--help`` and option parsing import
nothing heavy.
"""

from __future__ import annotations

import os

from .errors import ConfigError

EXECUTORS = ("process", "ray")
#: the most games one batch plays: every result is kept in memory (about 1 KB each) until the batch ends
MAX_GAMES = 1_000_000


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def check_executor(kind: str, jobs: int | None, address: str | None) -> None:
    """Refuse an executor choice that cannot work or would ignore an option; ``ConfigError`` with one line.

    ``jobs`` is capped at the usable cores for everything that runs on this machine (the process pool and a
    local Ray instance); a Ray cluster at ``address`` decides its own number of workers, and must answer.
    """
    if kind not in EXECUTORS:
        raise ConfigError(f"unknown executor {kind!r} (choose from {', '.join(EXECUTORS)})")
    if address is not None and kind != "ray":
        raise ConfigError("--address is the Ray cluster to use: give it with --executor ray")
    if jobs is not None and jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, got {jobs}")
    if kind == "ray" and address is not None:
        if jobs is not None:
            raise ConfigError(f"--jobs: the Ray cluster at {address} decides how many workers run; leave --jobs out")
        from .ray_executor import reach_ray

        reach_ray(address)
        return
    cores = default_jobs()
    if jobs is not None and jobs > cores:
        raise ConfigError(f"--jobs {jobs}: this machine lets puzzlebots use {cores} cores, so at most --jobs {cores}")
