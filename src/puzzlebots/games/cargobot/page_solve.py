"""The page's Solve: the solve campaign (``campaign``, as ``cargobot solve --level``) on one level in the page's
worker, telling the page how it goes and ending early when the page says stop (``WebReporting``).

The campaign tells what it searches through its listeners (a new size, a new phase) and reads the time from
``Plan.clock`` (seconds) at every task and deadline check. :class:`Watch` is that clock: at most every
``REPORT_EVERY`` seconds, and at each new size, it reports the size searched, the nodes so far (the book's
records) and the best program found so far; once the page says stop, each reading is ``STOP_JUMP`` seconds
past the one before, so every deadline has passed (one set after the stop too) and the campaign ends as it ends
when its time is up, keeping what it found. The seconds the page sees are real ones.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from puzzlebots.core.protocols import JSON

from .bots.solve import DEFAULT_TICK_CAP
from .campaign import Listeners, Plan, solve_levels
from .language import format_registers
from .levels import Level, find_level
from .progress import ProgressFile

#: seconds between two progress reports of a running solve (a new size is reported at once)
REPORT_EVERY = 0.25
#: seconds the clock jumps forward at each reading once the page said stop: past any deadline a search can have
STOP_JUMP = 1e9


def no_report(update: dict[str, JSON]) -> None:
    """A report that goes nowhere (a session no page listens to)."""


def never() -> bool:
    return False


class Watch:
    """The campaign's clock and listener for one page solve: reports as the search goes, jumps once stopped."""

    def __init__(
        self,
        book: ProgressFile,
        report: Callable[[dict[str, JSON]], None] = no_report,
        stopped: Callable[[], bool] = never,
        real: Callable[[], float] = time.monotonic,
    ) -> None:
        self.book, self.report, self.stopped, self.real = book, report, stopped, real
        self.start = self.last = real()
        self.searching = "starting"
        self.jump = 0.0

    def __call__(self) -> float:
        now = self.real()
        if self.jump or self.stopped():  # each reading later still: past a deadline set even after the stop
            self.jump += STOP_JUMP
        if now - self.last >= REPORT_EVERY:
            self.send(now)
        return now + self.jump

    @property
    def was_stopped(self) -> bool:
        return self.jump > 0

    def seconds(self) -> float:
        return self.real() - self.start

    def step(self, level: Level, number: int, what: str) -> None:
        """The campaign moved on (``Listeners.step``): ``what`` is "" at the start, then ": size 7" and the like."""
        self.searching = what.removeprefix(": ") or "starting"
        self.send(self.real())

    def nodes(self) -> int:
        records = [*self.book.levels.values(), *self.book.ruled.values(), *self.book.sweeps.values()]
        return sum(rec.nodes for rec in records)

    def best(self) -> str | None:
        """The smallest program the search has found so far (a sketch's, above the sizes searched), if any."""
        found = [rec.result for rec in self.book.levels.values() if rec.result is not None]
        return min(found, key=lambda f: f.size).program if found else None

    def send(self, now: float) -> None:
        self.last = now
        self.report(
            {
                "searching": self.searching,
                "nodes": self.nodes(),
                "seconds": round(now - self.start, 1),
                "best": self.best(),
                "stopping": self.was_stopped,
            }
        )


def solve_level(
    name: str,
    seconds: int,
    report: Callable[[dict[str, JSON]], None] = no_report,
    stopped: Callable[[], bool] = never,
) -> dict[str, Any]:
    """The solve campaign on level ``name`` for at most ``seconds`` in this process, reporting as it goes, ended
    early once ``stopped()``: the program it finds, if any."""
    level = find_level(name)
    book = ProgressFile(None, DEFAULT_TICK_CAP)
    watch = Watch(book, report, stopped)
    plan = Plan(time_limit=seconds, jobs=1, clock=watch)
    found = solve_levels([level], plan, book, Listeners(step=watch.step))[level.name].result
    took = watch.seconds()
    search = {
        "title": "the solver's search",
        "figures": [
            ["programs tried", found.nodes],
            ["every program tried up to", f"{found.searched_to} registers"],
            ["seconds", round(took, 1)],
            ["how it was found", found.method if found.solved else "not found"],
        ],
    }
    if not found.solved or found.program is None:
        why = "stopped after" if watch.was_stopped else "no program found in"
        return {
            "solved": False,
            "stopped": watch.was_stopped,
            "program": "",
            "thinking": search,
            "message": f"{why} {took:.1f} s (every program of up to {found.searched_to} registers was tried)",
        }
    return {
        "solved": True,
        "stopped": False,
        "program": format_registers(found.program),
        "size": found.size,
        "stars": found.stars,
        "thinking": search,
        "message": f"found a program with {level.rating(found.program)} in {took:.1f} s",
    }
