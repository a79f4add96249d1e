"""The Hatris game state and its transitions (reference sections 1-2, assumptions in docs/rules/hatris.md).

A decision is a *placement* of the falling pair (which pile each hat ends on, Q11 timeless reach) or the use
of the top helper of the pool. :mod:`.frames` turns a placement into button presses and frames, so the frame
counter, and with it the NES PRNG, advances as it would in play.

Actions are flat tuples:
  ``("place", col_a, col_b)``       first hat of the pair on pile ``col_a``, second on ``col_b``;
  ``("alexey", k0, ..., k5)``       remove ``k_p`` bottom hats of pile ``p`` (1-5 in total);
  ``("vladimir", i, j)``           swap piles ``i < j``.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from puzzlebots.core.errors import IllegalActionError
from puzzlebots.core.jsonio import show

from . import frames
from .config import Rules
from .prng import NesPairs, UniformPairs
from .rules import (
    ALEXEY,
    BAR_FULL,
    CASH,
    COLUMNS,
    HEIGHT,
    HELPER_NAMES,
    LEVELS,
    POOL_MAX,
    STACK,
    STAGES_PER_SHOP,
    helper_cash,
    shop_of,
)

Action = tuple[Any, ...]


def pile_height(pile: Sequence[int], nest: Sequence[Sequence[int]]) -> int:
    """Sum of the nesting offsets between neighbours plus the top hat's height (reference 2.2)."""
    if not pile:
        return 0
    h = HEIGHT[pile[-1]]
    for lower, upper in itertools.pairwise(pile):
        h += nest[lower][upper]
    return h


def reach(heights: Sequence[int], a: int, b: int) -> dict[tuple[int, int], frames.Route]:
    """Every placement of the pair (a, b) under the timeless reach (Q10, Q11), with its cheapest route.

    The pair spawns over columns 2-3 (a left). For each pair position c (0-4) and swap: equal piles take both
    hats together; otherwise the hat over the taller pile lands and the other one, free at that height, may
    slide away from it over piles no taller than that height.
    """
    out: dict[tuple[int, int], frames.Route] = {}
    for swap in (0, 1):
        for c in range(COLUMNS - 1):
            hl, hr = heights[c], heights[c + 1]
            if hl == hr:
                lands = [(c, c + 1, -1, -1)]
            elif hl > hr:
                lands = []
                k = c + 1
                while k < COLUMNS and heights[k] <= hl:
                    lands.append((c, k, c + 1, k))
                    k += 1
            else:
                lands = []
                k = c
                while k >= 0 and heights[k] <= hr:
                    lands.append((k, c + 1, c, k))
                    k -= 1
            for left_col, right_col, free_from, free_to in lands:
                cols = (left_col, right_col) if swap == 0 else (right_col, left_col)
                if a == b:
                    cols = (min(cols), max(cols))
                route = frames.Route(c, swap, free_from, free_to)
                old = out.get(cols)
                if old is None or route.presses() < old.presses():
                    out[cols] = route
    return out


def alexey_patterns(counts: Sequence[int], mode: str) -> list[tuple[int, ...]]:
    """Every way to remove 1-5 hats in total from pile bottoms (Q19), in a fixed order."""
    out: list[tuple[int, ...]] = []
    ranges = [range(min(n, STACK) + 1) for n in counts]
    for ks in itertools.product(*ranges):
        total = sum(ks)
        if 1 <= total <= STACK and (mode == "multi_pile" or total == max(ks)):
            out.append(ks)
    return out


VLADIMIR_SWAPS = tuple(itertools.combinations(range(COLUMNS), 2))


class HatrisState:
    """One game: piles, pairs, level, cash, helpers, frame counter and PRNG. Mutable; ``clone`` copies."""

    def __init__(self, seed: int, config: Mapping[str, Any] | Rules) -> None:
        self.rules = config if isinstance(config, Rules) else Rules(config)
        r = self.rules
        self.seed = seed
        self.rng = random.Random(f"hatris:{seed}")
        self.piles: list[list[int]] = [[] for _ in range(COLUMNS)]
        self.level = r.start_level
        self.cash = 0
        self.bars = [0, 0]
        self.pool: list[int] = []
        self.spawns = 0
        self.stacks_total = 0
        self.stacks_level = 0
        stage = r.start_level % STAGES_PER_SHOP
        self.quota = r.quota + (stage if r.quota_first_level == "plus_stage" else 0)
        self.game_over = False
        self.won = False  # non-endless game that finished level 59
        self.capped = False  # stopped by max_spawns
        self.helpers_used = [0, 0]
        self.helpers_earned = [0, 0]
        # hat bookkeeping for the conservation property
        self.hats_spawned = 0
        self.hats_refilled = 0
        self.hats_vanished = 0
        self.hats_removed = 0
        self.hats_discarded = 0
        self.hats_cleared = 0
        first = r.first_frame_counter
        self.fc = self.rng.randrange(256) if first == "random" else first
        self.frames_played = 0
        self.acc = 0  # the 8-bit fall accumulator ($03E2)
        self.source: NesPairs | UniformPairs
        if r.pair_source == "nes":
            self.source = NesPairs(r.prng_rotate, r.prng_retries_per_frame)
        else:
            self.source = UniformPairs(self.rng.randrange(2**32))
        if shop_of(self.level) > 0 and r.shop_start == "6xShop_equal":
            self._refill()
        self.current: tuple[int, int] | None = None
        self.next, spent = self.source.next_pair(self.fc, self.level, at_init=True)
        self._advance(spent)
        self._spawn()

    # ---------------------------------------------------------------- protocol

    def clone(self) -> HatrisState:
        other = object.__new__(HatrisState)
        other.__dict__.update(self.__dict__)
        other.piles = [list(p) for p in self.piles]
        other.bars = list(self.bars)
        other.pool = list(self.pool)
        other.helpers_used = list(self.helpers_used)
        other.helpers_earned = list(self.helpers_earned)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.source = self.source.copy()
        return other

    def is_terminal(self) -> bool:
        return self.game_over or self.won or self.capped

    def heights(self) -> list[int]:
        nest = self.rules.nest
        return [pile_height(p, nest) for p in self.piles]

    def placements(self) -> dict[tuple[int, int], frames.Route]:
        assert self.current is not None
        return reach(self.heights(), *self.current)

    def legal_actions(self) -> list[Action]:
        if self.is_terminal():
            return []
        actions: list[Action] = [("place", *cols) for cols in sorted(self.placements())]
        if self.pool:
            actions.extend(self.helper_actions())
        return actions

    def helper_actions(self) -> list[Action]:
        """Uses of the top helper of the pool (last earned, first used)."""
        if not self.pool:
            return []
        if self.pool[-1] == ALEXEY:
            counts = [len(p) for p in self.piles]
            return [("alexey", *ks) for ks in alexey_patterns(counts, self.rules.alexey)]
        return [("vladimir", i, j) for i, j in VLADIMIR_SWAPS]

    def apply(self, action: Action) -> None:
        if self.is_terminal():
            raise IllegalActionError("hatris: the game is over")
        kind = action[0] if isinstance(action, tuple) and action else None
        if kind == "place":
            self._place(action)
        elif kind in HELPER_NAMES:
            self._helper(action)
        else:
            raise IllegalActionError(f"hatris: unknown action {show(action)}")
        if not self.is_terminal():
            if self.spawns >= self.rules.max_spawns:
                self.capped = True
                self.current = None
            else:
                self._spawn()

    def state_hash(self) -> str:
        snapshot = (
            self.piles,
            self.level,
            self.cash,
            self.bars,
            self.pool,
            self.spawns,
            self.stacks_level,
            self.quota,
            self.fc & 0xFFFF,
            self.acc,
            self.source.state(),
            self.current,
            self.next,
            self.game_over,
            self.won,
            self.capped,
            self.rng.getstate(),
        )
        return hashlib.sha1(repr(snapshot).encode()).hexdigest()[:16]

    def result(self) -> dict[str, Any]:
        return {
            "spawns": self.spawns,
            "level": self.level,
            "levels_cleared": self.level - self.rules.start_level,
            "stacks": self.stacks_total,
            "cash": self.cash,
            "cleared_all": self.rules.start_level == 0 and self.level >= LEVELS,
            "game_over": self.game_over,
            "max_spawns_reached": self.capped,
            "helpers_earned": list(self.helpers_earned),
            "helpers_used": list(self.helpers_used),
            "frames": self.frames_played,
        }

    # ---------------------------------------------------------------- transitions

    def _spawn(self) -> None:
        """$86CA: the next pair becomes current and a new next pair is picked at this frame."""
        self.current = self.next
        self.next, spent = self.source.next_pair(self.fc, self.level, at_init=False)
        self._advance(spent)
        self.spawns += 1
        self.hats_spawned += 2
        self._advance(self.rules.frames_spawn)

    def _advance(self, n: int) -> None:
        self.fc = (self.fc + n) & 0xFFFF
        self.frames_played += n

    def _place(self, action: Action) -> None:
        assert self.current is not None
        if len(action) != 3:
            raise IllegalActionError(f"hatris: a placement is ('place', col_a, col_b), got {show(action)}")
        a, b = self.current
        cols = (action[1], action[2])
        if a == b:
            cols = (min(cols), max(cols))
        heights = self.heights()
        route = reach(heights, a, b).get(cols)  # type: ignore[call-overload]
        if route is None:
            raise IllegalActionError(f"hatris: pair {a}{b} cannot reach piles {cols[0]},{cols[1]}")
        n, self.acc = frames.placement_frames(route, heights, self.level, self.acc, self.rules)
        self._advance(n)
        vanished = 0
        dead = False
        for col, hat in sorted(((cols[0], a), (cols[1], b))):  # left pile first (documented order)
            dead_now, v = self._land(col, hat)
            dead = dead or dead_now
            vanished += v
        if vanished >= 2:
            self.cash += self.rules.hatris_bonus
        self._advance(vanished * self.rules.frames_vanish)
        self.current = None
        if dead:
            self.game_over = True
            return
        if self.stacks_level >= self.quota:
            self._level_end()

    def _land(self, col: int, hat: int) -> tuple[bool, int]:
        """Put ``hat`` on pile ``col``; a 5-run of its type vanishes. Returns (topped out, stacks vanished)."""
        pile = self.piles[col]
        pile.append(hat)
        dead = pile_height(pile, self.rules.nest) > self.rules.top_px
        if len(pile) >= STACK and all(h == hat for h in pile[-STACK:]):
            del pile[-STACK:]
            self.hats_vanished += STACK
            self.cash += CASH[hat]
            self.stacks_total += 1
            self.stacks_level += 1
            group = self.rules.groups[hat]
            self.bars[group] += 1
            if self.bars[group] >= BAR_FULL:
                self.bars[group] = 0
                if len(self.pool) < POOL_MAX:  # Q20: a full pool discards the new helper
                    self.pool.append(group)
                    self.helpers_earned[group] += 1
            return dead, 1
        return dead, 0

    def _helper(self, action: Action) -> None:
        if not self.pool:
            raise IllegalActionError("hatris: no helper in the pool")
        kind = HELPER_NAMES.index(action[0])
        if self.pool[-1] != kind:
            raise IllegalActionError(f"hatris: the helper on top of the pool is {HELPER_NAMES[self.pool[-1]]}")
        if kind == ALEXEY:
            ks = tuple(action[1:])
            counts = [len(p) for p in self.piles]
            if ks not in set(alexey_patterns(counts, self.rules.alexey)):
                raise IllegalActionError(f"hatris: alexey cannot remove {ks} from piles of {counts} hats")
            for p, k in enumerate(ks):
                del self.piles[p][:k]
            moved = sum(ks)
            self.hats_removed += moved
        else:
            if tuple(action[1:]) not in VLADIMIR_SWAPS:
                raise IllegalActionError(f"hatris: vladimir swaps two piles i < j, got {show(action)}")
            i, j = action[1], action[2]
            self.piles[i], self.piles[j] = self.piles[j], self.piles[i]
            moved = len(self.piles[i]) + len(self.piles[j])
        self.pool.pop()
        self.helpers_used[kind] += 1
        self.hats_discarded += 2  # summoning a helper destroys the falling pair (F16)
        self.current = None
        self._advance(self.rules.frames_helper + moved * self.rules.frames_helper_per_hat)

    def _level_end(self) -> None:
        r = self.rules
        if r.cash_in and self.pool:
            self.cash += len(self.pool) * helper_cash(self.level)
            self.pool.clear()
        finished = self.level
        self.level += 1
        self.stacks_level = 0
        self.quota = r.quota
        if self.level == LEVELS and not r.endless:
            self.cash += len(self.pool) * helper_cash(finished)  # F17: icons cashed after the final level
            self.pool.clear()
            self.won = True
            return
        if self.level % STAGES_PER_SHOP == 0:
            self.hats_cleared += sum(len(p) for p in self.piles)
            self.piles = [[] for _ in range(COLUMNS)]
            self._refill()

    def _refill(self) -> None:
        """F11/Q13/Q14: shop hats per pile, uniform types, re-drawn when one would complete a 5-run."""
        per_pile = shop_of(self.level)
        no5 = self.rules.refill == "uniform_no5"
        for pile in self.piles:
            for _ in range(per_pile):
                hat = self.rng.randint(1, 6)
                while no5 and len(pile) >= STACK - 1 and all(h == hat for h in pile[-(STACK - 1) :]):
                    hat = self.rng.randint(1, 6)
                pile.append(hat)
                if len(pile) >= STACK and all(h == hat for h in pile[-STACK:]):  # plain "uniform" refill
                    del pile[-STACK:]
                    self.hats_vanished += STACK
                self.hats_refilled += 1

    def hats_on_field(self) -> int:
        return sum(len(p) for p in self.piles)
