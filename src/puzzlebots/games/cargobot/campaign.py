"""The ``cargobot solve`` campaign: which search a level gets, for how long, and in how many passes.

A campaign searches its levels in passes. Pass 1 gives each level its share of the time (``level_time``); under a
total time, while time is left and levels are open (``finished``), a further pass gives that time to them, each
search going on from the level's record in the progress file, so nothing finished is searched again.

One pass over a level is the exhaustive search (``bots.solve``) for its part of the level's time; beyond
Tutorial-Hard, when it runs out of time, the phases in ``AFTER_EXHAUSTIVE`` take over in turn, each a strategy
object (``Phase``): the level's sweep sub-problems and driver sketches (``SweepPhase``), the search under the rules
read off the board (``RuledPhase``), the sketch search (``SketchPhase``). What they find is not proven smallest.

Time is read from ``Plan.clock`` (seconds, ``time.monotonic`` unless a test injects another), the same clock the
exhaustive search's deadline is measured on, so a test can drive the passes without waiting on a real clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import name_of
from puzzlebots.core.workers import default_jobs

from .bots.drivers import DriverSketch, sub_searches
from .bots.hints import NO_HINTS, Hints, board_hints
from .bots.sketch import MAX_SECONDS as SKETCH_MAX_SECONDS
from .bots.sketch import TICK_CAP as SKETCH_TICK_CAP
from .bots.sketch import sketch as run_sketch
from .bots.solve import DEFAULT_TICK_CAP, SolveResult, adopt, as_recorded, setup_search
from .bots.solve import solve as run_solve
from .bots.sweep import Sweep, compose
from .levels import Level
from .progress import ProgressFile
from .progress import load as load_file
from .rules import PACKS
from .verify import play_out

CORE_PACKS = PACKS[:4]  # Tutorial to Hard
#: default total time of ``solve --all``: the whole run fits in an hour
ALL_LEVELS_SECONDS = 3600.0
#: under a total time, a level whose best known program is larger than this gets a quarter share
LIKELY_SIZE = 10
#: seconds kept back under a total time for each level still to run (starting its pool, the last task's overrun)
LEVEL_OVERHEAD = 2.0
#: the limit of a level reached when the total time is spent: it reports its record without searching
NO_TIME = 1e-3
#: a further pass over the open levels (``finished``) starts only if the time left gives each this many seconds
PASS_SECONDS = 5.0
#: default sketch share: half of a level's time beyond Tutorial-Hard goes to the phases after the exhaustive
#: search if that search has not found a program in the first half
SKETCH_SHARE = 0.5
#: the first turn of each sweep sub-problem's and driver sketch's search, in seconds; every round doubles it
SWEEP_TURN = 20.0
#: what a campaign searches: every search (``full``), only under the board rules, or only through the sweeps
MODES = ("full", "board rules", "sweeps")


@dataclass(frozen=True)
class Plan:
    """What a campaign is asked to do.

    ``time_limit``: seconds per level (0: none; under ``total_time``, per level and pass). ``total_time``: seconds
    for the whole run (None: one pass). ``max_size``: the largest register budget. ``sketch_share``: the part of a
    level's time beyond Tutorial-Hard kept for the phases after the exhaustive search. ``hints``: what the search
    is told (``bots.hints``). ``jobs``, ``executor``, ``address``: the workers (``core.batch.make_executor``).
    ``clock``: the time in seconds."""

    time_limit: float = 600.0
    total_time: float | None = None
    max_size: int | None = None
    tick_cap: int = DEFAULT_TICK_CAP
    sketch_share: float = SKETCH_SHARE
    hints: Hints = NO_HINTS
    mode: str = "full"
    jobs: int | None = None
    executor: str = "process"
    address: str | None = None
    clock: Callable[[], float] = time.monotonic

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")

    @property
    def sketch_jobs(self) -> int | None:
        """The jobs as the sketch search takes them: a process count (default one per usable core), or on Ray as
        given (None: the cluster's CPUs)."""
        return self.jobs or default_jobs() if self.executor == "process" else self.jobs


def _quiet(*_: Any) -> None:
    """A listener that shows nothing."""


@dataclass
class Listeners:
    """What a campaign tells its caller as it goes (a progress bar, a log): ``step(level, pass number, what)``
    as a level's search moves on (``what`` is "" at its start, then e.g. ": size 7"), ``done(level)`` when a
    level's pass ends, ``next_pass(number, levels, seconds left)`` when a further pass starts."""

    step: Callable[[Level, int, str], None] = _quiet
    done: Callable[[Level], None] = _quiet
    next_pass: Callable[[int, list[Level], float], None] = _quiet


@dataclass(frozen=True)
class Row:
    """A level's last result in a campaign and the number of the pass that gave it."""

    result: SolveResult
    number: int


class Phase(Protocol):
    """A search that takes over a level after its exhaustive search ran out of time (not proven smallest)."""

    #: True if no phase after this one runs once it applied
    last: bool

    def applies(self, campaign: Campaign, level: Level, result: SolveResult, seconds: float) -> bool:
        """Whether the phase has anything to do on ``level`` with ``seconds`` left after ``result``."""
        ...

    def run(
        self, campaign: Campaign, level: Level, result: SolveResult, seconds: float, show: Callable[[str], None]
    ) -> SolveResult:
        """``result``, or the level solved within ``seconds``."""
        ...


class SweepPhase:
    """The level through its driver sketches and sweep sub-problems (``Campaign.sweep_after``); on a level that
    has them, the only phase."""

    last = True

    def applies(self, campaign: Campaign, level: Level, result: SolveResult, seconds: float) -> bool:
        return bool(sub_searches(level))

    def run(
        self, campaign: Campaign, level: Level, result: SolveResult, seconds: float, show: Callable[[str], None]
    ) -> SolveResult:
        return campaign.sweep_after(level, result, seconds, sub_searches(level), show)


class RuledPhase:
    """The search under the board rules (``board_hints``) at the level's best known size (``Campaign.ruled_after``),
    where the exhaustive search stopped below it."""

    last = False

    def applies(self, campaign: Campaign, level: Level, result: SolveResult, seconds: float) -> bool:
        best = level.best_known
        return board_hints(level) is not None and best is not None and result.searched_to < best and seconds >= 1

    def run(
        self, campaign: Campaign, level: Level, result: SolveResult, seconds: float, show: Callable[[str], None]
    ) -> SolveResult:
        show(": board rules")
        ruled = board_hints(level)
        assert ruled is not None
        return campaign.ruled_after(level, result, seconds, ruled)


class SketchPhase:
    """The sketch search (``Campaign.sketch_after``) for the time left, at most the sketch search's limit."""

    last = True

    def applies(self, campaign: Campaign, level: Level, result: SolveResult, seconds: float) -> bool:
        return seconds >= 1

    def run(
        self, campaign: Campaign, level: Level, result: SolveResult, seconds: float, show: Callable[[str], None]
    ) -> SolveResult:
        show(": sketches")
        return campaign.sketch_after(level, result, min(seconds, SKETCH_MAX_SECONDS))


#: the phases after the exhaustive search, in turn: each runs if it applies and no program is found yet
AFTER_EXHAUSTIVE: tuple[Phase, ...] = (SweepPhase(), RuledPhase(), SketchPhase())


class Campaign:
    """A solve campaign over ``book`` (the progress records it goes on from and writes). ``exhaustive`` and
    ``sketch`` replace the searches (``bots.solve.solve``, ``bots.sketch.sketch``: same arguments)."""

    def __init__(
        self,
        plan: Plan,
        book: ProgressFile,
        listeners: Listeners | None = None,
        phases: Sequence[Phase] = AFTER_EXHAUSTIVE,
        exhaustive: Callable[..., SolveResult] | None = None,
        sketch: Callable[..., Any] | None = None,
    ) -> None:
        self.plan, self.book, self.phases = plan, book, phases
        self.listeners = listeners or Listeners()
        self._exhaustive, self._sketch = exhaustive, sketch
        self.unrecorded: dict[str, float] = {}  # seconds of a level's unsuccessful sketch searches (not in its record)

    # -- the passes

    def run(self, targets: list[Level]) -> dict[str, Row]:
        """Every level searched in passes (``passes``): each level's last result and the pass that gave it."""
        return passes(targets, self.book, self.plan, self.search, self.listeners.next_pass)

    def search(self, level: Level, seconds: float | None, number: int) -> SolveResult:
        """Pass ``number`` over ``level`` for ``seconds`` (None: no limit): ``search_level``, or ``sweeps_alone``
        in the sweeps mode. The result's seconds count the level's unsuccessful sketch searches too."""
        plan = self.plan

        def show(what: str) -> None:
            self.listeners.step(level, number, what)

        # a provisional level's whole share goes to its exhaustive search
        sketching = seconds is not None and level.pack not in CORE_PACKS and plan.max_size is None
        sketching = sketching and not plan.hints.given() and not level.subproblem  # (a sketch plays one board)
        sketching = sketching and not provisional(self.book, level)
        share = plan.sketch_share if sketching else 0.0
        if plan.mode == "sweeps":
            result = self.sweeps_alone(level, seconds, show)
        else:
            result = self.search_level(level, seconds, share, show, later=number > 1)
        result = replace(result, seconds=result.seconds + self.unrecorded.get(level.name, 0.0))
        records = self.book.ruled if plan.mode == "board rules" else self.book.levels
        self.unrecorded[level.name] = result.seconds - records[level.name].seconds
        self.listeners.done(level)
        return result

    # -- one pass over a level

    def exhaustive(self, level: Level, **options: Any) -> SolveResult:
        """The exhaustive search of ``level`` with this campaign's options (``options`` win)."""
        plan = self.plan
        given: dict[str, Any] = {
            "jobs": plan.jobs,
            "max_size": plan.max_size,
            "tick_cap": plan.tick_cap,
            "executor": plan.executor,
            "address": plan.address,
            "book": self.book,
            "hints": plan.hints,
            "clock": plan.clock,
        }
        if plan.mode == "board rules":
            given |= {"book": self.book.ruled_book(), "first": level.best_known, "max_size": level.best_known}
        return (self._exhaustive or run_solve)(level, **(given | options))

    def search_level(
        self,
        level: Level,
        seconds: float | None,
        share: float,
        show: Callable[[str], None] = _quiet,
        later: bool = False,
    ) -> SolveResult:
        """One pass over a level: the exhaustive search from its record for ``1 - share`` of ``seconds``; then
        the phases (``AFTER_EXHAUSTIVE``) for the rest. In a ``later`` pass a level whose sweeps or driver
        sketches are not all exhausted gives them the whole time: its exhaustive search stopped in pass 1 far
        below its best known size, and each size costs it about 17 times the one before, so the programs are
        theirs to find."""
        clock = self.plan.clock
        start = clock()
        show("")
        subs = sub_searches(level)
        if later and share and any(not self.exhausted(level, sub) for sub in subs):
            return self.sweep_after(level, self.as_recorded(level), seconds or float("inf"), subs, show)
        result = self.exhaustive(
            level, time_limit=seconds and seconds * (1 - share), progress=lambda n: show(f": size {n}")
        )
        if not share or result.solved or result.searched_to >= sum(level.functions):
            return result
        for phase in self.phases:
            if result.solved:
                break
            rest = (seconds or 0.0) - (clock() - start)
            if phase.applies(self, level, result, rest):
                result = phase.run(self, level, result, rest, show)
                if phase.last:
                    break
        return result

    def sweep_after(
        self,
        level: Level,
        result: SolveResult,
        seconds: float,
        subs: list[DriverSketch | Sweep],
        show: Callable[[str], None] = _quiet,
    ) -> SolveResult:
        """``result`` (the exhaustive search, out of time), or the level solved in ``seconds`` through its driver
        sketches (the level under a sketch's fixed functions, up to its best known size) and sweep sub-problems:
        each searched exhaustively (its own record in ``ProgressFile.sweeps``, so a later pass or a resumed run
        goes on where it stopped) in turns, each round twice as long as the one before, so the one that needs less
        finds first. The first turn is the least time a search not yet exhausted has had (at least
        ``SWEEP_TURN``), so the rounds go on doubling across passes and resumed runs instead of starting short
        again. The first program found (a sweep's helper behind its driver) is the level's (method ``driver`` or
        ``sweep``; not proven smallest)."""
        clock, book = self.plan.clock, self.book
        todo = [sub for sub in subs if not self.exhausted(level, sub)]
        start, turn = clock(), self.first_turn(todo)
        while todo and seconds - (clock() - start) >= 1:
            for sub in list(todo):
                left = seconds - (clock() - start)
                if left < 1:
                    break
                same = [s for s in subs if type(s) is type(sub)]
                where = f": {'sweep' if isinstance(sub, Sweep) else 'driver'} {same.index(sub) + 1} of {len(same)}"
                top = sub_top(level, sub)
                if isinstance(sub, Sweep):
                    found = self.exhaustive(
                        sub.level,
                        time_limit=min(turn, left),
                        book=book.sweep_book(),
                        progress=lambda n, where=where: show(f"{where}, size {n}"),
                    )
                    program = compose(found.program) if found.program is not None else None
                else:
                    found = self.exhaustive(
                        sub.level,
                        time_limit=min(turn, left),
                        book=book.sweep_book(),
                        max_size=top,
                        hints=sub.hints,
                        progress=lambda n, where=where: show(f"{where}, size {n}"),
                    )
                    program = found.program
                if program is not None and play_out(level, program).solved:
                    method = "sweep" if isinstance(sub, Sweep) else "driver"
                    return adopt(level, result, program, clock() - start, method, book)
                if found.solved or found.searched_to >= top:
                    todo.remove(sub)  # exhausted (or, never expected: a ``Level.home`` helper that does not carry over)
            turn *= 2
        return replace(result, seconds=result.seconds + clock() - start)

    def sweeps_alone(self, level: Level, seconds: float | None, show: Callable[[str], None] = _quiet) -> SolveResult:
        """The sweeps mode: the level through its driver sketches and sweep sub-problems alone (``sweep_after``),
        for ``seconds`` (None: no limit), its exhaustive search's record as it stands (a new one: nothing
        searched)."""
        start = self.as_recorded(level)
        if start.solved:
            return start
        return self.sweep_after(level, start, seconds or float("inf"), sub_searches(level), show)

    def as_recorded(self, level: Level) -> SolveResult:
        """The level's exhaustive search as its record stands (a new record: nothing searched), searching
        nothing."""
        return as_recorded(level, self.book)

    def first_turn(self, todo: list[DriverSketch | Sweep]) -> float:
        """The first turn of ``sweep_after``: the least time any of ``todo`` has had, at least ``SWEEP_TURN``."""
        sweeps = self.book.sweeps
        had = [sweeps[sub.level.name].seconds if sub.level.name in sweeps else 0.0 for sub in todo]
        return max(SWEEP_TURN, min(had, default=0.0))

    def exhausted(self, level: Level, sub: DriverSketch | Sweep) -> bool:
        """True if the record of ``sub`` says its search is over with nothing found: every size up to ``sub_top``
        searched (a record with a program stays: its search hands the program back at once)."""
        rec = self.book.sweeps.get(sub.level.name)
        return rec is not None and rec.result is None and rec.searched_to >= sub_top(level, sub)

    def ruled_after(self, level: Level, result: SolveResult, seconds: float, ruled: Hints) -> SolveResult:
        """``result`` (the exhaustive search, out of time), or the level solved in ``seconds`` by the same search
        under the board rules ``ruled``, at the level's best known size only (its own record in the progress file,
        ``ProgressFile.ruled``, so a later pass or a resumed run goes on where it stopped). What it finds is no
        larger than the best known program, and not proven smallest (method ``ruled``, or ``stations``)."""
        assert level.best_known is not None
        clock = self.plan.clock
        start = clock()
        found = self.exhaustive(
            level,
            time_limit=seconds,
            hints=ruled,
            first=level.best_known,
            max_size=level.best_known,
            book=self.book.ruled_book(),
        )
        spent = clock() - start
        if not found.solved or found.program is None:
            return replace(result, seconds=result.seconds + spent)
        return adopt(level, result, found.program, spent, found.method, self.book)

    def sketch_after(self, level: Level, result: SolveResult, seconds: float) -> SolveResult:
        """``result`` (the exhaustive search, out of time), or the level solved by ``sketch`` in ``seconds`` on the
        plan's workers. The seed is the number of sketch searches the level's record has started (counted and
        saved before this one runs), so a later pass or a resumed run draws restarts no earlier search drew, for
        any jobs or executor (every restart draws from the seed and its own number). The sketches' runs stop at
        the tick cap too, so what they find is a program the exhaustive search would have found at its size: its
        sizes below stay proven empty."""
        plan = self.plan
        seed = self.book.start_sketch(level.name)
        found = (self._sketch or run_sketch)(
            level,
            seed,
            time_limit=seconds,
            tick_cap=min(self.book.tick_cap, SKETCH_TICK_CAP),
            keep_on_interrupt=False,
            jobs=plan.sketch_jobs,
            executor=plan.executor,
            address=plan.address,
            clock=plan.clock,
        )
        if not found.solved or found.program is None:
            return replace(result, seconds=result.seconds + found.seconds)
        return adopt(level, result, found.program, found.seconds, found.method, self.book)


def sub_top(level: Level, sub: DriverSketch | Sweep) -> int:
    """The largest size a sweep's or driver sketch's search goes to: a driver sketch stops at the level's best
    known size."""
    return sum(sub.level.functions) if isinstance(sub, Sweep) else level.best_known or sum(level.functions)


def provisional(book: ProgressFile, level: Level) -> bool:
    """True if the level's record holds a sketch program above its best known size, smaller sizes still open."""
    rec = book.levels.get(level.name)
    return rec is not None and rec.provisional(level)


def finished(book: ProgressFile, level: Level, max_size: int | None) -> bool:
    """True if the level's record leaves nothing to search: solved (by a program that is not provisional:
    ``LevelProgress.provisional``), or every size up to the limit searched."""
    rec = book.levels.get(level.name)
    if rec is None:
        return False
    solved = rec.result is not None and not rec.provisional(level)
    return solved or rec.searched_to >= (max_size or sum(level.functions))


def _weight(level: Level) -> float:
    return 1.0 if level.best_known is not None and level.best_known <= LIKELY_SIZE else 0.25


def level_time(
    level: Level, left: list[Level], limit: float, total: float | None, elapsed: float, later: bool = False
) -> float | None:
    """Per-level limit: ``limit``; under ``total`` the Tutorial-Hard levels still get ``limit`` and the others
    share what is left, weighted towards those with a known program of at most ``LIKELY_SIZE``. ``left``: the
    levels still to search, this one included; each of them keeps ``LEVEL_OVERHEAD`` seconds back, so the run
    ends within ``total``. In a ``later`` pass every level shares, Tutorial-Hard ones too, each at most ``limit``."""
    if total is None:
        return limit or None
    remaining = max(NO_TIME, total - elapsed - LEVEL_OVERHEAD * max(1, len(left)))
    if level.pack in CORE_PACKS and not later:
        return min(limit, remaining) if limit else remaining
    weights = sum(_weight(lv) for lv in left if later or lv.pack not in CORE_PACKS)
    share = remaining * _weight(level) / max(weights, _weight(level))
    return max(NO_TIME, min(limit, share) if limit else share)


def passes(
    targets: list[Level],
    book: ProgressFile,
    plan: Plan,
    search: Callable[[Level, float | None, int], SolveResult],
    announce: Callable[[int, list[Level], float], None] = _quiet,
) -> dict[str, Row]:
    """Pass 1 searches every level for its share (``level_time``). Under the plan's total time (and without a
    largest size), while time is left and levels are open (``finished``), a further pass gives that time to them
    (the same weights, every level sharing); ``search(level, seconds, pass number)`` goes on from the level's
    record, so nothing finished is searched again. In a further pass the levels a sketch or sweep solved above
    their best known size come first: their search ends at the sketch program's size, and the time they save goes
    to the unsolved levels after them in the same pass. Each level's last result and the pass that gave it."""
    clock, total, max_size = plan.clock, plan.total_time, plan.max_size
    started = clock()
    rows: dict[str, Row] = {}
    todo, number = targets, 1
    while True:
        for k, lv in enumerate(todo):
            left = [t for t in todo[k:] if not finished(book, t, max_size)]
            seconds = level_time(lv, left, plan.time_limit, total, clock() - started, later=number > 1)
            rows[lv.name] = Row(search(lv, seconds, number), number)
        number += 1
        todo = [lv for lv in targets if not finished(book, lv, max_size)]
        todo.sort(key=lambda lv: not provisional(book, lv))  # stable: in the levels file's order otherwise
        room = 0.0 if total is None or max_size is not None else total - (clock() - started)
        if not todo or room - LEVEL_OVERHEAD * len(todo) < PASS_SECONDS * len(todo):
            break
        announce(number, todo, room)
    return rows


def open_book(
    path: Path | None, resume: bool, tick_cap: int, pool: list[Level], targets: list[Level], hints: Hints = NO_HINTS
) -> tuple[ProgressFile, list[str]]:
    """The progress file of a campaign, checked before any work: resumed (it must exist and fit this run), or new
    (it must not exist: a finished search is not overwritten by accident). With a line per record resumed that
    says where its search stands."""
    if path is None:
        if resume:
            raise InputError("--resume needs the progress file: give --progress FILE (or the --json of that run)")
        return ProgressFile(None, tick_cap), []
    if not resume:
        if path.exists():
            raise InputError(f"progress file {name_of(path)} exists: pass --resume to go on from it, or delete it")
        return ProgressFile(path, tick_cap), []
    if not path.exists():
        raise InputError(f"--resume: no progress file {name_of(path)}")
    book = load_progress(path, tick_cap, pool)
    return book, [line for lv in targets for line in _resumed(book, lv, hints, path)]


def _resumed(book: ProgressFile, level: Level, hints: Hints, path: Path) -> list[str]:
    """Where the searches of ``level`` recorded in ``book`` stand; a record another search made is refused."""
    lines, tick_cap = [], book.tick_cap
    if level.name in book.levels:
        rec = book.entry(level, setup_search(level, tick_cap, hints).digest)
        todo = "" if rec.frontier is None else f", {len(rec.frontier.pending)} prefixes of the next size left"
        state = "solved" if rec.result else f"sizes up to {rec.searched_to} searched{todo}"
        if rec.provisional(level):
            assert rec.result is not None
            state = (
                f"solved by the {rec.result.method} search at size {rec.result.size} (best known "
                f"{level.best_known}), sizes up to {rec.searched_to} searched{todo}"
            )
        lines.append(f"resuming {level.name}: {state}, {rec.nodes:,} nodes in {rec.seconds:.1f} s before")
    if level.name in book.ruled:
        ruled = board_hints(level)
        if ruled is None:
            raise InputError(
                f"progress file {name_of(path)}: level {level.name!r} has no board rules, yet a record "
                "of a search under them"
            )
        search = setup_search(level, tick_cap, ruled).digest
        rec = book.ruled_book().entry(level, search)  # refused if another search made it
        state = "solved" if rec.result else f"size {rec.searched_to + 1} in progress"
        lines.append(
            f"resuming {level.name} under board rules: {state}, {rec.nodes:,} nodes in {rec.seconds:.1f} s before"
        )
    for sub in sub_searches(level):
        if sub.level.name in book.sweeps:
            sub_hints = sub.hints if isinstance(sub, DriverSketch) else NO_HINTS
            search = setup_search(sub.level, tick_cap, sub_hints).digest
            rec = book.sweep_book().entry(sub.level, search)  # refused likewise
            state = "solved" if rec.result else f"sizes up to {rec.searched_to} searched"
            lines.append(f"resuming {sub.level.name}: {state}, {rec.nodes:,} nodes in {rec.seconds:.1f} s before")
    return lines


def ruled_hints(level: Level) -> Hints:
    """The board-rules mode's hints: those the full campaign reads off ``level``'s board (InputError if it has
    none)."""
    hints = board_hints(level)
    if hints is None or level.best_known is None:
        why = "no pile gets a rule" if hints is None else "it has no best known size to search"
        raise InputError(f"--board-rules: {level.name} has no board rules ({why})")
    return hints


def solve_levels(
    targets: list[Level], plan: Plan, book: ProgressFile | None = None, listeners: Listeners | None = None
) -> dict[str, Row]:
    """``targets`` solved by a campaign of ``plan`` (``book``: the progress records, default none kept)."""
    return Campaign(plan, book or ProgressFile(None, plan.tick_cap), listeners).run(targets)


def load_progress(path: Path, tick_cap: int, levels: list[Level]) -> ProgressFile:
    """The progress file ``path`` written for ``levels`` (their sweep sub-problems and driver sketches included)
    and ``tick_cap`` (``progress.load``)."""
    return load_file(path, tick_cap, levels, {sub.level.name: sub.level for lv in levels for sub in sub_searches(lv)})
