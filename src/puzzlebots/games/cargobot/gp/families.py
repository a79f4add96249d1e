"""Level families: seeded start boards of the rule a level's goal follows, to train a program on some boards and
test it on others (does it solve the rule, or only its one board?).

A family keeps its level's pile count, claw and crate colours and draws new piles (heights 1 to ``MAX_HEIGHT``,
the level's colours); its rule makes each board's goal. The level's own board is always the first training board.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import show

from ..levels import Level, World
from ..rules import COLOURS

Piles = list[list[str]]
#: the tallest pile a generated board starts with
MAX_HEIGHT = 5
#: boards a family trains on (the level's own first) and is tested on, by default
TRAIN_BOARDS, TEST_BOARDS = 4, 20


def _moved(piles: Piles, source: int, target: int, crates: int | None) -> Piles:
    """The goal of carrying the top ``crates`` (None: all) of ``source`` to ``target`` one at a time (so their
    order turns over)."""
    goal = [list(p) for p in piles]
    count = len(goal[source]) if crates is None else crates
    taken = goal[source][len(goal[source]) - count :]
    goal[source] = goal[source][: len(goal[source]) - count]
    goal[target] += taken[::-1]
    return goal


def _shifted_left(piles: Piles) -> Piles:
    """Every pile carried one place left, crate by crate (each turns over)."""
    return [p[::-1] for p in piles[1:]] + [[]]


def _sorted_two(piles: Piles, first: str) -> Piles:
    """Crates of ``first`` on the leftmost pile, the others on the rightmost."""
    crates = [c for p in piles for c in p]
    goal: Piles = [[] for _ in piles]
    goal[0] = [c for c in crates if c == first]
    goal[-1] = [c for c in crates if c != first]
    return goal


def _draw(level: Level, rng: random.Random, at: list[int], mono: bool = False) -> Piles:
    """New piles at ``at``: random crates of the family's colours, or (``mono``) of the colour of the level's own
    pile there."""
    colours = colours_of(level)
    piles: Piles = [[] for _ in level.stacks]
    for k in at:
        size = rng.randint(1, MAX_HEIGHT)
        piles[k] = [level.stacks[k][0]] * size if mono else [rng.choice(colours) for _ in range(size)]
    return piles


Draw = Callable[[Level, random.Random], Piles]
Rule = Callable[[Piles], Piles]
#: level name -> (how a start board is drawn, the rule that makes its goal)
FAMILIES: dict[str, tuple[Draw, Rule]] = {
    "Cargo 101": (lambda lv, rng: _draw(lv, rng, [0]), lambda p: _moved(p, 0, 1, 1)),
    "Transporter": (lambda lv, rng: _draw(lv, rng, [0]), lambda p: _moved(p, 0, len(p) - 1, 1)),
    "Re-Curses": (lambda lv, rng: _draw(lv, rng, [0]), lambda p: _moved(p, 0, 1, None)),
    "Inverter": (lambda lv, rng: _draw(lv, rng, [0]), lambda p: _moved(p, 0, len(p) - 1, None)),
    "Go Left": (lambda lv, rng: _draw(lv, rng, list(range(1, len(lv.stacks)))), _shifted_left),
    "Go Left 2": (lambda lv, rng: _draw(lv, rng, list(range(1, len(lv.stacks)))), _shifted_left),
    "Shuffle Sort": (lambda lv, rng: _draw(lv, rng, [1]), lambda p: _sorted_two(p, "blue")),
    "Color Sort": (lambda lv, rng: _draw(lv, rng, [1]), lambda p: _sorted_two(p, "red")),
    "The Swap": (
        lambda lv, rng: _draw(lv, rng, [0, len(lv.stacks) - 1], mono=True),
        lambda p: [list(p[-1]), *p[1:-1], list(p[0])],
    ),
}
#: the families whose rule reads colours
SORTS = ("Shuffle Sort", "Color Sort")


#: the attempts to draw a family's distinct boards
ATTEMPTS = 100_000


def colours_of(level: Level) -> tuple[str, ...]:
    """The level's crate colours; all four where its toolbox names no colour and its rule reads none (the
    colours then only make the boards differ)."""
    own = tuple(sorted({c for p in level.stacks for c in p}))
    return own if level.conditions or level.name in SORTS else COLOURS


def family_boards(level: Level, count: int, seed: int) -> list[World]:
    """``count`` boards of the level's rule, drawn from ``seed`` (the level's own board not among them)."""
    if level.name not in FAMILIES:
        raise InputError(f"level {show(level.name)} has no family ({', '.join(FAMILIES)})")
    draw, rule = FAMILIES[level.name]
    rng = random.Random(seed)
    boards: list[World] = []
    seen = {(level.stacks, level.goal)}
    for _ in range(ATTEMPTS):
        if len(boards) == count:
            return boards
        piles = draw(level, rng)
        goal = rule(piles)
        board = (tuple(tuple(p) for p in piles), tuple(tuple(p) for p in goal))
        if board not in seen and goal != piles:
            seen.add(board)
            boards.append((level.claw, *board))
    raise InputError(f"{level.name}: its family has fewer than {count} distinct boards")


def split(
    level: Level, seed: int, train: int = TRAIN_BOARDS, test: int = TEST_BOARDS
) -> tuple[list[World], list[World]]:
    """(training boards: the level's own, then ``train - 1`` drawn; test boards: ``test`` others drawn)."""
    if not 1 <= train <= 15 or not 1 <= test <= 1000:
        raise InputError(f"a family trains on 1-15 boards and tests on 1-1000, not {train} and {test}")
    drawn = family_boards(level, train - 1 + test, seed)
    return level.boards() + drawn[: train - 1], drawn[train - 1 :]
