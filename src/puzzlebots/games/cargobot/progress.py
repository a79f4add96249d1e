"""The progress file of ``cargobot solve``: what a long search has done, so that ``--resume`` goes on from there.

The file is one JSON object, written atomically (a kill leaves the previous version whole)::

    {"format": 6, "kind": "puzzlebots cargobot solve progress", "tick_cap": N,
     "levels": {NAME: RECORD}, "ruled": {NAME: RECORD}, "sweeps": {SUB-PROBLEM NAME: RECORD}}

``levels`` holds each level's exhaustive search, ``ruled`` the search under board rules
(``bots.hints.board_hints``; it starts at the level's best known size, so its sizes list starts there too),
``sweeps`` the searches on a level's sweep sub-problems (``bots.sweep``) and driver sketches (``bots.drivers``),
filed under the sub-problem's or the sketch's name. A RECORD (``records.LevelProgress``) is::

    {"level": digest, "search": digest, "searched_to": n, "frontier": null or [[k, option, ...], ...],
     "nodes": n, "seconds": s, "sizes": [{"size": n, "nodes": n, "seconds": s}, ...], "sketches": n,
     "result": null or {"program": text, "size": n, "ticks": n, "method": METHOD}}

``frontier`` lists the option prefixes of the size in progress that no task has finished (the tasks running when
the file was written are in it, so a resumed search redoes at most those), front-coded: each prefix is the number
``k`` of options it shares with the prefix before it, then the rest of its options (consecutive prefixes, the
children of one task, share most of theirs). A result of a search after the exhaustive one above the level's best
known size, with smaller sizes left to search, is provisional (``LevelProgress.provisional``): the level stays
open, and its record keeps the frontier beside the program. Formats 1 to 5 are read too, each lacking a part of
this one, read as empty: 1 has no ``sketches`` (none started), 2 no frontier beside a provisional result, 3 no
``ruled``, 4 plain frontiers (lists of options, not front-coded), 5 no ``sweeps``.

It is hostile input when read back: every field is checked, and it must match this run: the same definition of each
level it names (same levels file), the same tick cap, and the same search (``search`` is the digest of the kernel's
source and the toolbox arrays it branches over: a prefix only means something to the search that listed it). A
planted "solved" result is replayed on the game interpreter before it is believed.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import check_int, check_number, name_of, read_json, show, write_text_atomic

from .language import format_registers, parse_registers, register_count
from .levels import Level
from .records import METHODS, Found, Frontier, LevelProgress
from .verify import play_out

FORMAT = 6
#: formats read (the module's docstring says what each lacks of ``FORMAT``)
READS = (1, 2, 3, 4, 5, 6)
KIND = "puzzlebots cargobot solve progress"
#: seconds between two writes while a size is searched (every finished size and level is written at once) ...
SAVE_EVERY = 2.0
#: ... or more: at least this many times the last write took, so that writing a big frontier (10 MB of JSON on
#: the open levels) costs the search at most 2% of the parent's time
SAVE_SPACING = 50.0
#: bounds of the numbers a progress file may hold: far beyond any search this code can run
MAX_SIZE = 1_000
#: the largest progress file ``--resume`` reads, past the 32 MiB other files may have: an hour of ``solve --all``
#: writes about 7 MB (the board-rules frontier of Multi Sort 2 alone holds 418,000 prefixes), so this is many
#: hours' worth
MAX_FILE_BYTES = 128 * 2**20
#: the most prefixes one frontier may hold: about what a file of ``MAX_FILE_BYTES`` can (a prefix takes at least
#: six bytes: ``[k,o],``), so a search that wrote its file can read it back
MAX_PREFIXES = 25_000_000
MAX_NODES = 10**18
MAX_SECONDS = 10**9
MAX_SKETCHES = 2**31 - 1  # a sketch seed
LEVEL_KEYS = {"level", "search", "searched_to", "frontier", "nodes", "seconds", "sizes", "sketches", "result"}
RESULT_KEYS = {"program", "size", "ticks", "method"}


def digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little") + part)
    return h.hexdigest()[:32]


def level_digest(level: Level) -> str:
    """What defines a level for the search (its name is the key it is filed under)."""
    fields = [level.stacks, level.goal, level.claw, level.functions, level.commands, level.conditions]
    if level.subproblem:  # (only a sub-problem has these fields: a plain level's digest leaves them out)
        fields += [level.worlds, level.poison, level.finish] + ([True] if level.home else [])
    return digest(json.dumps(fields).encode())


class ProgressFile:
    """The records of one run (and of the runs it resumes), written to ``path`` at most every ``SAVE_EVERY``
    seconds (and ``SAVE_SPACING`` times the last write) unless forced."""

    def __init__(
        self,
        path: Path | None,
        tick_cap: int,
        levels: dict[str, LevelProgress] | None = None,
        ruled: dict[str, LevelProgress] | None = None,
        sweeps: dict[str, LevelProgress] | None = None,
    ) -> None:
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

    def entry(self, level: Level, search: str) -> LevelProgress:
        """The level's record (a new one if the file has none) for the search of digest ``search``
        (``bots.solve.Setup.digest``); a record made by another search is refused."""
        record = self.levels.get(level.name)
        if record is None:
            record = self.levels[level.name] = LevelProgress(level.name, level_digest(level), search)
        elif record.search != search:
            raise InputError(
                f"progress file {name_of(self.path or '-')}: level {level.name!r} was searched by another version of "
                "the solver or with other hints (its prefixes mean nothing to this search); delete the file, or run "
                "without --resume"
            )
        return record

    def start_sketch(self, name: str) -> int:
        """A sketch search of level ``name`` starts: its seed (``LevelProgress.start_sketch``), saved before it
        runs."""
        seed = self.levels[name].start_sketch()
        self.save(force=True)
        return seed

    def save(self, force: bool = False) -> None:
        now = time.monotonic()
        if self.path is None or (not force and now - self.saved < max(SAVE_EVERY, SAVE_SPACING * self.cost)):
            return
        doc = {
            "format": FORMAT,
            "kind": KIND,
            "tick_cap": self.tick_cap,
            "levels": {name: _json(rec) for name, rec in self.levels.items()},
            "ruled": {name: _json(rec) for name, rec in self.ruled.items()},
            "sweeps": {name: _json(rec) for name, rec in self.sweeps.items()},
        }
        write_text_atomic(self.path, json.dumps(doc, allow_nan=False, separators=(",", ":")) + "\n")
        self.saved = time.monotonic()
        self.cost = self.saved - now


def _json(rec: LevelProgress) -> dict[str, Any]:
    return {
        "level": rec.level,
        "search": rec.search,
        "searched_to": rec.searched_to,
        "frontier": None if rec.frontier is None else front_code(rec.frontier.unfinished()),
        "nodes": rec.nodes,
        "seconds": rec.seconds,
        "sizes": rec.sizes,
        "sketches": rec.sketches,
        "result": None if rec.result is None else rec.result.to_json(),
    }


def load(
    path: Path, tick_cap: int, levels: list[Level], subproblems: Mapping[str, Level] | None = None
) -> ProgressFile:
    """A progress file written for ``levels`` (the levels file of this run), their sweep sub-problems and driver
    sketches (``subproblems``, by name: ``campaign.load_progress`` finds them; None: none) and ``tick_cap``, checked
    field by field; any fault is one ``InputError`` line."""
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
    books = []
    for section in sections:
        records, known = {}, (subproblems or {}) if section == "sweeps" else by_name
        if not isinstance(doc[section], dict):
            raise InputError(f"{name}: {section} must be an object of level records")
        for key, raw in doc[section].items():
            if key not in known:
                what = "sweep sub-problem or driver sketch" if section == "sweeps" else "level"
                raise InputError(
                    f"{name} names {what} {show(key)}, which this levels file lacks (made for another one)"
                )
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
        level.name,
        raw["level"],
        raw["search"],
        check_int(raw["searched_to"], f"{where}: searched_to", 0, limit),
        _frontier(raw["frontier"], f"{where}: frontier", level, coded=version >= 5),
        check_int(raw["nodes"], f"{where}: nodes", 0, MAX_NODES),
        _seconds(raw["seconds"], f"{where}: seconds"),
        _sizes(raw["sizes"], where, limit),
        sketches=check_int(raw.get("sketches", 0), f"{where}: sketches", 0, MAX_SKETCHES),
    )
    top, first = record.searched_to, 1 if not skipped else record.searched_to - len(record.sizes) + 1
    if [s["size"] for s in record.sizes] != list(range(first, top + 1)):  # sizes are >= 1, so first is too
        what = "1" if not skipped else "the size its search started at"
        raise InputError(f"{where}: sizes must list sizes {what} to searched_to ({top}) in order")
    if raw["result"] is not None:
        record = replace(record, result=_result(raw["result"], level, record.searched_to, f"{where}: result", tick_cap))
        # not ``provisional``: the level's best known size is no part of its digest, and may have changed
        if record.frontier is not None and not (version >= 3 and record.open_below()):
            raise InputError(
                f"{where}: a solved level has no frontier (only a sketch result above the sizes searched has one)"
            )
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
            raise InputError(
                f"{where}[{k}] must be a list of at most {MAX_SIZE} options"
                + (", after the count it shares with the one before" if coded else "")
            )
        shared = entry[0] if coded else 0
        rest = tuple(entry[head:])
        if not (type(shared) is int and 0 <= shared <= len(before) and _options(rest, top)):
            # the checks that name what is wrong, only then: a frontier holds millions of prefixes
            shared = check_int(entry[0], f"{where}[{k}]: options shared", 0, len(before)) if coded else 0
            rest = tuple(check_int(x, f"{where}[{k}]", 0, top) for x in rest)
        before = before[:shared] + rest
        if len(before) > MAX_SIZE:
            raise InputError(f"{where}[{k}] must be a list of at most {MAX_SIZE} options")
        prefixes.append(before)
    return Frontier(prefixes)


def _options(options: tuple[Any, ...], top: int) -> bool:
    """Whether every option is a whole number (not a bool) in ``0..top``."""
    for x in options:
        if type(x) is not int or not 0 <= x <= top:
            return False
    return True


def _sizes(value: Any, where: str, limit: int) -> list[dict[str, Any]]:
    if not isinstance(value, list) or len(value) > limit:
        raise InputError(f"{where}: sizes must be a list of at most {limit} entries")
    out = []
    for k, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) != {"size", "nodes", "seconds"}:
            raise InputError(f"{where}: sizes[{k}] must be an object with size, nodes, seconds")
        out.append(
            {
                "size": check_int(entry["size"], f"{where}: sizes[{k}].size", 1, limit),
                "nodes": check_int(entry["nodes"], f"{where}: sizes[{k}].nodes", 0, MAX_NODES),
                "seconds": _seconds(entry["seconds"], f"{where}: sizes[{k}].seconds"),
            }
        )
    return out


def _result(value: Any, level: Level, searched_to: int, where: str, tick_cap: int) -> Found:
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
    return Found(format_registers(program), size, report.steps, value["method"])
