"""The Tsu field and the solo game: placements with reachability, gravity, chains, scoring, garbage.

Public actions are placements ``(x, r)`` with x = 1..6 (the reference's columns) and r = 0..3 (0 = child
above the axis, 1 = right, 2 = below, 3 = left). The heavy lifting is in ``kernels`` (numba): a ``Field``
stores the readable grid (what views, hashes, replays and the KRIEG bots read) and runs every rule step
(drops, pops, gravity, scoring, garbage) on the bitboard kernel (``kernels.bitboard``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.core.jsonio import show

from .config import typed_config
from .kernels.bitboard import drop_garbage_grid, play_grid
from .kernels.field import column_heights
from .kernels.placements import placement_mask
from .names import REACH_RULES
from .pairs import pair_sequence
from .rules import (
    ALL_CLEAR_BONUS,
    COLOUR_LETTERS,
    DEATH_X,
    DEATH_Y,
    GARBAGE,
    MAX_GARBAGE_DROP,
    N_PLACEMENTS,
    PLACEMENT_INDEX,
    PLACEMENTS,
    ROWS,
    WIDTH,
    canonical_index,
)

Placement = tuple[int, int]
Pair = tuple[int, int]


@dataclass(frozen=True)
class ChainResult:
    """What one placement produced once everything resolved."""

    links: int = 0
    score: int = 0  # chain score (sum of the links), without any all-clear bonus
    popped: int = 0  # coloured puyos popped
    garbage_cleared: int = 0
    all_clear: bool = False  # the field is empty after a chain


def placement_of(action: Any) -> int:
    """The placement index of a public action ``(x, r)``; ``IllegalActionError`` if it is not one."""
    try:
        x, r = action
        key = (int(x) - 1, int(r))
    except (TypeError, ValueError):
        raise IllegalActionError(f"puyo: a placement is (x, r) with x 1..6 and r 0..3, got {show(action)}") from None
    if key not in PLACEMENT_INDEX or (int(x), int(r)) != tuple(action):
        raise IllegalActionError(f"puyo: no placement ({x}, {r}): x is 1..6, r 0..3, and the child stays inside")
    return PLACEMENT_INDEX[key]


def action_of(index: int) -> Placement:
    x, r = PLACEMENTS[index]
    return (x + 1, r)


class Field:
    """A 6 x 13 Tsu field (the 14th row exists only as "vanishes"), always stable between moves."""

    __slots__ = ("cells", "heights", "crossable")

    def __init__(self, cells: np.ndarray | None = None, reach: str = "strict") -> None:
        self.cells = np.zeros((WIDTH, ROWS), dtype=np.uint8) if cells is None else cells
        self.heights = np.zeros(WIDTH, dtype=np.int64)
        self.crossable = REACH_RULES[reach]
        column_heights(self.cells, self.heights)

    @classmethod
    def from_rows(cls, rows: Sequence[str], reach: str = "strict") -> Field:
        """Build a field from text rows, top row first, bottom row last (row 1); letters ``.RGBYP`` and ``o``.

        Cells fall under gravity as the text is read, so a drawing cannot hold floating puyos.
        """
        cells = np.zeros((WIDTH, ROWS), dtype=np.uint8)
        if len(rows) > ROWS:
            raise InputError(f"puyo: a field has at most {ROWS} rows, got {len(rows)}")
        for i, row in enumerate(reversed(rows)):
            if len(row) != WIDTH:
                raise InputError(f"puyo: field row {show(row)} must have {WIDTH} cells")
            for x, ch in enumerate(row):
                if ch == "o":
                    cells[x, i] = GARBAGE
                elif ch in COLOUR_LETTERS:
                    cells[x, i] = COLOUR_LETTERS.index(ch)
                else:
                    raise InputError(f"puyo: unknown cell {show(ch)} in field row {show(row)} (use .RGBYP or o)")
        field = cls(np.zeros((WIDTH, ROWS), dtype=np.uint8), reach)
        for x in range(WIDTH):
            for y in range(ROWS):
                if cells[x, y]:
                    field.cells[x, field.heights[x]] = cells[x, y]
                    field.heights[x] += 1
        return field

    def rows(self) -> list[str]:
        """Text rows, row 13 first, row 1 last."""
        out = []
        for y in range(ROWS - 1, -1, -1):
            out.append("".join("o" if c == GARBAGE else COLOUR_LETTERS[c] for c in self.cells[:, y]))
        return out

    def copy(self) -> Field:
        f = Field.__new__(Field)
        f.cells = self.cells.copy()
        f.heights = self.heights.copy()
        f.crossable = self.crossable
        return f

    def count(self) -> int:
        return int(self.heights.sum())

    def is_dead(self) -> bool:
        """Game over: cell (3, 12) is occupied."""
        return bool(self.cells[DEATH_X, DEATH_Y] != 0)

    def placements(self, pair: Pair) -> list[int]:
        """Indices of the reachable placements of ``pair`` (distinct ones only for a same-colour pair)."""
        mask = np.zeros(N_PLACEMENTS, dtype=np.bool_)
        placement_mask(self.heights, pair[0] == pair[1], self.crossable, mask)
        return [int(i) for i in np.flatnonzero(mask)]

    def check_placement(self, pair: Pair, index: int) -> int:
        """The canonical form of ``index`` if reachable, else ``IllegalActionError`` saying why."""
        canon = canonical_index(index, pair[0] == pair[1])
        if canon not in self.placements(pair):
            x, r = action_of(index)
            raise IllegalActionError(
                f"puyo: placement ({x}, {r}) is not reachable (column heights {self.heights.tolist()})"
            )
        return canon

    def play(self, pair: Pair, index: int) -> ChainResult:
        """Drop ``pair`` at a reachable placement and resolve everything."""
        index = self.check_placement(pair, index)
        pos = np.empty(4, dtype=np.int64)
        stats = np.zeros(3, dtype=np.int64)
        score = play_grid(self.cells, self.heights, index, pair[0], pair[1], pos, stats)
        links = int(stats[0])
        return ChainResult(links, int(score), int(stats[1]), int(stats[2]), links > 0 and self.count() == 0)

    def drop_garbage(self, n: int, rng: np.random.Generator) -> int:
        """Drop ``n`` garbage puyos (at most 30): n // 6 per column plus n % 6 in distinct random columns.

        Garbage that would rest in row 14 vanishes (reference Q8). Returns the number actually dropped.
        """
        per_col = garbage_layout(n, rng)
        self.drop_columns(per_col)
        return sum(per_col)

    def drop_columns(self, per_column: Sequence[int]) -> None:
        """Drop ``per_column[x]`` garbage puyos onto column x (what ``garbage_layout`` chose)."""
        drop_garbage_grid(self.cells, self.heights, np.array(per_column, dtype=np.int64))


def garbage_layout(n: int, rng: np.random.Generator) -> list[int]:
    """How a drop of ``n`` garbage (at most 30 fall) spreads: n // 6 per column plus n % 6 in distinct random
    columns (reference F16)."""
    n = min(n, MAX_GARBAGE_DROP)
    per_col = [n // WIDTH] * WIDTH
    for x in rng.choice(WIDTH, size=n % WIDTH, replace=False):
        per_col[int(x)] += 1
    return per_col


class SoloState:
    """A solo game: a seeded pair sequence, ``pairs`` placements long, with ``visible`` next pairs shown.

    The score includes the all-clear bonus (added to the chain after the all clear, reference F15).
    """

    #: garbage waiting to fall: never any in solo (a versus ``Player`` has its own), read by the beam bot
    pending = 0

    def __init__(self, seed: int, config: Mapping[str, Any]) -> None:
        rules = typed_config(config)
        self.seed = seed
        self.n_pairs = rules.pairs
        self.visible = rules.visible
        #: a chain of at least this many points ends the game (0: never; ama's test protocol)
        self.early_stop = rules.early_stop
        self.n_colours = rules.n_colours
        self.sequence = pair_sequence(
            seed, self.n_pairs + self.visible, rules.seq, self.n_colours, rules.opening_3col_pairs
        )
        self.field = Field(reach=rules.reach)
        self.index = 0
        self.score = 0
        self.all_clear_pending = False
        self.all_clears = 0
        self.chains: list[int] = []
        self.best_chain_score = 0
        self.dead = False
        self.last: ChainResult = ChainResult()

    # -- State protocol ---------------------------------------------------------------------------
    def clone(self) -> SoloState:
        other = SoloState.__new__(SoloState)
        other.__dict__.update(self.__dict__)
        other.field = self.field.copy()
        other.chains = list(self.chains)
        return other

    def is_terminal(self) -> bool:
        stopped = self.early_stop > 0 and self.best_chain_score >= self.early_stop
        return self.dead or stopped or self.index >= self.n_pairs

    def current(self) -> Pair:
        return self.sequence[self.index]

    def next_pairs(self) -> list[Pair]:
        """The current pair followed by the visible next pairs."""
        return self.sequence[self.index : self.index + 1 + self.visible]

    def remaining(self) -> int:
        return self.n_pairs - self.index

    def legal_actions(self) -> list[Placement]:
        if self.is_terminal():
            return []
        return [action_of(i) for i in self.field.placements(self.current())]

    def apply(self, action: Any) -> None:
        if self.is_terminal():
            raise IllegalActionError("puyo: the game is over")
        index = placement_of(action)
        result = self.field.play(self.current(), index)
        self.index += 1
        self.last = result
        if result.links:
            gained = result.score
            if self.all_clear_pending:
                gained += ALL_CLEAR_BONUS
                self.all_clear_pending = False
            self.score += gained
            self.chains.append(result.links)
            self.best_chain_score = max(self.best_chain_score, result.score)
            if result.all_clear:
                self.all_clear_pending = True
                self.all_clears += 1
        self.dead = self.field.is_dead()

    def state_hash(self) -> str:
        h = hashlib.sha1(self.field.cells.tobytes())
        h.update(f"{self.index}:{self.score}:{int(self.all_clear_pending)}".encode())
        return h.hexdigest()[:16]

    def result(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "max_chain": max(self.chains, default=0),
            "best_chain_score": self.best_chain_score,
            "chains": len(self.chains),
            "pairs_played": self.index,
            "dead": self.dead,
            "all_clears": self.all_clears,
        }
