"""Station passes: a main loop read off a sorting board, for the board rules of ``solve --all``.

On a *station board* every crate has one pile it must end on, the one whose goal is all its colour (its
station), and every other pile must end empty. Stations start empty and stand evenly spaced, and the claw
starts on the first (or the last) of them. A program that sorts such a board can walk across it, at each
station set down the crate it carries if that is the station's colour, and come back: its F1 is then fixed by
the board alone, ``pickup_c1 call2 pickup_c2 call2 ... pickup_ck call3`` (F2 walks from one station to the
next, F3 goes back and starts again), and only the helpers are left to search. That is the main pass Elizarov
handed his solver for Multi Sort 2 ("Simplified 3", his ``:use=``), read off the level instead of given.
"""

from __future__ import annotations

from ..language import Register, RegisterProgram
from ..levels import Level


def station_pass(level: Level) -> RegisterProgram | None:
    """The fixed F1 (then ``()`` for each function the search builds) of ``level``'s station pass, or None
    where the board is no station board, the toolbox lacks a condition, a move or F2-F3 the pass needs, F1 has too
    few slots for it, or the level is a sub-problem."""
    stations = [i for i, pile in enumerate(level.goal) if pile]
    colours = [level.goal[i][0] for i in stations]
    if level.subproblem or len(stations) < 2 or level.callable_functions < 3:
        return None
    if any(set(level.goal[i]) != {c} or level.stacks[i] for i, c in zip(stations, colours, strict=True)):
        return None  # a station must be one colour and start empty
    if len(set(colours)) < len(colours) or not {c for pile in level.stacks for c in pile} <= set(colours):
        return None  # one station per colour, and one for every crate
    if len({b - a for a, b in zip(stations, stations[1:], strict=False)}) != 1:
        return None  # evenly spaced, so one helper walks from each station to the next
    first = level.claw - 1
    if first not in (stations[0], stations[-1]):
        return None
    order = stations if first == stations[0] else stations[::-1]
    needs = {"pickup", "f2", "f3", "right" if first == stations[0] else "left"}
    if not needs <= set(level.commands) or not set(colours) <= set(level.conditions):
        return None
    if 2 * len(order) > level.functions[0]:
        return None
    main: list[Register] = []
    for i in order:
        main += [("pickup", level.goal[i][0]), ("f2", None)]
    main[-1] = ("f3", None)
    return (tuple(main),) + ((),) * (len(level.functions) - 1)
