"""RayExecutor against the process pool: same results, same order, errors come back as exceptions.

The calls are library functions (as batch evaluation's are): Ray workers import them by name.
"""

from __future__ import annotations

import json
import operator
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from puzzlebots.core.ray_executor import RayExecutor

#: (game, extra stats options): short Puyo games, capped so that each run takes seconds (every seed is still
#: compared between the executors). One game: ``stats`` hands every game to the executor alike. The command joins
#: the module's Ray by its address (starting a Ray of its own was most of the case's cost; the command's own start
#: of a local Ray is run by tests/cargobot/test_cargobot_sketch_ray.py).
STATS_CASES = [("puyo", ["--pairs", "20"])]
GAMES = 4  # two per worker: every seed compared, each executor hands out more than one task


def test_ray_map_matches_process_pool(ray_cluster: RayExecutor) -> None:
    xs, ys = list(range(20)), list(range(20, 0, -1))
    with ProcessPoolExecutor(2) as pool:
        expected = list(pool.map(pow, xs, ys, [1009] * 20))
    assert list(ray_cluster.map(pow, xs, ys, [1009] * 20)) == expected


def test_ray_submit_passes_kwargs_and_raises_errors(ray_cluster: RayExecutor) -> None:
    assert ray_cluster.submit(sorted, [3, 1, 2], reverse=True).result(timeout=60) == [3, 2, 1]
    with pytest.raises(ZeroDivisionError):
        ray_cluster.submit(operator.truediv, 1, 0).result(timeout=60)


def test_ray_submit_after_shutdown_is_refused() -> None:
    executor = RayExecutor(num_cpus=2)  # joins the module's instance, so it does not own it
    executor.shutdown()
    with pytest.raises(RuntimeError, match="after shutdown"):
        executor.submit(abs, -1)


def stats_json(tmp_path: Path, game: str, executor: str, extra: list[str]) -> dict[str, Any]:
    """``stats --json`` in a process of its own; ``extra`` may name the Ray cluster to join (``--address``)."""
    out = tmp_path / f"{game}-{executor}.json"
    cmd = [sys.executable, "-m", "puzzlebots", "stats", game, "--games", str(GAMES), "--quiet"]
    cmd += ["--executor", executor, "--json", str(out), *extra]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    data: dict[str, Any] = json.loads(out.read_text())
    return data


@pytest.mark.slow
@pytest.mark.parametrize(("game", "extra"), STATS_CASES)
def test_stats_on_ray_equals_the_process_pool_per_seed(
    ray_cluster: RayExecutor, tmp_path: Path, game: str, extra: list[str]
) -> None:
    import ray

    ray_run = stats_json(tmp_path, game, "ray", [*extra, "--address", ray.get_runtime_context().gcs_address])
    pool_run = stats_json(tmp_path, game, "process", [*extra, "--jobs", "2"])
    assert [g["seed"] for g in ray_run["games"]] == list(range(GAMES))
    assert ray_run["games"] == pool_run["games"]
    assert ray_run["summary"] == pool_run["summary"]
