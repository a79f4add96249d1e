"""``duelist``: a versus AI that reads its opponent on the frame clock, then kills, counters, defends, harasses
or builds.

Each decision reads both sides (``reading``): the chains this side can fire now with its current pair (exact
frames to the last link, garbage with the target points in force), the garbage on its way here (fixed, incoming,
and what the opponent's chain in progress still sends, read to its end from the field his pair landed in), and
the largest chain the opponent can fire with his pairs to come (the pair in play, then his visible ones) or
holds in his field. Then, in this order:

- **kill**: a chain whose garbage, after offsetting ours and the opponent's best answer, fills his spawn column
  (or reaches ``duelist_crush``) is fired; his answer includes what he builds and fires while our chain runs
  (``_threat``: the builder's search on his field over the placements he makes meanwhile), at most
  ``duelist_threat_growth`` times the answer he has now (he grows a chain out of one he holds);
- **counter / defend**: when at least ``duelist_defend`` garbage lands before our next placement, the chain
  that offsets all of it is fired, or the largest one when the rest would bury us by ``duelist_bury_rows`` rows;
- **harass**: with nothing on its way, a chain of at most ``duelist_harass_links`` links sending at least
  ``duelist_harass`` garbage that the opponent cannot offset within his visible pairs is fired;
- **fire**: a chain of ``duelist_fire_links`` links or more is fired; while his chain runs, only one that
  outsends it (a smaller one grows on, for the counter);
- **build**: otherwise the ``builder`` search (``kernels.builder``, its weights, futures in parallel) picks the
  placement, with the garbage that will land assumed to fall after it (so it digs when it must); while the
  opponent's chain still runs, only chains fired before its garbage lands count (a counter in time).

Solo and the turn-based versus have no opponent to read: there it counters pending garbage and builds. The
futures come from the bot's seeded generator, so a seed plays the same moves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..config import typed_config
from ..engine import SoloState, action_of
from ..kernels.builder import P_DISCOUNT, P_GARBAGE, P_REMAINING
from ..kernels.chain_eval import signed
from ..rules import TARGET_POINTS
from .base import PuyoBot
from .builder import builder_params, default_weights, ranked_by_futures, sampled_queues, searched_futures
from .reading import (
    TYPICAL_PLACEMENT_FRAMES,
    Shot,
    chain_to_come,
    garbage_of,
    garbage_to_kill,
    held,
    landing,
    pairs_to_come,
    reach,
    rows_of,
    shots,
)

#: the reasons a decision gives (``DuelistBot.reason``)
REASONS = ("build", "kill", "counter", "defend", "harass", "fire")


class DuelistBot(PuyoBot):
    name = "duelist"

    def __init__(self, config: Mapping[str, Any], seed: int = 0) -> None:
        settings = typed_config(config)
        self.depth = settings.duelist_depth
        self.futures = settings.duelist_futures
        self.n_colours = settings.n_colours
        self.params = builder_params(settings, settings.duelist_width)
        self.weights = signed(default_weights())
        self.fire_links = settings.duelist_fire_links
        self.defend = settings.duelist_defend
        self.bury_rows = settings.duelist_bury_rows
        self.harass = settings.duelist_harass
        self.harass_links = settings.duelist_harass_links
        self.crush = settings.duelist_crush
        self.read_ahead = settings.duelist_read_ahead
        self.growth = settings.duelist_threat_growth
        self.source = str(config.get("versus_frames", "nova"))
        self.rng = np.random.default_rng(seed)
        self.reason = "build"  # why the last decision was taken (one of ``REASONS``)

    def act(self, state: Any) -> tuple[int, int]:
        """The placement for ``state``: a frame-clock player (read through ``observe()``), a turn-based versus
        player or a solo state."""
        return action_of(self._choose(state))

    # -- the decision --------------------------------------------------------------------------------------
    def _choose(self, state: Any) -> int:
        legal = state.field.placements(state.current())
        if not legal:
            self.reason = "build"
            return 0
        if isinstance(state, SoloState):
            return self._build(state, legal, int(state.pending))
        observe = getattr(state, "observe", None)
        if observe is None:  # turn-based versus: no clock, no opponent to read
            mine = shots(state.field, state.current(), 0, TARGET_POINTS, 0, self.source)
            choice = self._answer(state, legal, mine, int(state.pending), True)
            if choice is not None:
                return choice
            big = self._big(mine)
            return self._fire_or_build(state, legal, big, int(state.pending))
        obs = observe()
        me, him = obs.me, obs.other
        mine = shots(state.field, state.current(), obs.frame, obs.target, me.carry, self.source)
        chaining = bool(him.links)  # his placement in progress fires a chain (its links are on his screen)
        on_way = me.fixed + me.incoming + chain_to_come(him, obs.target)
        # the opponent's answer, unless his chain runs: the larger of what his pairs to come fire and the chain
        # his field holds (he triggers it while ours runs)
        counter = 0
        if not chaining:
            answer = reach(him.field, pairs_to_come(him), obs.frame, obs.target, him.carry)
            counter = held(him.field, self.n_colours, obs.target, him.carry)
            counter = max(counter, answer.garbage if answer is not None else 0)
        kill = self._kill(mine, on_way, counter, him, obs, chaining)
        if kill is not None:
            return self._fire(kill, "kill")
        # his garbage lands before our next decision when his chain ends before the pair in hand is down
        urgent = me.fixed > 0 or (
            chaining and him.busy_until <= landing(state.field, state.current(), obs.frame, self.source)
        )
        choice = self._answer(state, legal, mine, on_way, urgent)
        if choice is not None:
            return choice
        if self.harass and on_way == 0 and not chaining:
            harass = [
                s for s in mine if s.links <= self.harass_links and s.garbage >= self.harass and s.garbage > counter
            ]
            if harass:
                return self._fire(max(harass, key=lambda s: (s.garbage, -s.ends)), "harass")
        horizon = None
        big = self._big(mine)
        if chaining:
            # a chain that does not outsend his is kept to grow until his garbage is about to land (``_answer``)
            big = [s for s in big if s.garbage > on_way]
            if not urgent and on_way >= self.defend:
                # his garbage falls after our first placement that lands once his chain ends: build for a chain
                # that fires by then (the search looks no further), so that there is a counter when it lands
                horizon = max(1, (him.busy_until - obs.frame) // TYPICAL_PLACEMENT_FRAMES + 1)
        return self._fire_or_build(state, legal, big, on_way if urgent else me.fixed, horizon)

    def _big(self, mine: list[Shot]) -> list[Shot]:
        """The shots of ``duelist_fire_links`` links or more."""
        return [s for s in mine if s.links >= self.fire_links]

    def _kill(self, mine: list[Shot], on_way: int, counter: int, him: Any, obs: Any, chaining: bool) -> Shot | None:
        """The shot whose garbage, after offsetting ``on_way`` and the opponent's best answer, kills or
        crushes him; the one sending most. His answer is also what he can build and fire while our chain
        runs (``_threat``), at most ``growth`` times ``counter``: the search sees each sampled future whole, so
        on a field holding little it finds chains no player builds blind (``krieg3``'s, on tuning seed 159,
        holding 5-6 garbage: about 500). It is asked only of the shots that pass the quick test and not the cap."""
        need = min(garbage_to_kill(him.field), self.crush)
        lethal = [s for s in mine if s.garbage - on_way - counter >= need]
        if lethal and self.read_ahead and not chaining:
            cap = self.growth * counter
            lethal = [
                s
                for s in lethal
                if s.garbage - on_way - cap >= need or s.garbage - on_way - self._threat(him, obs, s.ends) >= need
            ]
        return max(lethal, key=lambda s: (s.garbage, -s.ends)) if lethal else None

    def _threat(self, him: Any, obs: Any, until: int) -> int:
        """The garbage the opponent can fire by frame ``until``: his largest chain within the placements he
        makes by then (the pair in play, then typical frames each, at most ``duelist_read_ahead``), the builder's
        search on his field with his pairs to come then sampled ones, no discount; the median over the futures."""
        start = max(obs.frame, him.busy_until)
        pairs = pairs_to_come(him)
        in_play = len(pairs) - len(him.pairs)  # the pair in play lands before ``start``
        placements = min(self.read_ahead, in_play + max(1, (until - start) // TYPICAL_PLACEMENT_FRAMES))
        params = self.params.copy()
        params[P_REMAINING] = placements
        params[P_GARBAGE] = 0
        params[P_DISCOUNT] = 1000
        known = np.array(pairs, dtype=np.int64)
        queues = sampled_queues(self.rng, known, self.futures, placements, self.n_colours)
        chains, _ = searched_futures(him.field.cells, queues, params, self.weights)
        score = int(np.median(chains.max(axis=1)))
        return garbage_of(score, him.carry, obs.target) if score > 0 else 0

    def _answer(self, state: Any, legal: list[int], mine: list[Shot], on_way: int, urgent: bool) -> int | None:
        """Counter or defend when ``on_way`` garbage (at least ``defend``) lands before our next placement:
        the shot offsetting all of it, else the largest shot if the rest would bury us; None to go on."""
        if not urgent or on_way < self.defend or not mine:
            return None
        full = [s for s in mine if s.garbage >= on_way]
        if full:
            return self._fire(max(full, key=lambda s: (s.garbage, -s.ends)), "counter")
        best = max(mine, key=lambda s: (s.garbage, -s.ends))
        left = on_way - best.garbage
        death_rows = 12 - int(state.field.heights.max())
        if rows_of(on_way) >= min(self.bury_rows, death_rows) and rows_of(left) < rows_of(on_way):
            return self._fire(best, "defend")
        return None

    def _fire_or_build(
        self, state: Any, legal: list[int], big: list[Shot], garbage: int, horizon: int | None = None
    ) -> int:
        """Fire the largest of the ``big`` shots, else build."""
        if big:
            return self._fire(max(big, key=lambda s: (s.garbage, -s.ends)), "fire")
        return self._build(state, legal, garbage, horizon)

    def _fire(self, shot: Shot, reason: str) -> int:
        self.reason = reason
        return shot.index

    # -- building: the builder's search ----------------------------------------------------------------------
    def _build(self, state: Any, legal: list[int], garbage: int, horizon: int | None = None) -> int:
        """The legal placement with the largest summed chain over the sampled futures (``kernels.builder``),
        ``garbage`` assumed to fall after it, chains counted only within ``horizon`` placements if given; ties
        by survival, then by value."""
        self.reason = "build"
        params = self.params.copy()
        params[P_REMAINING] = state.remaining() if horizon is None else min(state.remaining(), horizon)
        params[P_GARBAGE] = garbage
        known = np.array(state.next_pairs(), dtype=np.int64)
        queues = sampled_queues(self.rng, known, self.futures, self.depth, self.n_colours)
        return ranked_by_futures(state.field.cells, queues, params, self.weights, legal)[0][0]
