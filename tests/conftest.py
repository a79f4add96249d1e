"""Fixtures shared across the test folders."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from puzzlebots.core.ray_executor import RayExecutor

# No property test depends on the wall clock: no deadline per example, and no health check that fails a test
# because drawing its examples was slow (on a busy machine it is, and that says nothing about the code).
settings.register_profile("puzzlebots", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("puzzlebots")

# The tests that press Ctrl-C on a command send its process SIGINT as a terminal would. A shell that runs the
# suite in the background (`make test &`, nohup, some CI runners) starts it with SIGINT ignored, and a process
# started from here would inherit that and never hear the key; each test process (the main one and every
# worker) takes Python's own handler back, so what it starts has SIGINT at its default.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[RayExecutor]:
    """One real local Ray instance of two CPUs per test module; executors made inside it join it."""
    executor = RayExecutor(num_cpus=2)
    yield executor
    executor.shutdown()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules that hold a ``slow`` test run first (each kept whole, so its module fixtures start once): under
    ``pytest -n 2 --dist worksteal`` the long tests start early and the short ones fill both workers to the end."""
    slow_modules = {item.module for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.module not in slow_modules)
