"""RayExecutor against the process pool: same results, same order, errors come back as exceptions.

The calls are library functions (as batch evaluation's are): Ray workers import them by name.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import pytest

from puzzlebots.core.ray_executor import RayExecutor


@pytest.fixture(scope="module")
def ray_executor() -> Iterator[RayExecutor]:
    executor = RayExecutor(num_cpus=2)
    yield executor
    executor.shutdown()


def test_ray_map_matches_process_pool(ray_executor: RayExecutor) -> None:
    xs, ys = list(range(20)), list(range(20, 0, -1))
    with ProcessPoolExecutor(2) as pool:
        expected = list(pool.map(pow, xs, ys, [1009] * 20))
    assert list(ray_executor.map(pow, xs, ys, [1009] * 20)) == expected


def test_ray_submit_passes_kwargs_and_raises_errors(ray_executor: RayExecutor) -> None:
    assert ray_executor.submit(sorted, [3, 1, 2], reverse=True).result(timeout=60) == [3, 2, 1]
    with pytest.raises(ZeroDivisionError):
        ray_executor.submit(operator.truediv, 1, 0).result(timeout=60)


def test_ray_submit_after_shutdown_is_refused() -> None:
    executor = RayExecutor(num_cpus=2)  # joins the module's instance, so it does not own it
    executor.shutdown()
    with pytest.raises(RuntimeError, match="after shutdown"):
        executor.submit(abs, -1)
