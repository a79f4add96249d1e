"""A person against a Puyo AI on the page, with the keyboard.

Both sides play their own solo Tsu game on the same seeded pair sequence, in lockstep: each time the
person drops a pair, the AI places its own. A side whose field reaches the death cell loses; if both
survive the whole sequence, the higher score wins. (No garbage is exchanged: this is a race on equal
pairs, built only from the game's public solo state and bots.)
"""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalActionError
from ..core.registry import get_game
from ..core.runner import BOT_SEED_SALT
from .views.puyo import CHILD_OFFSET, WIDTH, field_view

KEYS = ("left", "right", "cw", "ccw", "drop")
PAIRS = 200
START = (3, 0)  # the pair appears over column 3, child above the axis


class PuyoVersus:
    def __init__(self, bot_name: str, seed: int) -> None:
        game = get_game("puyo")
        config = game.check_config({"pairs": PAIRS})
        self.bot_name = bot_name
        self.bot = game.make_bot(bot_name, config, None, seed ^ BOT_SEED_SALT)
        self.person = game.new_state(seed, config)
        self.ai = game.new_state(seed, config)
        self.x, self.r = START
        self.message = "your move"

    def done(self) -> bool:
        return bool(self.person.is_terminal() or self.ai.is_terminal())

    def key(self, key: str) -> None:
        """Move, rotate or drop the person's pair; a rotation against a wall pushes the pair away from it."""
        if key not in KEYS:
            raise IllegalActionError(f"unknown key {key!r} (keys: {', '.join(KEYS)})")
        if self.done():
            return
        if key == "drop":
            self.drop()
            return
        x, r = self.x, self.r
        if key in ("left", "right"):
            x += -1 if key == "left" else 1
        else:
            r = (r + (1 if key == "cw" else 3)) % 4
            child = x + CHILD_OFFSET[r][1]
            x += 1 if child < 1 else -1 if child > WIDTH else 0
        child = x + CHILD_OFFSET[r][1]
        if 1 <= x <= WIDTH and 1 <= child <= WIDTH:
            self.x, self.r = x, r

    def drop(self) -> None:
        try:
            self.person.apply((self.x, self.r))
        except IllegalActionError:
            self.message = "that placement cannot be reached: the columns in the way are too tall"
            return
        if not self.ai.is_terminal():
            self.ai.apply(self.bot.act(self.ai))
        self.x, self.r = START
        self.message = self.outcome() if self.done() else "your move"

    def outcome(self) -> str:
        you, ai = self.person.result(), self.ai.result()
        if you["dead"] != ai["dead"]:
            return "you win: the AI topped out" if ai["dead"] else f"{self.bot_name} wins: you topped out"
        if you["score"] == ai["score"]:
            return "a draw"
        return "you win on score" if you["score"] > ai["score"] else f"{self.bot_name} wins on score"

    def frame(self) -> dict[str, Any]:
        p: Any = self.person
        a: Any = self.ai
        you, ai = p.result(), a.result()
        name = self.bot_name
        piece = None if self.done() else (self.x, self.r, *p.current())
        boards = [
            field_view(p.field.cells, p.next_pairs(), piece, f"you: {you['score']} (chain {you['max_chain']})"),
            field_view(a.field.cells, a.next_pairs(), None, f"{name}: {ai['score']} (chain {ai['max_chain']})"),
        ]
        return {
            "type": "versus",
            "view": {"kind": "versus", "boards": boards},
            "piece": {"x": self.x, "r": self.r},
            "turn": you["pairs_played"],
            "done": self.done(),
            "status": self.message,
        }
