"""Driver sketches: a level that can be set right pile by pile, searched whole behind a driver that walks it.

No search had found the programs people wrote for Vertical Sort (18 registers, Markus Mühlberger's) and Palette
Swap (14, Jan Achrenius's): both walk the piles rightwards with a short driver in F1, and keep tiny helpers in the
last functions that the work on a pile calls again and again. His lifts a pile's top crate and works on the pile
if it lifted one, with two helpers that touch a neighbour and come back (``R claw L``, ``L claw R``); Jan's keeps
"lift and step" (``claw R``) as its last function, calls it from F1 and from the work, and works while holding.
A *driver sketch* gives the exhaustive search F1 and those last functions (``Hints.fixed``, method ``driver``)
and leaves it the functions between, up to the level's best known size; what it finds is smallest among the
programs the sketch allows, not proven smallest. The catalogue is ``DRIVERS``: the sweep's driver
(``bots.sweep``: work on the pile, step) with the two touches, and the drivers of those two programs with their
helpers. It is tried on the levels with a sweep sub-problem (their piles can be set right one after another from
the claw rightwards, the walk these drivers make), in the level's own function numbers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

from puzzlebots.core.errors import InputError

from ..language import register_count
from ..levels import Level
from .hints import Hints, parse_hints
from .sweep import Sweep, sweeps

#: name -> (F1, the last functions' idioms), in script syntax; ``N`` is the level's last function, ``M`` the
#: one before it
DRIVERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "work, step, touch neighbours": ("call2 R call1", ("R claw L", "L claw R")),
    "lift, work when holding, step, touch neighbours": ("claw call2_any R call1", ("R claw L", "L claw R")),
    "lift and step, work when holding": ("callN call2_any call1", ("claw R",)),
}


class DriverSketch(NamedTuple):
    """One sketch of a level: ``level`` is the level renamed (its record in the progress file is its own),
    ``hints`` the functions the sketch gives."""

    name: str
    level: Level
    hints: Hints


def driver_sketches(level: Level) -> list[DriverSketch]:
    """The sketches of ``DRIVERS`` that fit ``level`` (none unless it has a sweep sub-problem): the toolbox has
    their moves, conditions and calls, at least one function is left to search between F1 and the idioms, and
    the registers they give leave room for it (two) within the level's best known size."""
    if not sweeps(level):
        return []
    n = level.callable_functions
    found = []
    for name, (main, idioms) in DRIVERS.items():
        if n < len(idioms) + 2:
            continue
        last = [f"prog_{n - len(idioms) + 1 + k} {idiom}" for k, idiom in enumerate(idioms)]
        text = " ".join([main.replace("callN", f"call{n}"), *last])
        try:
            hints = parse_hints(level, None, None, fix=text)
        except InputError:
            continue  # the toolbox lacks an op, a condition or a slot the sketch needs
        assert hints.fixed is not None
        if level.best_known is not None and register_count(hints.fixed) + 2 > level.best_known:
            continue
        renamed = replace(level, name=f"{level.name} (driver: {name})")
        found.append(DriverSketch(name, renamed, hints._replace(method="driver")))
    return found


def sub_searches(level: Level) -> list[DriverSketch | Sweep]:
    """What ``solve`` searches in turns once the exhaustive search of ``level`` runs out of its share: the
    driver sketches (cheaper: most of their registers are given), then the sweep sub-problems."""
    return [*driver_sketches(level), *sweeps(level)]
