"""``builder``: a chain builder after ama's design: a wide beam over many sampled futures, in parallel.

For each of ``builder_futures`` futures (the visible pairs, then uniformly random pairs up to
``builder_depth``), one beam of ``builder_width`` fields is searched (``kernels.builder``, numba, futures in
parallel over the cores); fields are ranked by ``kernels.chain_eval`` (chain potential by quiet drops of 1-3
puyos, shape, connections, the death column). A first placement is worth the largest chain fired below it,
summed over the futures: the expected largest chain. So it builds while building is expected to fire more,
and fires when the chain in hand beats that (the search never looks past the game's last pair). In versus,
a first placement that fires ``beam_fire_links`` links wins outright, and pending garbage is assumed to fall
after the move. The futures are drawn from the bot's seeded generator, so the same seed plays the same moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import oracle
from ..config import PuyoConfig, typed_config
from ..engine import REACH_RULES, Field, Pair, action_of
from ..kernels import bitboard as BB
from ..kernels.builder import P_GARBAGE, P_REMAINING, search_many, search_params
from ..kernels.chain_eval import HAND_WEIGHTS, signed
from ..rules import DEATH_X, DEATH_Y, N_PLACEMENTS, ROWS, TARGET_POINTS, WIDTH
from .base import Cell, PuyoBot

#: how many of its best placements the bot shows as its thinking
THINKING_MOVES = 5
#: a rotation in words: where the child puyo sits around the axis
ROTATIONS = ("up", "right", "down", "left")
#: the target chain's trigger: at most this many puyos of one colour dropped in one column (as chain_eval's
#: quiet drops measure a field's chain potential)
TRIGGER_PUYOS = 3
#: a colour in words (the page's and the terminal's colours 1-5)
COLOUR_WORDS = ("", "red", "green", "blue", "yellow", "purple")


@dataclass
class TargetChain:
    """The chain a field holds: its trigger (puyos dropped in one column, (x, y, colour), 0-based), the puyos of
    the field that pop ((x, y, link)), its links and score; ``fires_now`` when the move itself fires it."""

    trigger: list[Cell] = field(default_factory=list)
    pops: list[tuple[int, int, int]] = field(default_factory=list)
    links: int = 0
    score: int = 0
    fires_now: bool = False


def links_text(links: int) -> str:
    """A chain's length in words."""
    return "1 link" if links == 1 else f"{links} links"


def tracked_chain(cols: list[list[int]]) -> tuple[int, int, list[tuple[int, int, int]]]:
    """``oracle.resolve`` on ``cols``, each popping puyo also given where it sat before the chain began: (links,
    score, [(x, y, link)])."""
    where: list[list[tuple[int, int]]] = [[(x, y) for y in range(len(col))] for x, col in enumerate(cols)]
    pops: list[tuple[int, int, int]] = []

    def on_link(gone: set[tuple[int, int]], after: list[list[int]]) -> None:
        link = pops[-1][2] + 1 if pops else 1
        pops.extend((*where[x][y], link) for x, y in sorted(gone))
        for x in range(WIDTH):
            where[x] = [origin for y, origin in enumerate(where[x]) if (x, y) not in gone]

    links, score, _ = oracle.resolve(cols, on_link)
    return links, score, pops


def target_chain(cols: list[list[int]], n_colours: int) -> TargetChain:
    """The longest chain (by links, then fewer trigger puyos, then score) that 1-``TRIGGER_PUYOS`` puyos of one
    colour dropped in one column fire in ``cols`` (a drop that would fill the death cell is not tried)."""
    best, best_key = TargetChain(), (0, 0, 0)
    for x in range(WIDTH):
        for colour in range(1, n_colours + 1):
            for k in range(1, TRIGGER_PUYOS + 1):
                height = len(cols[x])
                if height + k > ROWS or (x == DEATH_X and height + k > DEATH_Y):
                    break
                trial = [list(col) for col in cols]
                trial[x] += [colour] * k
                links, score, pops = tracked_chain(trial)
                if links and (links, -k, score) > best_key:
                    best_key = (links, -k, score)
                    trigger = [(x, height + i, colour) for i in range(k)]
                    best = TargetChain(trigger, [p for p in pops if (p[0], p[1], colour) not in trigger], links, score)
    return best


def placement_name(placement: int) -> str:
    """A placement as people read it: the axis column (1-6) and where the child sits."""
    x, r = action_of(placement)
    return f"column {x}, child {ROTATIONS[r]}"


def default_weights() -> list[float]:
    """The weights ``builder`` plays with unless given others (``train --init default`` starts from them)."""
    return list(HAND_WEIGHTS)


def builder_params(settings: PuyoConfig, width: int) -> np.ndarray:
    """The builder search's kernel parameters for beams of ``width`` fields: the colours, reach, prune and
    discount of ``settings`` (a ``typed_config``), shared with ``duelist``, which searches the same way."""
    return search_params(
        width, settings.n_colours, REACH_RULES[settings.reach], settings.builder_prune, settings.builder_discount
    )


def sampled_queues(rng: np.random.Generator, known: np.ndarray, futures: int, depth: int, n_colours: int) -> np.ndarray:
    """``futures`` pair queues of at least ``depth`` pairs: the ``known`` pairs, then random ones from ``rng``."""
    depth = max(depth, len(known))
    queues = np.empty((futures, depth, 2), dtype=np.int64)
    queues[:, : len(known)] = known
    queues[:, len(known) :] = rng.integers(1, n_colours + 1, size=(futures, depth - len(known), 2))
    return queues


def searched_futures(
    cells: np.ndarray, queues: np.ndarray, params: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``kernels.builder.search_many`` from the field ``cells`` over the futures ``queues``: per future and first
    placement, the largest chain found and the best value (``duelist`` also reads the opponent's field so)."""
    root = BB.new_field()
    BB.encode(cells, root)
    chains = np.zeros((len(queues), N_PLACEMENTS))
    values = np.zeros((len(queues), N_PLACEMENTS))
    search_many(root, queues, params, weights, chains, values)
    return chains, values


def ranked_by_futures(
    cells: np.ndarray, queues: np.ndarray, params: np.ndarray, weights: np.ndarray, legal: list[int]
) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The ``legal`` placements on the field ``cells``, best first by their chains summed over the futures
    ``queues`` (``kernels.builder.search_many``), ties by the futures survived, then by mean value; with the
    summed chains and survivals per placement. Shared with ``duelist``, which builds the same way."""
    chains, values = searched_futures(cells, queues, params, weights)
    total = np.maximum(chains, 0).sum(axis=0)
    alive = (values > -1.0e17).sum(axis=0)
    mean_value = np.where(values > -1.0e17, values, 0.0).sum(axis=0) / np.maximum(alive, 1)
    ranked = sorted(legal, key=lambda p: (round(float(total[p]), 6), int(alive[p]), float(mean_value[p])), reverse=True)
    return ranked, total, alive


class BuilderBot(PuyoBot):
    name = "builder"

    def __init__(self, config: Mapping[str, Any], weights: Sequence[float] | None = None, seed: int = 0) -> None:
        settings = typed_config(config)
        self.depth = settings.builder_depth
        self.futures = settings.builder_futures
        self.n_colours = settings.n_colours
        self.fire_links = settings.beam_fire_links
        self.params = builder_params(settings, settings.builder_width)
        self.weights = signed(default_weights() if weights is None else weights)
        self.rng = np.random.default_rng(seed)
        #: the last decision's best placements, (placement, mean largest chain score, futures survived), best first
        self.last_candidates: list[tuple[int, float, int]] = []
        #: the last decision's field, pair and placement, for the target chain shown on the page (``target``)
        self.last_move: tuple[Field, Pair, int] | None = None
        self._target: TargetChain | None = None

    def act(self, state: Any) -> tuple[int, int]:
        """The placement for ``state``: a solo state or a versus player (field, pairs, remaining, pending)."""
        placement = self._choose(state)
        self.last_move = (state.field.copy(), state.current(), placement)
        self._target = None
        return action_of(placement)

    def target(self) -> TargetChain:
        """The chain the last decision aims at: the one its move fires, else the largest the field after the move
        holds for a trigger of 1-3 puyos of one colour in one column. Found by the readable oracle, once per
        decision and only when a view asks (never in play), so it never changes what the bot plays."""
        if self._target is None:
            self._target = TargetChain()
            if self.last_move is not None:
                before, (axis, child), placement = self.last_move
                x, r = action_of(placement)
                cols = [[int(v) for v in before.cells[c, : int(before.heights[c])]] for c in range(WIDTH)]
                oracle.drop(cols, x - 1, r, axis, child)
                links, score, pops = tracked_chain([list(col) for col in cols])
                if links:
                    self._target = TargetChain([], pops, links, score, fires_now=True)
                else:
                    self._target = target_chain(cols, self.n_colours)
        return self._target

    def target_cells(self) -> list[Cell]:
        """The target chain's trigger puyos (a view draws them dim where the field is empty); none when the move
        fired its chain."""
        return self.target().trigger

    def target_pops(self) -> list[tuple[int, int, int]]:
        """The puyos of the field after the move that the target chain pops, (x, y, link), 0-based."""
        chain = self.target()
        return [] if chain.fires_now else chain.pops

    def _queues(self, known: np.ndarray) -> np.ndarray:
        """``futures`` pair queues: the known pairs, then random ones up to the search depth."""
        return sampled_queues(self.rng, known, self.futures, self.depth, self.n_colours)

    def _choose(self, state: Any) -> int:
        """The legal placement with the largest summed chain over the futures (ties: survival, then value)."""
        legal = state.field.placements(state.current())
        if not legal:
            return 0
        params = self.params.copy()
        params[P_REMAINING] = state.remaining()
        params[P_GARBAGE] = state.pending
        queues = self._queues(np.array(state.next_pairs(), dtype=np.int64))
        ranked, total, alive = ranked_by_futures(state.field.cells, queues, params, self.weights, legal)
        self.last_candidates = [(p, float(total[p]) / self.futures, int(alive[p])) for p in ranked[:THINKING_MOVES]]
        if self.fire_links > 0:
            fire = self._fires_now(state, legal)
            if fire is not None:
                return fire
        return ranked[0]

    def thinking(self) -> dict[str, Any]:
        """The last decision's best placements, each with the score of the largest chain it leads to, the mean
        over the futures, and the chain its move aims at (the page's thinking panel, docs/architecture.md)."""
        chain = self.target()
        if chain.fires_now:
            aim = f"fires now: {links_text(chain.links)}"
        elif chain.links:
            x, _, colour = chain.trigger[0]
            aim = f"{links_text(chain.links)}, set off by {len(chain.trigger)} {COLOUR_WORDS[colour]} in column {x + 1}"
        else:
            aim = "none yet"
        return {
            "title": "builder's best placements",
            "figures": [["target chain", aim], ["its score", chain.score]],
            "score_label": f"the largest chain's score it leads to (points, discounted by depth), the mean over "
            f"{self.futures} sampled futures",
            "candidates": [
                {"move": placement_name(p), "score": round(chain), "survives": alive}
                for p, chain, alive in self.last_candidates
            ],
        }

    def _fires_now(self, state: Any, legal: list[int]) -> int | None:
        """Versus: the placement firing the most links now if that reaches ``fire_links``, or if garbage is
        pending and it offsets all of it; else None."""
        best, best_links, best_score = None, 0, 0
        for p in legal:
            field = state.field.copy()
            result = field.play(state.current(), p)
            if (result.links, result.score) > (best_links, best_score):
                best, best_links, best_score = p, result.links, result.score
        if best_links >= self.fire_links or (state.pending > 0 and best_score >= TARGET_POINTS * state.pending):
            return best
        return None
