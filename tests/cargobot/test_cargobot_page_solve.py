"""The page's Solve (``page_solve``): its clock reports at most every ``REPORT_EVERY`` seconds and at each new size,
and a stop, whenever it comes, ends the campaign as an expired time limit does, keeping what it found. Clocks are
injected or the stop is counted in reports: nothing here waits on the wall clock."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from puzzlebots.games.cargobot.levels import find_level
from puzzlebots.games.cargobot.page_solve import REPORT_EVERY, STOP_JUMP, Watch, solve_level
from puzzlebots.games.cargobot.progress import ProgressFile


class FakeTime:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_clock_reports_at_most_every_quarter_second_and_jumps_further_at_each_reading_once_stopped() -> None:
    reports: list[dict[str, Any]] = []
    real, stop = FakeTime(), [False]
    watch = Watch(ProgressFile(None, 1000), reports.append, lambda: stop[0], real)
    for step in range(4):
        real.now = 100.0 + step * REPORT_EVERY / 4
        assert watch() == real.now
    assert reports == []  # a quarter of a report's spacing each time
    real.now = 100.0 + REPORT_EVERY
    watch()
    watch.step(find_level("Cargo 101"), 1, ": size 4")  # a new size is reported at once
    assert [(r["searching"], r["seconds"], r["stopping"]) for r in reports] == [
        ("starting", 0.2, False),
        ("size 4", 0.2, False),
    ]
    stop[0] = True
    first, second = watch(), watch()
    assert first == real.now + STOP_JUMP and second == real.now + 2 * STOP_JUMP and watch.was_stopped
    assert watch.seconds() == REPORT_EVERY  # real seconds, without the jumps


def test_a_solve_stopped_at_once_searches_nothing_and_says_so() -> None:
    reports: list[dict[str, Any]] = []
    answer = solve_level("Inverter", 60, reports.append, lambda: True)
    assert answer["stopped"] and not answer["solved"] and answer["message"].startswith("stopped after")
    assert answer["thinking"]["figures"][1] == ["every program tried up to", "0 registers"]


def test_a_solve_stopped_after_some_sizes_keeps_them_and_an_unstopped_one_reports_every_size() -> None:
    reports: list[dict[str, Any]] = []
    answer = solve_level("Inverter", 60, reports.append, lambda: len(reports) >= 5)
    assert answer["stopped"] and not answer["solved"]
    sizes = [r["searching"] for r in reports if r["searching"].startswith("size")]
    searched = int(answer["thinking"]["figures"][1][1].split()[0])
    assert 1 <= searched < 10 and f"size {searched}" in sizes
    reports.clear()
    answer = solve_level("Inverter", 60, reports.append)
    assert answer["solved"] and answer["size"] == 10 and not answer["stopped"]
    sizes = [r["searching"] for r in reports if r["searching"].startswith("size")]
    assert [size for size, _ in groupby(sizes)] == [f"size {n}" for n in range(1, 11)]  # each, then its timed ones
