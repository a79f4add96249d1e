"""A person against a Puyo AI on the page, with the keyboard: the game's own ``HumanMatch`` (versus mode,
garbage exchanged under the Tsu rules, KRIEG3's keys and wall kicks), drawn as two fields."""

from __future__ import annotations

from typing import Any

from ..core.errors import IllegalActionError
from ..core.runner import resolve
from ..core.seeds import bot_seed
from ..games.puyo.human import HumanMatch
from .views.puyo import field_view

KEYS = ("left", "right", "cw", "ccw", "drop")
OUTCOMES = {0: "you win!", 1: "the AI wins", None: "a draw"}


class PuyoVersus:
    def __init__(self, bot_name: str, seed: int) -> None:
        game = resolve("puyo")
        config = game.check_config({})
        self.bot_name = bot_name
        self.match = HumanMatch(seed, config, game.make_bot(bot_name, config, None, bot_seed(seed)))
        self.message = "your move"

    def done(self) -> bool:
        return bool(self.match.game.over())

    def key(self, key: str) -> None:
        if key not in KEYS:
            raise IllegalActionError(f"unknown key {key!r} (keys: {', '.join(KEYS)})")
        if self.done():
            return
        try:
            self.match.press(key)
        except IllegalActionError:
            self.message = "that placement cannot be reached: the columns in the way are too tall"
            return
        self.message = OUTCOMES[self.match.game.result().winner] if self.done() else "your move"

    def frame(self) -> dict[str, Any]:
        person, ai = self.match.game.players
        cursor = self.match.cursor
        axis, child = person.current()
        piece = None if self.done() else (cursor.x + 1, cursor.r, axis, child)

        def title(who: str, p: Any) -> str:
            return f"{who}: {p.score} (chain {p.max_chain}, garbage pending {p.pending})"

        boards = [
            field_view(person.field.cells, person.next_pairs(), piece, title("you", person)),
            field_view(ai.field.cells, ai.next_pairs(), None, title(self.bot_name, ai)),
        ]
        return {
            "type": "versus",
            "view": {"kind": "versus", "boards": boards},
            "piece": {"x": cursor.x + 1, "r": cursor.r},
            "turn": self.match.game.turn,
            "done": self.done(),
            "status": self.message,
        }
