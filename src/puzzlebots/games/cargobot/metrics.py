"""The Ruby ``CrateStacks`` error measures (reference §5): how far an observed board is from a target.

All take the observed board first and the target second, and need at least as many observed piles as
target piles. Piles and boxes in ``crate_cleanup_error``/``stack_cleanup_error`` are 1-based as in Ruby.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from puzzlebots.core.errors import InputError

Board = Sequence[Sequence[str]]


def _check(observed: Board, target: Board) -> None:
    if len(observed) < len(target):
        raise InputError(f"metrics: the observed board has {len(observed)} piles, the target {len(target)}")


def _at(pile: Sequence[str], i: int) -> str | None:
    return pile[i] if 0 <= i < len(pile) else None


def _last_index(pile: Sequence[str], colour: str) -> int:
    return len(pile) - 1 - list(reversed(pile)).index(colour)


def topmost_matches(observed: Board, colour: str | None) -> list[int]:
    """For each observed pile holding ``colour``: depth of its topmost one (top crate = 1)."""
    return [len(p) - _last_index(p, colour) for p in observed if colour is not None and colour in p]


def crate_cleanup_error(observed: Board, target: Board, stack: int, box: int) -> int:
    _check(observed, target)
    i = box - 1
    pile = observed[stack - 1]
    length = len(pile)
    wanted = _at(target[stack - 1], i)
    if wanted == _at(pile, i):
        return 0
    matches = topmost_matches(observed, wanted)
    if not matches or wanted is None:
        return 0
    this = length - _last_index(pile, wanted) if wanted in pile else None
    add = i + 1 - length if length - 1 < i else 0
    shift = length - i if length - 1 > i else 0
    grab = max(min(matches), add)
    if this == grab:
        return shift + 1 if grab < shift else 2 * grab - (length - i) + 1
    return shift + grab + add


def stack_cleanup_error(observed: Board, target: Board, stack: int) -> int:
    _check(observed, target)
    extra = max(0, len(observed[stack - 1]) - len(target[stack - 1]))
    boxes = sum(crate_cleanup_error(observed, target, stack, b) for b in range(1, len(target[stack - 1]) + 1))
    return extra * (extra + 1) // 2 + boxes


def _count(board: Board) -> int:
    return sum(len(p) for p in board)


def cleanup_error(observed: Board, target: Board) -> int:
    _check(observed, target)
    stacks = sum(stack_cleanup_error(observed, target, s) for s in range(1, len(target) + 1))
    return stacks + 100 * abs(_count(target) - _count(observed))


def rebuild_distance(observed: Board, target: Board) -> int:
    """Greedy rebuild cost: fetch each wanted crate from the leftmost pile that has it (hill climber's error)."""
    _check(observed, target)
    raw = [list(p) for p in observed]
    score = 0
    for j, pile in enumerate(target):
        for wanted in pile:
            source = next((k for k, p in enumerate(raw) if wanted in p), None)
            if source is None:
                score += 100
                continue
            height = raw[source].index(wanted)
            del raw[source][height]
            score += abs(source - j) + height
    return score + 100 * _count(raw)


def teardown_distance(observed: Board, target: Board) -> int:
    """Crates to remove above the first mismatch of each pile, plus 100 per missing or extra crate."""
    _check(observed, target)
    score = 0
    for j, pile in enumerate(target):
        for i in range(len(pile) + 1):
            if _at(pile, i) != _at(observed[j], i):
                score += len(pile) - i
                break
    want, have = Counter(c for p in target for c in p), Counter(c for p in observed for c in p)
    return score + 100 * sum(abs(want[c] - have[c]) for c in want.keys() | have.keys())


METRICS = {"rebuild": rebuild_distance, "teardown": teardown_distance, "cleanup": cleanup_error}
