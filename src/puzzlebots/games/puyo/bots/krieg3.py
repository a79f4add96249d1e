"""``krieg3``: the KRIEG3 chain-template AI as the article describes it (reference sections 3.3 and 4).

1. With no chain selected, list the free space (equal-free-height runs), collect every template that fits
   with no adjacent block of a colour that could trigger it early, and pick one at random; if none fits,
   this piece is placed by the modified KRIEG AI.
2. Predict every placement: game over? illegal (a chain cell filled with a wrong colour, the trigger filled
   before the rest, or a non-chain block resting next to a same-coloured chain cell)? legality (chain cells
   it fills correctly)? does it complete the chain?
3. a. fill the last cell when every other cell is done; b. else the best non-zero legality at random;
   c. else a random legality-zero prediction; if there is none, the modified KRIEG AI.
The selected chain is the bot's overlay (``target_cells``, see ``bots.base.PuyoBot``) for a view to draw.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..config import typed_config
from ..engine import Field, Pair, action_of
from ..rules import DEATH_X, DEATH_Y, VISIBLE_ROWS, WIDTH
from .base import Cell, PuyoBot
from .krieg import DEFAULT_WEIGHTS, krieg_choice
from .prediction import Prediction, predictions
from .templates import Template, load_templates

_NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True)
class PlacedChain:
    """A template anchored on the field: absolute cells (x, y, colour) and the trigger cell."""

    template: Template
    cells: tuple[tuple[int, int, int], ...]
    trigger: tuple[int, int]

    def colour_at(self) -> dict[tuple[int, int], int]:
        return {(x, y): c for x, y, c in self.cells}


def free_space(field: Field) -> list[tuple[int, int, int]]:
    """KRIEG3's free-space list ``[x, width, height]``: for each column with free height f > 0, the run
    of consecutive columns from it whose free height equals f (reference Q11; free height = 12 - height)."""
    free = [VISIBLE_ROWS - min(int(h), VISIBLE_ROWS) for h in field.heights]
    nodes = []
    for x in range(WIDTH):
        if free[x] <= 0:
            continue
        w = 1
        while x + w < WIDTH and free[x + w] == free[x]:
            w += 1
        nodes.append((x, w, free[x]))
    return nodes


def anchor(template: Template, x0: int, y0: int) -> PlacedChain:
    cells = tuple((x0 + dx, y0 + dy, c) for dx, dy, c in template.cells)
    return PlacedChain(template, cells, (x0 + template.trigger[0], y0 + template.trigger[1]))


def fits(chain: PlacedChain, field: Field) -> bool:
    """True when every chain cell is empty and inside rows 1..12 (not the death cell), and no block on the
    field touches a chain cell of its colour (KRIEG3's legality constraint)."""
    colour_at = chain.colour_at()
    for x, y, colour in chain.cells:
        if x >= WIDTH or y >= VISIBLE_ROWS or (x, y) == (DEATH_X, DEATH_Y) or field.cells[x, y] != 0:
            return False
        for dx, dy in _NEIGHBOURS:
            nx, ny = x + dx, y + dy
            if 0 <= nx < WIDTH and 0 <= ny < VISIBLE_ROWS and (nx, ny) not in colour_at:
                if field.cells[nx, ny] == colour:
                    return False
    return True


def candidate_chains(
    field: Field, templates: Sequence[Template], fit: str, colour_maps: Sequence[dict[int, int]]
) -> list[PlacedChain]:
    """Every (template, position, colouring) that fits the free space of ``field``."""
    out = []
    for x, w, h in free_space(field):
        floor = int(field.heights[x])
        xs = [x] if fit == "left" else list(range(x, x + w))
        for base in templates:
            for perm in colour_maps:
                template = base if not perm else base.recoloured(perm)
                if template.height > h:
                    continue
                for x0 in xs:
                    if x0 + template.width > x + w:
                        continue
                    chain = anchor(template, x0, floor)
                    if fits(chain, field):
                        out.append(chain)
    return out


@dataclass
class Verdict:
    """KRIEG3's view of one prediction."""

    pred: Prediction
    illegal: bool
    legality: int
    completes: bool


def judge(chain: PlacedChain, before: np.ndarray, pred: Prediction, legality_rule: str) -> Verdict:
    """Game over aside, what KRIEG3 returns for ``pred`` (reference Q13-Q15, Q21)."""
    colour_at = chain.colour_at()
    dropped = pred.dropped
    correct_before = sum(1 for (x, y), c in colour_at.items() if before[x, y] == c)
    all_filled = all(dropped[x, y] == c for (x, y), c in colour_at.items())
    if all_filled:  # the trigger placement: nothing else can be wrong, the chain fires
        return Verdict(pred, False, len(colour_at) - correct_before, True)
    cells = pred.field.cells
    illegal = False
    correct = 0
    for (x, y), c in colour_at.items():
        v = cells[x, y]
        if v == c:
            correct += 1
        elif v != 0:
            illegal = True  # a wrong colour (or garbage) in a chain cell
    tx, ty = chain.trigger
    if cells[tx, ty] != 0:
        illegal = True  # the trigger must be filled last
    for x in range(WIDTH):
        for y in range(int(pred.field.heights[x])):
            if (x, y) in colour_at or y >= VISIBLE_ROWS:
                continue
            v = cells[x, y]
            for dx, dy in _NEIGHBOURS:
                if colour_at.get((x + dx, y + dy)) == v:
                    illegal = True
    legality = correct - correct_before if legality_rule == "delta" else correct
    return Verdict(pred, illegal, legality, False)


class Krieg3Bot(PuyoBot):
    """KRIEG3: template chains with the modified KRIEG AI as fallback."""

    name = "krieg3"

    def __init__(
        self,
        config: Mapping[str, Any],
        weights: Sequence[float] | None = None,
        seed: int = 0,
        templates: Sequence[Template] | None = None,
    ) -> None:
        settings = typed_config(config)
        self.templates = list(templates) if templates is not None else load_templates(settings.k3_templates)
        self.fit = settings.k3_fit
        self.legality_rule = settings.k3_legality
        self.abandon_after = settings.k3_abandon_after
        n = settings.n_colours
        if settings.k3_colours == "permute":
            self.colour_maps: list[dict[int, int]] = [
                dict(zip(range(1, n + 1), p, strict=True)) for p in itertools.permutations(range(1, n + 1))
            ]
        else:
            self.colour_maps = [{}]
        self.n_colours = n
        self.weights = tuple(DEFAULT_WEIGHTS if weights is None else weights)
        self.rng = random.Random(seed)
        self.chain: PlacedChain | None = None
        self.stalled = 0
        self.mode = "krieg"  # which layer placed the last piece: "krieg", "a", "b" or "c"

    # -- overlay -------------------------------------------------------------------------------------
    def target_cells(self) -> list[Cell]:
        """The selected chain's cells (x, y, colour), 0-based, or [] when no chain is selected."""
        return list(self.chain.cells) if self.chain else []

    # -- decision ------------------------------------------------------------------------------------
    def act(self, state: Any) -> tuple[int, int]:
        return action_of(self._choose(state.field, state.current()))

    def _still_valid(self, field: Field) -> bool:
        assert self.chain is not None
        for x, y, c in self.chain.cells:
            v = field.cells[x, y]
            if v != 0 and v != c:
                return False  # a wrong colour or garbage took a chain cell (reference Q18, Q22)
        return True

    def _choose(self, field: Field, pair: Pair) -> int:
        """Steps 1-3 of the module docstring: keep or pick a chain, then place this pair for it."""
        if self.chain is not None and not self._still_valid(field):
            self.chain = None
        if self.chain is None:
            usable = [t for t in self.templates if max(t.colours()) <= self.n_colours]
            candidates = candidate_chains(field, usable, self.fit, self.colour_maps)
            if candidates:
                self.chain = self.rng.choice(candidates)
                self.stalled = 0
        preds = predictions(field, pair)
        if self.chain is None:
            self.mode = "krieg"
            return krieg_choice(preds, self.weights, self.rng).index
        verdicts = [judge(self.chain, field.cells, p, self.legality_rule) for p in preds]
        ok = [v for v in verdicts if not v.illegal and not v.pred.dead]
        done = [v for v in ok if v.completes]
        if done:  # a.
            self.mode = "a"
            self.chain = None
            return self.rng.choice(done).pred.index
        progress = [v for v in ok if v.legality > 0]
        if progress:  # b.
            self.mode = "b"
            self.stalled = 0
            best = max(v.legality for v in progress)
            return self.rng.choice([v for v in progress if v.legality == best]).pred.index
        self.stalled += 1
        if self.stalled >= self.abandon_after:
            self.chain = None
        neutral = [v for v in ok if v.legality == 0]
        if neutral:  # c.
            self.mode = "c"
            return self.rng.choice(neutral).pred.index
        self.mode = "krieg"
        return krieg_choice(preds, self.weights, self.rng).index
