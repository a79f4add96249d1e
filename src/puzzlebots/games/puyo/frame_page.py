"""The Play Puyo tab on the frame clock: a person against an AI, both on ``frame_versus.FrameVersus``.

The game's frame is the wall clock since Start at 60 frames per second (the clock is injected, so tests
count frames instead of waiting). Each call first runs the game up to that frame: the AI decides whenever its
pair comes in, and its placement, chain links and garbage drops take their frames, so the page, asking every
few tens of milliseconds, shows the AI's pair moving down for its placement frames and each chain link popping
and falling at the real pace. The person's pair comes in at its frame too; it falls by gravity in the page,
and when the person drops it the pair lands at once: its frames after landing are the split drop, the
grounding and the next pair's coming in (``PERSON_FRAMES``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from puzzlebots.core.errors import IllegalActionError

from .bots.base import target_overlay
from .engine import placement_of
from .frame_versus import EngineFault, FramePlayer, FrameVersus
from .frames import FPS, MARGIN_START_SECONDS, PAI_DROP, PAI_GROUNDING, PAI_NEXT, target_points
from .human import PairCursor
from .rules import CHILD_DX
from .view import chain_views, field_view, landing


def person_frames(heights: Any, x: int, r: int) -> int:
    """A person's pair after it lands (puyoai frame.h): the split drop, the grounding, the next pair."""
    split = abs(int(heights[x]) - int(heights[x + CHILD_DX[r]]))
    return PAI_DROP[min(split, 15)] + PAI_GROUNDING + PAI_NEXT


class FramePage:
    """One game of the tab on the frame clock: the person is side 0, ``ai`` side 1."""

    def __init__(self, seed: int, config: Mapping[str, Any], ai: Any, name: str, clock: Callable[[], float]) -> None:
        self.game = FrameVersus(seed, config)
        self.ai = ai
        self.name = name
        self.clock = clock
        self.start = clock()
        self.cursor = PairCursor(self.game.players[0].field)
        #: per side, the views of its placement in progress: (from frame, view, link, link start, link frames)
        self.timelines: list[list[tuple[int, dict[str, Any], int, int, int]]] = [[], []]

    def now(self) -> int:
        return int((self.clock() - self.start) * FPS)

    def catch_up(self) -> int:
        """Run the game to the current frame, letting the AI decide when its pair comes in; the frame."""
        now = self.now()
        while not self.game.over():
            turn = self.game.advance(until=now, hold=(0,))
            if turn is None:
                break
            side, frame = turn
            try:
                action = self.ai.act(self.game.players[side])
            except EngineFault as fault:  # an external engine failed: it loses, with its reason
                self.game.forfeit(side, str(fault))
                break
            self.place(side, action, frame)
        return now

    def place(self, side: int, action: Any, frame: int, frames: int | None = None) -> None:
        p = self.game.players[side]
        pairs = p.next_pairs()
        self.game.place(side, action, frame, frames)
        if p.shown is None:  # the placement was refused (an illegal AI move): the game is over
            return
        views = chain_views(p.shown, pairs[0], pairs[1:], action)
        land = p.links[0].frame if p.links else p.busy_until
        timeline = [(frame, views[0], 0, 0, 0), (land, views[1], 0, 0, 0)]
        for j, link in enumerate(p.links):
            timeline.append((link.frame, views[2 + 2 * j], j + 1, link.frame, link.frames))
            timeline.append((link.frame + link.frames // 2, views[3 + 2 * j], j + 1, link.frame, link.frames))
        self.timelines[side] = timeline

    def key(self, key: str) -> str:
        """Press a key; the status line."""
        now = self.catch_up()
        person = self.game.players[0]
        ready = self.game.waiting(0)
        if self.game.over():
            return ""
        if key == "drop":
            if ready is None or ready > now:
                return "wait for your next pair"
            action = (self.cursor.x + 1, self.cursor.r)
            try:
                person.field.check_placement(person.current(), placement_of(action))
            except IllegalActionError:
                return "that placement cannot be reached: the columns in the way are too tall"
            self.place(0, action, now, person_frames(person.field.heights, self.cursor.x, self.cursor.r))
            self.cursor = PairCursor(person.field)
        elif key in ("left", "right"):
            self.cursor.move(-1 if key == "left" else 1)
        else:
            self.cursor.rotate(1 if key == "cw" else -1)
        return ""

    def side_view(self, side: int, now: int, title: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The board of ``side`` at frame ``now`` and its clock facts."""
        p: FramePlayer = self.game.players[side]
        link, start, frames = 0, 0, 0
        view = None
        if p.shown is not None:  # a placement or its chain in progress
            for entry in self.timelines[side]:
                if entry[0] <= now:
                    view, link, start, frames = entry[1], entry[2], entry[3], entry[4]
        piece = None
        ready = self.game.waiting(side)
        if view is None:
            if side == 0 and ready is not None and ready <= now and not self.game.over():
                axis, child = p.current()
                piece = (self.cursor.x + 1, self.cursor.r, axis, child)
            target = target_overlay(self.ai) if side == 1 else []
            view = field_view(p.field.cells, p.next_pairs(), piece, title, target)
            if piece is not None:
                view["ghosts"] = landing(p.field.heights, self.cursor.x, self.cursor.r, piece[2:])
        else:
            view = {**view, "title": title}
        facts = {
            "busy_until": p.busy_until,
            "link": link,
            "link_start": start,
            "link_frames": frames,
            "fixed": p.fixed,
            "incoming": p.incoming,
            "received": p.received,
            "sent": p.sent,
            "garbage_falling": now < p.busy_until and p.shown is None,
            "ready": piece is not None,
        }
        return view, facts

    def frame(self) -> dict[str, Any]:
        now = self.now()
        person, ai = self.game.players

        def title(who: str, p: FramePlayer) -> str:
            return f"{who}: {p.score} (chain {p.max_chain})"

        you, you_facts = self.side_view(0, now, title("you", person))
        them, ai_facts = self.side_view(1, now, title(self.name, ai))
        target = target_points(now, self.game.margin)
        return {
            "view": {"kind": "versus", "boards": [you, them]},
            "steps": [],
            "piece": {"x": self.cursor.x + 1, "r": self.cursor.r},
            "garbage": {"you": person.pending, "ai": ai.pending},
            "sides": {"you": you_facts, "ai": ai_facts},
            "frame": now,
            "margin": {"target": target, "from_frame": MARGIN_START_SECONDS * FPS},
            "turn": self.game.turn,
            "pairs": {"you": person.index, "ai": ai.index},
            "reason": self.game.reason,
        }
