"""Versus mode: two fields, the same pair sequence, garbage exchanged under the Tsu rules (reference 2.5).

Turn-based (reference Q9): each turn both players place their current pair at once. Then every player who
fired no chain this turn receives the garbage already pending from earlier turns (at most 30 per drop);
then the garbage produced this turn is exchanged: ``floor((chain score + remainder) / 70)`` nuisance with the
remainder carried, an all-clear adds 2100 points to the next chain, and a player's new garbage first
cancels their own pending garbage (offsetting), the excess going to the other player. So garbage lands
one turn after the chain that sent it, which leaves one move to counter it. A player whose death cell is
filled after the drop loses; both at once, or ``max_turns`` reached, is a draw.

Real time (``step_one``, the page's Play Puyo): each side places on its own clock. The same rules apply to one
side at a time: the garbage sent by a chain is offset and added to the other side's pending garbage as the
placement that fired it resolves, and pending garbage falls after the receiver's next placement that fires no
chain (``next_placement``), or only after the first pair that spawned after it arrived (``next_spawn``): the
``realtime_garbage`` assumption of docs/rules/puyo.md. A side that has placed ``max_turns`` pairs waits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from puzzlebots.core.errors import IllegalActionError, InputError

from .config import typed_config
from .engine import Field, Pair, placement_of
from .frame_versus import EngineFault
from .pairs import pair_sequence
from .rules import ALL_CLEAR_BONUS, TARGET_POINTS

#: when garbage sent in real time falls on the receiver (``VersusGame.step_one``; docs/rules/puyo.md)
REALTIME_GARBAGE = ("next_placement", "next_spawn")

#: a beam bot in versus fires as soon as a chain of this many links is in reach (config beam_fire_links)
VERSUS_FIRE_LINKS = 8


class Player:
    """One side of a versus game; bots see it like a solo state (field, current, next_pairs, remaining)."""

    def __init__(self, sequence: Sequence[Pair], visible: int, max_turns: int, reach: str) -> None:
        self.field = Field(reach=reach)
        self.sequence = sequence
        self.visible = visible
        self.max_turns = max_turns
        self.index = 0
        self.pending = 0  # garbage waiting to fall on this field
        self.held = 0  # real time, ``next_spawn``: garbage that arrived while the current pair was falling
        self.remainder = 0  # score not yet converted to garbage
        self.all_clear_pending = False
        self.score = 0
        self.max_chain = 0
        self.sent = 0
        self.dead = False

    def current(self) -> Pair:
        return self.sequence[self.index % len(self.sequence)]

    def next_pairs(self) -> list[Pair]:
        return [self.sequence[(self.index + i) % len(self.sequence)] for i in range(self.visible + 1)]

    def incoming(self) -> int:
        """All the garbage on its way to this field (what the warning shows)."""
        return self.pending + self.held

    def remaining(self) -> int:
        return self.max_turns - self.index

    def play(self, action: Any) -> tuple[int, bool]:
        """Place the current pair; return (garbage produced before offsetting, whether a chain fired)."""
        result = self.field.play(self.current(), placement_of(action))
        self.index += 1
        if not result.links:
            return 0, False
        points = result.score
        if self.all_clear_pending:
            points += ALL_CLEAR_BONUS
            self.all_clear_pending = False
        self.all_clear_pending = result.all_clear
        self.score += points
        self.max_chain = max(self.max_chain, result.links)
        total = points + self.remainder
        self.remainder = total % TARGET_POINTS
        return total // TARGET_POINTS, True


@dataclass
class VersusResult:
    winner: int | None  # 0, 1 or None (draw)
    turns: int
    scores: tuple[int, int]
    max_chains: tuple[int, int]
    sent: tuple[int, int]
    reason: str = ""  # why a side lost other than by its field (an external engine failed)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winner": self.winner,
            "turns": self.turns,
            "scores": list(self.scores),
            "max_chains": list(self.max_chains),
            "sent": list(self.sent),
        }
        if self.reason:
            out["reason"] = self.reason
        return out


class VersusGame:
    """Two players on the same seeded sequence; ``step`` plays one turn given both actions, ``step_one`` one
    side's placement in real time (``realtime_garbage``: one of ``REALTIME_GARBAGE``)."""

    def __init__(
        self, seed: int, config: Mapping[str, Any], max_turns: int = 500, realtime_garbage: str = "next_placement"
    ) -> None:
        if realtime_garbage not in REALTIME_GARBAGE:
            raise InputError(f"realtime_garbage must be one of {', '.join(REALTIME_GARBAGE)}, got {realtime_garbage!r}")
        rules = typed_config(config)
        sequence = pair_sequence(seed, 128, rules.seq, rules.n_colours, rules.opening_3col_pairs)
        self.players = [Player(sequence, rules.visible, max_turns, rules.reach) for _ in range(2)]
        self.rng = np.random.default_rng(seed)
        self.max_turns = max_turns
        self.turn = 0
        self.realtime_garbage = realtime_garbage

    def over(self) -> bool:
        """A side lost, or both have placed ``max_turns`` pairs (in turns both always have placed ``turn``)."""
        return any(p.dead for p in self.players) or all(p.index >= self.max_turns for p in self.players)

    def step(self, actions: Sequence[Any]) -> None:
        players = self.players
        self.turn += 1
        made = [p.play(action) for p, action in zip(players, actions, strict=True)]
        for p, (_, fired) in zip(players, made, strict=True):
            if not fired and p.pending:
                p.pending -= p.field.drop_garbage(p.pending, self.rng)
        for i, p in enumerate(players):
            produced = made[i][0]
            cancel = min(produced, p.pending)
            p.pending -= cancel
            excess = produced - cancel
            players[1 - i].pending += excess
            p.sent += excess
        for p in players:
            p.dead = p.field.is_dead()

    def step_one(self, side: int, action: Any) -> None:
        """Real time: side ``side`` (0 or 1) places its current pair; the turn-based rules, for that side alone."""
        p, other = self.players[side], self.players[1 - side]
        if self.over() or p.index >= self.max_turns:
            raise IllegalActionError("this side cannot place a pair: the game is over or its pairs are used up")
        produced, fired = p.play(action)
        if not fired and p.pending:
            p.pending -= p.field.drop_garbage(p.pending, self.rng)
        p.pending += p.held  # next_spawn: what arrived during this pair falls after the next one
        p.held = 0
        cancel = min(produced, p.pending)
        p.pending -= cancel
        excess = produced - cancel
        if self.realtime_garbage == "next_spawn":
            other.held += excess
        else:
            other.pending += excess
        p.sent += excess
        p.dead = p.field.is_dead()
        self.turn = max(q.index for q in self.players)

    def result(self) -> VersusResult:
        a, b = self.players
        winner: int | None = None
        if a.dead != b.dead:
            winner = 1 if a.dead else 0
        return VersusResult(winner, self.turn, (a.score, b.score), (a.max_chain, b.max_chain), (a.sent, b.sent))


def play_versus(bots: tuple[Any, Any], seed: int, config: Mapping[str, Any], max_turns: int = 500) -> VersusResult:
    """One seeded game between two puyo bots (index 0 and 1; ``act`` takes a ``Player``) under a checked
    puyo config."""
    game = VersusGame(seed, config, max_turns)
    while not game.over():
        actions = []
        for side, (bot, p) in enumerate(zip(bots, game.players, strict=True)):
            try:
                actions.append(bot.act(p))
                p.field.check_placement(p.current(), placement_of(actions[-1]))
            except (EngineFault, IllegalActionError) as fault:
                r = game.result()
                return VersusResult(1 - side, r.turns, r.scores, r.max_chains, r.sent, str(fault))
        game.step(actions)
    return game.result()
