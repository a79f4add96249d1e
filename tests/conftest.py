"""Fixtures shared across the test folders."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from puzzlebots.core.ray_executor import RayExecutor

# Ray starts its workers at niceness 15 (its ``worker_niceness``): beside other CPU-bound work a test's Ray tasks
# then get almost no CPU and a test of seconds takes many minutes. The tests' Ray instances (the fixture's and
# those the commands under test start, which inherit this environment) run their workers at the test's own.
os.environ.setdefault("RAY_worker_niceness", "0")


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[RayExecutor]:
    """One real local Ray instance of two CPUs per test module; executors made inside it join it."""
    executor = RayExecutor(num_cpus=2)
    yield executor
    executor.shutdown()
