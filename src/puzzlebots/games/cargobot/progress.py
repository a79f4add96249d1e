"""The progress file of ``cargobot solve``: what a long search has done, so that ``--resume`` goes on from there.

Per level it keeps the sizes exhausted (``searched_to``), the option prefixes of the size in progress that no task
has finished yet (``frontier``: the tasks running when the file was written are in it, so a resumed search redoes at
most those), the nodes counted and seconds spent, one line per exhausted size, the number of sketch searches started
(``sketches``: the next one draws that seed, so no session replays another's restarts), and the result once the
level is solved. A result of the sketch or sweep search above the level's best known size, with smaller sizes left
to search, is provisional (``provisional``): the level stays open, and its record keeps the frontier the exhaustive
search had beside the program (format 3). Beside the levels' records, ``ruled`` keeps those of the search under
board rules (``bots.hints.board_hints``; format 4): it starts at the level's best known size, so its sizes list
starts there too. ``sweeps`` (format 6) keeps the records of the searches on a level's sweep sub-problems
(``bots.sweep``) and of its driver sketches (``bots.drivers``), filed under the sub-problem's or the sketch's
name. The file is JSON, written atomically (a kill leaves the
previous version whole). A frontier is front-coded (format 5): each prefix is written as the number of options it
shares with the one before, then the rest, since consecutive prefixes (the children of one task) share most of
theirs: the file an hour of ``solve --all`` wrote, 32 MB as plain lists, is 6.9 MB this way.

It is hostile input when read back: every field is checked, and it must match this run: the same definition of each
level it names (same levels file), the same tick cap, and the same search (the kernel's source and the toolbox
arrays it branches over: a prefix only means something to the search that listed it). A planted "solved" result is
replayed on the game interpreter before it is believed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import check_int, check_number, name_of, read_json, show, write_text_atomic

from .bots.drivers import sub_searches
from .kernels import prune as prune_kernel
from .kernels import solve as solve_kernel
from .language import format_registers, parse_registers, register_count
from .levels import Level
from .verify import play_out

if TYPE_CHECKING:
    from .bots.solve import Setup

FORMAT = 6
#: formats read: 1 is 2 without ``sketches`` (read as none started); 3 is 2 where a provisional result may
#: have a frontier beside it (2 never wrote one: its provisional results start their next size afresh); 4 is 3
#: with ``ruled`` (read as none before); 5 is 4 with front-coded frontiers (``front_code``); 6 is 5 with
#: ``sweeps`` (read as none before)
READS = (1, 2, 3, 4, 5, 6)
KIND = "puzzlebots cargobot solve progress"
#: seconds between two writes while a size is searched (every finished size and level is written at once) ...
SAVE_EVERY = 2.0
#: ... or more: at least this many times the last write took, so that writing a big frontier (10 MB of JSON on
#: the open levels) costs the search at most 2% of the parent's time instead of a third of a core
SAVE_SPACING = 50.0
#: bounds of the numbers a progress file may hold: far beyond any search this code can run
MAX_SIZE = 1_000
#: the largest progress file ``--resume`` reads, past the 32 MiB other files may have: an hour of ``solve --all``
#: wrote 32 MB of plain prefix lists, 6.9 MB front-coded (the board-rules frontier of Multi Sort 2 alone holds
#: 418,000 prefixes), so this is many hours' worth
MAX_FILE_BYTES = 128 * 2**20
#: the most prefixes one frontier may hold: about what a file of ``MAX_FILE_BYTES`` can (a prefix takes at least
#: six bytes: ``[k,o],``), so a search that wrote its file can read it back
MAX_PREFIXES = 25_000_000
MAX_NODES = 10**18
MAX_SECONDS = 10**9
MAX_SKETCHES = 2**31 - 1  # a sketch seed
LEVEL_KEYS = {"level", "search", "searched_to", "frontier", "nodes", "seconds", "sizes", "sketches", "result"}
RESULT_KEYS = {"program", "size", "ticks", "method"}
#: how a recorded program was found: "exhaustive" (smallest in the model: its size is searched_to + 1),
#: "sketch" (``bots.sketch``, after the exhaustive search ran out of time: only sizes to searched_to are done)
#: "hinted" (the exhaustive search under a user's hints, ``bots.hints``: smallest among what they allow) or
#: "ruled" (under the board rules ``solve --all`` gives itself, at the best known size: not smallest), or
#: "stations" (the same with a station pass as F1, ``bots.stations``: not smallest) or "sweep" (a helper found on
#: a sweep sub-problem behind its driver, ``bots.sweep``: not smallest) or "driver" (the level searched behind a
#: driver sketch, ``bots.drivers``: not smallest)
METHODS = ("exhaustive", "sketch", "hinted", "ruled", "stations", "sweep", "driver")
#: the methods that run after the exhaustive search stopped, and leave the sizes below their program open
AFTER_EXHAUSTIVE = ("sketch", "sweep", "driver")


def digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little") + part)
    return h.hexdigest()[:32]


def level_digest(level: Level) -> str:
    """What defines a level for the search (its name is the key it is filed under)."""
    fields = [level.stacks, level.goal, level.claw, level.functions, level.commands, level.conditions]
    if level.subproblem:  # (a plain level's digest is as before, so its records still match)
        fields += [level.worlds, level.poison, level.finish] + ([True] if level.home else [])
    return digest(json.dumps(fields).encode())


def search_digest(setup: Setup) -> str:
    """What makes an option prefix mean the same subtree: the kernel's code and the arrays it branches over."""
    tb = setup.problem.toolbox
    code = [Path(m.__file__).read_bytes() for m in (solve_kernel, prune_kernel) if m.__file__]
    pr = setup.problem
    arrays = [a.tobytes() for a in (tb.slots, tb.oplist, tb.firemask, tb.red, pr.need, pr.pile_rules, pr.fixed_op,
                                    pr.fixed_mask, pr.fixed_len, pr.worlds, pr.world_goal)]  # fmt: skip
    return digest(*code, *arrays, bytes([tb.ncond, tb.allmask & 255, pr.poison & 255, pr.finish]))


class Frontier:
    """The unfinished prefixes of one size: ``running`` (task handle -> prefix, in start order) and ``pending``."""

    def __init__(self, prefixes: Iterable[tuple[int, ...]]) -> None:
        self.pending: deque[tuple[int, ...]] = deque(prefixes)
        self.running: dict[Any, tuple[int, ...]] = {}

    def unfinished(self) -> list[list[int]]:
        return [list(p) for p in (*self.running.values(), *self.pending)]


@dataclass
class LevelProgress:
    """One level's record; ``frontier`` is live while its size is searched (None: start the next size afresh)."""

    name: str
    level: str
    search: str
    searched_to: int = 0
    frontier: Frontier | None = None
    nodes: int = 0
    seconds: float = 0.0
    sizes: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    sketches: int = 0

    def open_below(self) -> bool:
        """True if the result is a search's after the exhaustive one (``AFTER_EXHAUSTIVE``) and sizes below it are
        left to search."""
        found = self.result
        return found is not None and found["method"] in AFTER_EXHAUSTIVE and self.searched_to < found["size"] - 1

    def provisional(self, level: Level) -> bool:
        """True if the result is open below (``open_below``) and above ``level``'s best known size: the level
        stays open, its exhaustive search goes on up to that size."""
        best = level.best_known
        return self.open_below() and best is not None and self.result is not None and self.result["size"] > best

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.level, "search": self.search, "searched_to": self.searched_to,
            "frontier": None if self.frontier is None else front_code(self.frontier.unfinished()),
            "nodes": self.nodes, "seconds": self.seconds, "sizes": self.sizes, "sketches": self.sketches,
            "result": self.result,
        }  # fmt: skip


class ProgressFile:
    """The records of one run (and of the runs it resumes), written to ``path`` at most every ``SAVE_EVERY``
    seconds (and ``SAVE_SPACING`` times the last write) unless forced."""

    def __init__(self, path: Path | None, tick_cap: int, levels: dict[str, LevelProgress] | None = None,
                 ruled: dict[str, LevelProgress] | None = None,
                 sweeps: dict[str, LevelProgress] | None = None) -> None:  # fmt: skip
        self.path, self.tick_cap = path, tick_cap
        self.levels: dict[str, LevelProgress] = levels or {}
        self.ruled: dict[str, LevelProgress] = ruled or {}
        self.sweeps: dict[str, LevelProgress] = sweeps or {}
        self.saved, self.cost = 0.0, 0.0  # when the file was last written, and how long that took

    def ruled_book(self) -> ProgressFile:
        """The board-rules search's records as a book of their own, saved with this one."""
        return _Section(self, self.ruled)

    def sweep_book(self) -> ProgressFile:
        """The sweep sub-problems' records as a book of their own, saved with this one."""
        return _Section(self, self.sweeps)

    def entry(self, level: Level, setup: Setup) -> LevelProgress:
        """The level's record (a new one if the file has none); a record made by another search is refused."""
        record = self.levels.get(level.name)
        if record is None:
            record = self.levels[level.name] = LevelProgress(level.name, level_digest(level), search_digest(setup))
        elif record.search != search_digest(setup):
            raise InputError(
                f"progress file {name_of(self.path or '-')}: level {level.name!r} was searched by another version of "
                "the solver or with other hints (its prefixes mean nothing to this search); delete the file, or run "
                "without --resume"
            )
        return record

    def save(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.path is None or (not force and now - self.saved < max(SAVE_EVERY, SAVE_SPACING * self.cost)):
            return
        doc = {"format": FORMAT, "kind": KIND, "tick_cap": self.tick_cap,
               "levels": {name: rec.to_json() for name, rec in self.levels.items()},
               "ruled": {name: rec.to_json() for name, rec in self.ruled.items()},
               "sweeps": {name: rec.to_json() for name, rec in self.sweeps.items()}}  # fmt: skip
        write_text_atomic(self.path, json.dumps(doc, allow_nan=False, separators=(",", ":")) + "\n")
        self.saved = time.monotonic()
        self.cost = self.saved - now


def load(path: Path, tick_cap: int, levels: list[Level]) -> ProgressFile:
    """A progress file written for ``levels`` (the levels file of this run) and ``tick_cap``, checked field by
    field; any fault is one ``InputError`` line."""
    name = f"progress file {name_of(path)}"
    doc = read_json(path, "progress file", max_bytes=MAX_FILE_BYTES)
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise InputError(f"{name} is not a cargobot solve progress file")
    if type(doc.get("format")) is not int or doc["format"] not in READS:  # not true or 1.0
        reads = ", ".join(map(str, READS[:-1])) + f" and {READS[-1]}"
        raise InputError(f"{name} has format {show(doc.get('format'))}, this puzzlebots reads {reads}")
    sections = ("levels", "ruled", "sweeps")[: 1 + (doc["format"] >= 4) + (doc["format"] >= 6)]
    keys = {"format", "kind", "tick_cap", *sections}
    if set(doc) != keys:
        raise InputError(f"{name}: fields must be {', '.join(sorted(keys))}")
    if doc["tick_cap"] != tick_cap:
        raise InputError(f"{name} was made with --tick-cap {show(doc['tick_cap'])}, this run has {tick_cap}")
    by_name = {lv.name: lv for lv in levels}
    subs = {sub.level.name: sub.level for lv in levels for sub in sub_searches(lv)}
    books = []
    for section in sections:
        records, known = {}, subs if section == "sweeps" else by_name
        if not isinstance(doc[section], dict):
            raise InputError(f"{name}: {section} must be an object of level records")
        for key, raw in doc[section].items():
            if key not in known:
                what = "sweep sub-problem or driver sketch" if section == "sweeps" else "level"
                raise InputError(f"{name} names {what} {show(key)}, which this levels file lacks (made for another "
                                 "one)")  # fmt: skip
            where = f"{name}: {dict(levels='level', ruled='ruled', sweeps='sweep')[section]} {key!r}"
            records[key] = _record(raw, known[key], where, doc["format"], tick_cap, skipped=section == "ruled")
        books.append(records)
    return ProgressFile(path, tick_cap, *books)


class _Section(ProgressFile):
    """One section of a progress file (``ProgressFile.ruled``, ``sweeps``) seen as a book: ``solve`` keeps its
    records there, and saving saves the whole file."""

    def __init__(self, parent: ProgressFile, records: dict[str, LevelProgress]) -> None:
        super().__init__(parent.path, parent.tick_cap, records)
        self.levels, self.parent = records, parent

    def save(self, force: bool = False) -> None:
        self.parent.save(force)


def _record(raw: Any, level: Level, where: str, version: int, tick_cap: int, skipped: bool = False) -> LevelProgress:
    """One level's record; ``skipped``: a board-rules record, whose sizes start where its search started."""
    keys = LEVEL_KEYS if version > 1 else LEVEL_KEYS - {"sketches"}
    if not isinstance(raw, dict) or set(raw) != keys:
        raise InputError(f"{where} must be an object with {', '.join(sorted(keys))}")
    if raw["level"] != level_digest(level):
        raise InputError(f"{where} was made for another definition of the level (another levels file)")
    if not isinstance(raw["search"], str) or len(raw["search"]) != 32:
        raise InputError(f"{where}: search must be a 32-character digest, got {show(raw['search'])}")
    limit = sum(level.functions)
    record = LevelProgress(
        level.name, raw["level"], raw["search"], check_int(raw["searched_to"], f"{where}: searched_to", 0, limit),
        _frontier(raw["frontier"], f"{where}: frontier", level, coded=version >= 5),
        check_int(raw["nodes"], f"{where}: nodes", 0, MAX_NODES), _seconds(raw["seconds"], f"{where}: seconds"),
        _sizes(raw["sizes"], where, limit),
        sketches=check_int(raw.get("sketches", 0), f"{where}: sketches", 0, MAX_SKETCHES),
    )  # fmt: skip
    top, first = record.searched_to, 1 if not skipped else record.searched_to - len(record.sizes) + 1
    if [s["size"] for s in record.sizes] != list(range(first, top + 1)):  # sizes are >= 1, so first is too
        what = "1" if not skipped else "the size its search started at"
        raise InputError(f"{where}: sizes must list sizes {what} to searched_to ({top}) in order")
    if raw["result"] is not None:
        record.result = _result(raw["result"], level, record.searched_to, f"{where}: result", tick_cap)
        # not ``provisional``: the level's best known size is no part of its digest, and may have changed
        if record.frontier is not None and not (version >= 3 and record.open_below()):
            raise InputError(f"{where}: a solved level has no frontier (only a sketch result above the sizes "
                             "searched has one)")  # fmt: skip
    return record


def _seconds(value: Any, where: str) -> float:
    seconds = check_number(value, where)
    if not 0 <= seconds <= MAX_SECONDS:
        raise InputError(f"{where} must be from 0 to {MAX_SECONDS}, got {show(value)}")
    return seconds


def front_code(prefixes: Iterable[list[int]]) -> list[list[int]]:
    """Each prefix as ``[k, *rest]``: it starts with the first ``k`` options of the prefix before it."""
    out: list[list[int]] = []
    before: list[int] = []
    for prefix in prefixes:
        k, most = 0, min(len(prefix), len(before))
        while k < most and prefix[k] == before[k]:
            k += 1
        out.append([k, *prefix[k:]])
        before = prefix
    return out


def _frontier(value: Any, where: str, level: Level, coded: bool) -> Frontier | None:
    """Option prefixes (``coded``: front-coded, ``front_code``): options index the kernel's branch choices (at
    most the level's ops plus end and skip)."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > MAX_PREFIXES:
        raise InputError(f"{where} must be null or a list of at most {MAX_PREFIXES:,} option prefixes")
    top = len(level.commands) + 1  # commands (moves, pickup, calls) + end + skip - 1
    prefixes: list[tuple[int, ...]] = []
    before: tuple[int, ...] = ()
    head = 1 if coded else 0  # the count of options shared with the prefix before
    for k, entry in enumerate(value):
        if not isinstance(entry, list) or not head <= len(entry) <= MAX_SIZE + head:
            raise InputError(f"{where}[{k}] must be a list of at most {MAX_SIZE} options"
                             + (", after the count it shares with the one before" if coded else ""))  # fmt: skip
        shared = check_int(entry[0], f"{where}[{k}]: options shared", 0, len(before)) if coded else 0
        rest = tuple(check_int(x, f"{where}[{k}]", 0, top) for x in entry[head:])
        before = before[:shared] + rest
        if len(before) > MAX_SIZE:
            raise InputError(f"{where}[{k}] must be a list of at most {MAX_SIZE} options")
        prefixes.append(before)
    return Frontier(prefixes)


def _sizes(value: Any, where: str, limit: int) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > limit:
        raise InputError(f"{where}: sizes must be a list of at most {limit} entries")
    out = []
    for k, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) != {"size", "nodes", "seconds"}:
            raise InputError(f"{where}: sizes[{k}] must be an object with size, nodes, seconds")
        out.append({"size": check_int(entry["size"], f"{where}: sizes[{k}].size", 1, limit),
                    "nodes": check_int(entry["nodes"], f"{where}: sizes[{k}].nodes", 0, MAX_NODES),
                    "seconds": _seconds(entry["seconds"], f"{where}: sizes[{k}].seconds")})  # fmt: skip
    return out


def _result(value: Any, level: Level, searched_to: int, where: str, tick_cap: int) -> dict[str, Any]:
    """A solved level's program, believed only if it wins the level at the size it claims (a sub-problem's within
    the file's tick cap, as its search found it: the readable interpreter is slow)."""
    if not isinstance(value, dict) or set(value) != RESULT_KEYS:
        raise InputError(f"{where} must be an object with {', '.join(sorted(RESULT_KEYS))}")
    if value["method"] not in METHODS:
        raise InputError(f"{where}: method must be one of {', '.join(METHODS)}, got {show(value['method'])}")
    if not isinstance(value["program"], str) or len(value["program"]) > 10_000:
        raise InputError(f"{where}: program must be a program text")
    try:
        program = parse_registers(value["program"])
        level.check_program(program)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    report = play_out(level, program, tick_cap)
    size = register_count(program)
    smaller = size <= searched_to and value["method"] != "sketch"  # below a size it proved empty
    if not report.solved or value["size"] != size or value["ticks"] != report.steps or smaller:
        raise InputError(f"{where}: program {show(value['program'])} does not win the level as recorded")
    return {"program": format_registers(program), "size": size, "ticks": report.steps, "method": value["method"]}
