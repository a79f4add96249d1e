"""Versus on the frame clock: each side's placements, chain links and garbage drops take their real frames.

Event-driven, not frame by frame: the game jumps from one event to the next. A side's decision (its pair
becomes controllable) is handed to the caller; the placement is resolved at once on the side's field, and
its consequences are queued at their frames: each chain link pops (its garbage is announced then: converted
with the target points in force at that frame, offset against the side's own pending garbage, the excess
sent to the other side as *incoming*), the chain ends (the other side's incoming garbage becomes *fixed*),
and the side settles (its fixed garbage, at most 30, falls; then the next pair comes in). Frame counts come
from ``frames``; docs/rules/puyo.md ("The frame clock") states each with its source.

Events at the same frame run in the order link, chain end, settle, decision, and side 0 before side 1.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from puzzlebots.core.errors import IllegalActionError

from . import oracle
from .config import typed_config
from .engine import Field, Pair, garbage_layout, placement_of
from .frames import garbage_frames, link_frames, placement_frames, target_points
from .pairs import pair_sequence
from .rules import ALL_CLEAR_BONUS, MAX_GARBAGE_DROP, PLACEMENTS, WIDTH

LINK, CHAIN_END, SETTLE, DECIDE = range(4)


@dataclass(frozen=True)
class Link:
    """A chain link queued on the clock: when it pops, its points, the largest fall after it, its frames."""

    frame: int
    score: int
    fall: int
    frames: int


@dataclass(frozen=True)
class SideView:
    """One side as a player sees it: its field (before the placement in progress), its visible pairs, its
    garbage (fixed: will fall after its next placement; incoming: a chain still sending it), the link of its
    chain in progress (0: none) and the frame its placement and chain end (its next pair's control). A player
    also sees the pair in play (falling into place; None between placements) and the field it lands in, which
    resolves into the placement's chain: ``links`` are that chain's links, popped (``chain`` of them) and to
    pop."""

    field: Field
    pairs: tuple[Pair, ...]
    fixed: int
    incoming: int
    carry: int
    chain: int
    busy_until: int
    score: int
    in_play: Pair | None
    links: tuple[Link, ...]


@dataclass(frozen=True)
class Observation:
    """What a side sees at a decision: the frame, the target points in force, itself and the other side."""

    frame: int
    target: int
    me: SideView
    other: SideView


class FramePlayer:
    """One side; bots see it like a solo state (``field``, ``current``, ``next_pairs``, ``remaining``,
    ``pending``) and may ask for the whole picture with ``observe()``."""

    def __init__(self, game: FrameVersus, side: int, sequence: Sequence[Pair], visible: int, reach: str) -> None:
        self.game = game
        self.side = side
        self.field = Field(reach=reach)
        self.sequence = sequence
        self.visible = visible
        self.index = 0
        self.fixed = 0
        self.incoming = 0
        self.remainder = 0
        self.all_clear_pending = False
        self.score = 0
        self.max_chain = 0
        self.sent = 0
        self.offset = 0
        self.received = 0
        self.dead = False
        self.chain = 0  # link of the chain in progress
        self.busy_until = 0  # frame of this side's next control
        self.shown: Field | None = None  # the field before the placement in progress
        self.links: list[Link] = []  # the chain in progress, for views

    @property
    def pending(self) -> int:
        """All the garbage on its way to this field."""
        return self.fixed + self.incoming

    def incoming_total(self) -> int:
        return self.pending

    def pair_at(self, offset: int) -> Pair:
        """The pair ``offset`` placements from the current one (-1: the one placed last); the sequence repeats."""
        return self.sequence[(self.index + offset) % len(self.sequence)]

    def current(self) -> Pair:
        return self.pair_at(0)

    def next_pairs(self) -> list[Pair]:
        return [self.pair_at(i) for i in range(self.visible + 1)]

    def remaining(self) -> int:
        return self.game.max_turns - self.index

    def view(self) -> SideView:
        field = self.shown if self.shown is not None else self.field
        return SideView(
            field,
            tuple(self.next_pairs()),
            self.fixed,
            self.incoming,
            self.remainder,
            self.chain,
            self.busy_until,
            self.score,
            self.pair_at(-1) if self.shown is not None else None,
            tuple(self.links),
        )

    def observe(self) -> Observation:
        game = self.game
        return Observation(
            game.now, target_points(game.now, game.margin), self.view(), game.players[1 - self.side].view()
        )


def chain_links(field: Field, pair: Pair, index: int) -> list[tuple[int, int]]:
    """Per link of the chain ``pair`` at placement ``index`` fires on ``field``: (points, largest fall)."""
    cols = [[int(v) for v in field.cells[c, : int(field.heights[c])]] for c in range(WIDTH)]
    x, r = PLACEMENTS[index]
    oracle.drop(cols, x, r, pair[0], pair[1])
    falls: list[int] = []
    before = [list(c) for c in cols]

    def on_link(gone: set[tuple[int, int]], after: list[list[int]]) -> None:
        nonlocal before
        fall = 0
        for c in range(WIDTH):
            kept = [y for y in range(len(before[c])) if (c, y) not in gone]
            if kept:
                fall = max(fall, sum(1 for (gx, y) in gone if gx == c and y < kept[-1]))
        falls.append(fall)
        before = [list(col) for col in after]

    _, _, scores = oracle.resolve(cols, on_link)
    return list(zip(scores, falls, strict=True))


class FrameVersus:
    """Two sides on one seeded pair sequence and one frame clock. ``advance`` runs events until a side must
    decide; ``place`` resolves that side's placement at that frame."""

    def __init__(self, seed: int, config: Mapping[str, Any], max_turns: int = 500) -> None:
        rules = typed_config(config)
        sequence = pair_sequence(seed, 128, rules.seq, rules.n_colours, rules.opening_3col_pairs)
        self.source = rules.versus_frames
        self.margin = rules.margin_targets
        self.players = [FramePlayer(self, i, sequence, rules.visible, rules.reach) for i in range(2)]
        self.rng = np.random.default_rng(seed)
        self.max_turns = max_turns
        self.now = 0
        self.reason = ""
        self.loser: int | None = None
        self.events: list[tuple[int, int, int, int, Any]] = []
        self.count = 0
        for side in (0, 1):
            self.push(0, DECIDE, side, None)

    @property
    def turn(self) -> int:
        return max(p.index for p in self.players)

    def push(self, frame: int, kind: int, side: int, data: Any) -> None:
        heapq.heappush(self.events, (frame, kind, side, self.count, data))
        self.count += 1

    def over(self) -> bool:
        return self.loser is not None or any(p.dead for p in self.players) or not self.events

    def advance(self, until: int | None = None, hold: Sequence[int] = ()) -> tuple[int, int] | None:
        """Run events in frame order until a side not in ``hold`` must decide: (side, frame); None when the game
        is over or the next event lies past ``until``. A held side's decision stays queued."""
        held: list[tuple[int, int, int, int, Any]] = []
        try:
            while self.events and not any(p.dead for p in self.players):
                frame, kind, side, _, data = self.events[0]
                if until is not None and frame > until:
                    return None
                heapq.heappop(self.events)
                if kind == DECIDE and side in hold:
                    held.append((frame, kind, side, self.count, data))
                    continue
                self.now = max(self.now, frame)
                if kind == DECIDE:
                    if self.players[side].index >= self.max_turns:
                        continue
                    return side, frame
                self.run(kind, side, data)
            return None
        finally:
            for event in held:
                heapq.heappush(self.events, event)

    def waiting(self, side: int) -> int | None:
        """The frame from which ``side`` may decide (its decision is queued), or None."""
        frames = [e[0] for e in self.events if e[1] == DECIDE and e[2] == side]
        return min(frames) if frames else None

    def place(self, side: int, action: Any, frame: int, frames: int | None = None) -> None:
        """``side`` places its current pair at ``frame`` (its queued decision); ``frames`` replaces the
        placement's frames (a person's pair lands when the person drops it). An illegal action loses."""
        p = self.players[side]
        self.events = [e for e in self.events if not (e[1] == DECIDE and e[2] == side)]
        heapq.heapify(self.events)
        self.now = max(self.now, frame)
        pair = p.current()
        try:
            index = p.field.check_placement(pair, placement_of(action))
        except IllegalActionError as error:
            self.forfeit(side, f"illegal move {action!r}: {error}")
            return
        x, r = PLACEMENTS[index]
        spent = placement_frames(p.field.heights, x, r, self.source) if frames is None else frames
        p.shown = p.field.copy()
        links = chain_links(p.field, pair, index)
        result = p.field.play(pair, index)
        p.index += 1
        start = frame + spent
        p.links = []
        for score, fall in links:
            link = Link(start, score, fall, link_frames(fall, self.source))
            p.links.append(link)
            self.push(start, LINK, side, link)
            start += link.frames
        if links:
            self.push(start, CHAIN_END, side, result.all_clear)
        p.busy_until = start
        self.push(start, SETTLE, side, None)

    def forfeit(self, side: int, reason: str) -> None:
        """``side`` loses now (its engine failed): ``reason`` is one line."""
        self.loser = side
        self.reason = reason
        self.events.clear()

    def run(self, kind: int, side: int, data: Any) -> None:
        p, other = self.players[side], self.players[1 - side]
        if kind == LINK:
            link: Link = data
            points = link.score
            if p.chain == 0 and p.all_clear_pending:
                points += ALL_CLEAR_BONUS
                p.all_clear_pending = False
            p.chain += 1
            p.max_chain = max(p.max_chain, p.chain)
            p.score += points
            total = points + p.remainder
            target = target_points(link.frame, self.margin)
            made, p.remainder = divmod(total, target)
            cancel = min(made, p.fixed)
            p.fixed -= cancel
            cancel_incoming = min(made - cancel, p.incoming)
            p.incoming -= cancel_incoming
            p.offset += cancel + cancel_incoming
            excess = made - cancel - cancel_incoming
            other.incoming += excess
            p.sent += excess
        elif kind == CHAIN_END:
            p.chain = 0
            if data:
                p.all_clear_pending = True
            other.fixed += other.incoming
            other.incoming = 0
        else:  # SETTLE
            p.shown = None
            p.links = []
            spent = 0
            if p.fixed:
                per_column = garbage_layout(min(p.fixed, MAX_GARBAGE_DROP), self.rng)
                spent = garbage_frames(p.field.heights, per_column, self.source)
                p.field.drop_columns(per_column)
                dropped = sum(per_column)
                p.fixed -= dropped
                p.received += dropped
            p.busy_until = self.now + spent
            p.dead = p.field.is_dead()
            if p.dead:
                # a side settling at the same frame settles too: both dead is a draw
                while self.events and self.events[0][0] == self.now and self.events[0][1] <= SETTLE:
                    frame, kind2, side2, _, data2 = heapq.heappop(self.events)
                    self.run(kind2, side2, data2)
                return
            self.push(self.now + spent, DECIDE, side, None)

    def result(self) -> dict[str, Any]:
        a, b = self.players
        winner: int | None = None
        if self.loser is not None:
            winner = 1 - self.loser
        elif a.dead != b.dead:
            winner = 1 if a.dead else 0
        return {
            "winner": winner,
            "turns": self.turn,
            "frames": self.now,
            "scores": [a.score, b.score],
            "max_chains": [a.max_chain, b.max_chain],
            "sent": [a.sent, b.sent],
            "offset": [a.offset, b.offset],
            "received": [a.received, b.received],
            "pending": [a.pending, b.pending],
            "reason": self.reason,
        }


def play_frames(bots: Sequence[Any], seed: int, config: Mapping[str, Any], max_turns: int = 500) -> dict[str, Any]:
    """One seeded game between two bots on the frame clock (``act`` takes a ``FramePlayer``). A bot whose
    ``act`` raises ``EngineFault`` loses the game with the fault's one-line reason."""
    game = FrameVersus(seed, config, max_turns)
    while True:
        turn = game.advance()
        if turn is None:
            break
        side, frame = turn
        try:
            action = bots[side].act(game.players[side])
        except EngineFault as fault:
            game.forfeit(side, str(fault))
            break
        game.place(side, action, frame)
    return game.result()


class EngineFault(Exception):
    """An external engine crashed, hung past its time or answered nonsense: its side loses the game."""
