"""Sweep sub-problems: a level cut into one small board per pile, read off the level alone.

Elizarov reached Restoring Order's best known 13 through a sub-problem he drew by hand ("Simplified 6"): every
pile a board of its own between its two neighbours, their crates poison (never to be lifted), and the program
made to finish each board at its goal; the helper that wins them all, behind a driver that steps right, wins the
level. Where the piles can be set right one after another from the claw rightwards, carrying the surplus of each
on to the next, those boards follow from the start and goal alone: ``sweeps`` derives them, ``compose`` puts the
helper behind the driver. The boards also make the helper come home (``Level.home``: the claw back on its start
pile when it returns), so a helper that wins them wins the level (the driver's next step starts where the next
board does). Assumptions, after his boards: the left neighbour is set and only its top crate may be lifted (and
put back), the right one is all poison; the surplus of a pile is one colour, so its order on the next pile is
known.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import NamedTuple

from ..language import RegisterProgram
from ..levels import Board, Level, World

#: the poison crates' colour (no level uses it)
POISON = "grey"
#: F1 of a composed program: work on a pile (F2, the helper), step right, again
DRIVER: tuple[tuple[str, str | None], ...] = (("f2", None), ("right", None), ("f1", None))
#: where the helper starts, and the first pile it works on, counted from the level's claw
STARTS = (("on its pile", 0), ("left of its pile", 1))


class Sweep(NamedTuple):
    """One way to cut a level: the helper starts ``start`` (a ``STARTS`` name); ``level`` is the sub-problem."""

    start: str
    level: Level


def sweeps(level: Level) -> list[Sweep]:
    """The sweep sub-problems of ``level`` (none if its piles cannot be set right one after another)."""
    colours = {c for pile in (*level.stacks, *level.goal) for c in pile}
    usable = "right" in level.commands and level.callable_functions >= 2 and len(level.functions) >= 2
    if level.subproblem or POISON in colours or not usable or level.functions[0] < len(DRIVER):
        return []
    found = []
    for start, offset in STARTS:
        boards = _boards(
            [list(p) for p in level.stacks], [list(p) for p in level.goal], level.claw - 1 + offset, offset
        )
        if boards:
            found.append(Sweep(start, _sub_level(level, start, boards)))
    return found


def _boards(start: Board, goal: Board, first: int, offset: int) -> list[World] | None:
    """One board per pile from ``first`` (0-based) until the level would be won: the pile with what the one
    before left on it, between its left neighbour (set) and its right one (as it starts); the goal is the pile
    set and its surplus on the right neighbour. None if a pile lacks crates its goal needs, its surplus has two
    colours, or there is no pile to carry it to."""
    n = len(start)
    if first >= n or start[:first] != goal[:first]:
        return None
    boards: list[World] = []
    carried: list[str] = []
    for i in range(first, n):
        if goal[:i] + [start[i] + carried] + start[i + 1 :] == goal:
            return boards or None
        pile = start[i] + carried
        surplus = Counter(pile)
        surplus.subtract(Counter(goal[i]))
        if min(surplus.values(), default=0) < 0 or len(+surplus) > 1 or (+surplus and i + 1 == n):
            return None
        carried = list((+surplus).elements())
        left = [[POISON] * (len(goal[i - 1]) - 1) + goal[i - 1][-1:]] if i else []
        right = [[POISON] * len(start[i + 1])] if i + 1 < n else []
        stacks = [*left, pile, *right]
        ends = [*left, goal[i], *[r + carried for r in right]]
        boards.append((len(left) + 1 - offset, _frozen(stacks), _frozen(ends)))
    return boards  # the last pile set (it has no surplus)


def _frozen(board: Board) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(p) for p in board)


def _sub_level(level: Level, start: str, boards: list[World]) -> Level:
    """The boards as a sub-problem whose F1 is the helper (the level's F2 and on, calls renumbered)."""
    claw, stacks, goal = boards[0]
    calls = tuple(f"f{k}" for k in range(1, level.callable_functions))
    commands = tuple(c for c in level.commands if not c.startswith("f")) + calls
    return replace(
        level,
        number=None,
        name=f"{level.name} (sweep, helper starting {start})",
        claw=claw,
        stacks=stacks,
        goal=goal,
        functions=level.functions[1:],
        commands=commands,
        best_known=None,
        original_name=None,
        hint=None,
        worlds=tuple(boards[1:]),
        poison=POISON,
        finish=True,
        home=True,
    )


def compose(helper: RegisterProgram) -> RegisterProgram:
    """The level's program: ``DRIVER`` in F1, the helper's functions after it (its calls renumbered)."""

    def shifted(command: str | None) -> str | None:
        return f"f{int(command[1:]) + 1}" if command and command.startswith("f") else command

    return (DRIVER, *(tuple((shifted(c), cond) for c, cond in function) for function in helper))
