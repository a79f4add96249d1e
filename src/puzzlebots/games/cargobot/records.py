"""The records of ``cargobot solve`` as plain data: a level's search record (``LevelProgress``), the program it
holds (``Found``) and the prefixes of the size in progress (``Frontier``). ``progress`` reads and writes them;
the searches change a record only through its methods, each one statement, so that no interrupt splits a change.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from .levels import Level

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


@dataclass(frozen=True)
class Found:
    """A program that wins a level: its script text, registers, ticks in game semantics, and how it was found
    (``METHODS``)."""

    program: str
    size: int
    ticks: int
    method: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Frontier:
    """The unfinished prefixes of one size: ``running`` (task handle -> prefix, in start order) and ``pending``."""

    def __init__(self, prefixes: Iterable[tuple[int, ...]]) -> None:
        self.pending: deque[tuple[int, ...]] = deque(prefixes)
        self.running: dict[Any, tuple[int, ...]] = {}

    def unfinished(self) -> list[list[int]]:
        return [list(p) for p in (*self.running.values(), *self.pending)]


@dataclass
class LevelProgress:
    """One level's record: ``level`` and ``search`` are the digests of the level and of the search that made it;
    ``searched_to`` the largest size exhausted; ``frontier`` the prefixes of the next size left while it is
    searched (None: start the next size afresh); the nodes and seconds of every session; ``sizes`` one line
    (size, nodes, seconds) per size exhausted; ``result`` the program once the level is solved; ``sketches`` the
    sketch searches started (the next one draws that seed)."""

    name: str
    level: str
    search: str
    searched_to: int = 0
    frontier: Frontier | None = None
    nodes: int = 0
    seconds: float = 0.0
    sizes: list[dict[str, Any]] = field(default_factory=list)
    result: Found | None = None
    sketches: int = 0

    def open_below(self) -> bool:
        """True if the result is a search's after the exhaustive one (``AFTER_EXHAUSTIVE``) and sizes below it are
        left to search."""
        found = self.result
        return found is not None and found.method in AFTER_EXHAUSTIVE and self.searched_to < found.size - 1

    def provisional(self, level: Level) -> bool:
        """True if the result is open below (``open_below``) and above ``level``'s best known size: the level
        stays open, its exhaustive search goes on up to that size."""
        best = level.best_known
        return self.open_below() and best is not None and self.result is not None and self.result.size > best

    # -- the changes a search makes, each one statement

    def count(self, nodes: int, seconds: float) -> None:
        """The nodes and seconds of every session so far."""
        self.nodes, self.seconds = nodes, seconds

    def skip_below(self, first: int) -> None:
        """Sizes below ``first`` counted as searched (a hinted search that starts at ``first``)."""
        self.searched_to = first - 1

    def start_size(self, prefixes: Iterable[tuple[int, ...]]) -> Frontier:
        """The next size's search begins (or goes on) from ``prefixes``: its frontier."""
        self.frontier = Frontier(prefixes)
        return self.frontier

    def finish_size(self, size: int) -> None:
        """``size`` exhausted: its line holds the nodes and seconds since the size before."""
        line = {
            "size": size,
            "nodes": self.nodes - sum(s["nodes"] for s in self.sizes),
            "seconds": round(self.seconds - sum(s["seconds"] for s in self.sizes), 3),
        }
        self.searched_to, self.frontier, self.sizes = size, None, [*self.sizes, line]

    def solve(self, found: Found | None) -> None:
        """The exhaustive search found ``found`` (None: a program that did not win, the record's result kept)."""
        self.frontier, self.result = None, found or self.result

    def adopt(self, found: Found, seconds: float, keep_frontier: bool) -> None:
        """Another search found ``found`` in ``seconds``; the frontier stays only if the exhaustive search goes on
        below it."""
        kept = self.frontier if keep_frontier else None
        self.seconds, self.frontier, self.result = self.seconds + seconds, kept, found

    def start_sketch(self) -> int:
        """A sketch search starts: its seed, the number started before it."""
        seed, self.sketches = self.sketches, self.sketches + 1
        return seed
