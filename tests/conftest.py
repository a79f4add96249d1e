"""Fixtures shared across the test folders."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from puzzlebots.core.ray_executor import RayExecutor


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[RayExecutor]:
    """One real local Ray instance of two CPUs per test module; executors made inside it join it."""
    executor = RayExecutor(num_cpus=2)
    yield executor
    executor.shutdown()
