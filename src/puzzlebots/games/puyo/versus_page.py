"""The Play Puyo tab's session: a person against an AI with the keyboard, on the frame clock (the default,
``frame_page``), turn-based or in real time.

The person's game is the terminal's ``HumanMatch`` (versus mode, garbage exchanged under the Tsu rules, KRIEG3's
keys and wall kicks). Turn-based, the AI places its pair when the person's lands (``VersusGame.step``). In real
time each side places on its own clock (``VersusGame.step_one``): the person's pair falls by gravity in the
page, and the page asks for the AI's moves with the ``ai`` call on a timer at the AI speed chosen at the start;
the session plays one only when the AI's clock allows it, so a page cannot make the AI faster than that speed.

The AI may be one of the external UPI engines the operator named when starting the server (``serve --engine
NAME=COMMAND``), picked as ``upi:NAME`` on the frame clock: the page names it, never a command. Each game starts
the engine's process and ends it when the game ends, when the next game starts, or with the page's worker (the
engine is killed with its parent); an engine that fails loses the game, with its one-line reason as the status.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from puzzlebots.core.errors import IllegalActionError, InputError
from puzzlebots.core.jsonio import show
from puzzlebots.core.messages import field_of, seed_field
from puzzlebots.core.protocols import JSON, Episodic
from puzzlebots.core.seeds import bot_seed

from .bots.base import target_overlay
from .frame_page import FramePage
from .frame_versus import EngineFault
from .human import HumanMatch, PairCursor
from .upi import PREFIX, EngineBot, close_bot
from .versus import REALTIME_GARBAGE
from .view import chain_views, field_view, landing

KEYS = ("left", "right", "cw", "ccw", "drop")
#: the frame clock (``frame_page``), each side on its own clock with placements taking no time, or turns
MODES = ("frames", "real", "turn")
OUTCOMES = {0: "you win!", 1: "the AI wins", None: "a draw"}
#: the AI speed a page may ask for, in moves per second (real time)
AI_SPEED_MIN, AI_SPEED_MAX = 0.1, 10.0
#: an ``ai`` call plays a move once this share of the AI's interval has passed since its last one (the page's
#: timer fires at the full interval; the slack absorbs its jitter)
AI_SLACK = 0.8


def speed_field(msg: Mapping[str, Any]) -> float:
    """``ai_speed``: moves per second, AI_SPEED_MIN..AI_SPEED_MAX (1 if absent)."""
    value = field_of(msg, "ai_speed", (int, float), 1)
    if not AI_SPEED_MIN <= value <= AI_SPEED_MAX:
        raise InputError(f"field 'ai_speed' must be between {AI_SPEED_MIN} and {AI_SPEED_MAX} moves per second")
    return float(value)


def choice_field(msg: Mapping[str, Any], key: str, choices: tuple[str, ...]) -> str:
    """``msg[key]``, one of ``choices`` (the first if absent)."""
    value: str = field_of(msg, key, str, choices[0])
    if value not in choices:
        raise InputError(f"field {show(key)} must be one of {', '.join(choices)}")
    return value


class VersusPage:
    """One page's game against an AI: ``versus`` starts one (``bot``, ``seed``, ``mode``, ``ai_speed``,
    ``realtime_garbage``), ``key`` presses a key, ``ai`` lets the AI move on its clock (real time)."""

    def __init__(
        self,
        game: Episodic,
        clock: Callable[[], float] = time.monotonic,
        engines: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        self.game = game
        self.clock = clock
        #: the operator's external engines by name (``serve --engine``), playable as ``upi:NAME``
        self.engines = dict(engines or {})
        self.match: HumanMatch | None = None
        self.bot_name = ""
        self.message = ""
        self.mode = "turn"
        self.ai_interval = 1.0
        self.ai_next = 0.0  # the clock's time from which the AI may place its next pair
        #: the person's field as their last pair dropped, link by link (views of the person's field)
        self.steps: list[dict[str, Any]] = []
        self.frames: FramePage | None = None

    def handle(self, op: str, msg: Mapping[str, JSON]) -> dict[str, JSON]:
        moved = False
        if op == "versus":
            self.start(msg)
        elif self.frames is not None:
            self.frame_clock(op, msg)
        elif op == "ai":
            moved = self.ai_move()
        else:
            self.key(field_of(msg, "key", str))
        return {**self.frame(), "ai_moved": moved}

    def start(self, msg: Mapping[str, JSON]) -> None:
        bot_name = field_of(msg, "bot", str)
        seed = seed_field(msg)
        mode = choice_field(msg, "mode", MODES)
        speed = speed_field(msg)
        garbage = choice_field(msg, "realtime_garbage", REALTIME_GARBAGE)
        config = self.game.check_config({})
        fault = ""
        if bot_name.startswith(PREFIX):
            ai: Any = EngineBot(self.engine(bot_name, mode), config, bot_name)
            self.stop_engine()
            try:
                ai.start()  # before the clock starts: an engine may take seconds to load
            except EngineFault as error:
                fault = str(error)
        else:
            ai = self.game.make_bot(bot_name, config, None, bot_seed(seed))
            self.stop_engine()
        self.match = HumanMatch(seed, config, ai)
        self.frames = FramePage(seed, config, ai, bot_name, self.clock) if mode == "frames" else None
        self.match.game.realtime_garbage = garbage
        self.bot_name, self.mode = bot_name, mode
        self.ai_interval = 1.0 / speed
        self.ai_next = self.clock() + self.ai_interval
        self.message = "your move"
        self.steps = []
        if self.frames is not None and fault:
            self.frames.game.forfeit(1, fault)
            self.game_over()

    def engine(self, bot_name: str, mode: str) -> tuple[str, ...]:
        """The program of the operator's engine ``upi:NAME``; ``InputError`` for any other name (a page never
        names a command) or outside the frame clock."""
        name = bot_name[len(PREFIX) :]
        if name not in self.engines:
            known = ", ".join(PREFIX + n for n in sorted(self.engines)) or "none: the server has no --engine"
            raise InputError(f"no external engine {show(bot_name)} on this server (engines: {known})")
        if mode != "frames":
            raise InputError("external engines play on the frame clock only (mode 'frames')")
        return self.engines[name]

    def stop_engine(self, outcome: str | None = None) -> None:
        """End the current game's external engine, if it has one (``outcome``: ``win``/``lose`` for it)."""
        if self.match is not None:
            close_bot(self.match.ai, outcome)

    def frame_clock(self, op: str, msg: Mapping[str, JSON]) -> None:
        """The frame clock: ``ai`` runs the game to the current frame, ``key`` presses a key."""
        assert self.frames is not None
        if op == "ai":
            self.frames.catch_up()
            self.message = ""
        else:
            key = field_of(msg, "key", str)
            if key not in KEYS:
                raise IllegalActionError(f"unknown key {key!r} (keys: {', '.join(KEYS)})")
            self.message = self.frames.key(key)
        self.game_over()

    def game_over(self) -> None:
        """On the frame clock, once the game is over: the outcome (with an engine's fault) and the engine ended."""
        assert self.frames is not None
        game = self.frames.game
        if game.over():
            winner = game.result()["winner"]
            self.message = OUTCOMES[winner] + (f" ({self.bot_name} lost: {game.reason})" if game.reason else "")
            self.stop_engine(None if winner is None else "win" if winner == 1 else "lose")

    def playing(self) -> HumanMatch:
        if self.match is None:
            raise InputError("no Puyo game against an AI: start one first")
        return self.match

    def key(self, key: str) -> None:
        match = self.playing()
        if key not in KEYS:
            raise IllegalActionError(f"unknown key {show(key)} (keys: {', '.join(KEYS)})")
        self.steps = []
        person = match.game.players[0]
        if match.game.over() or person.remaining() <= 0:
            return
        before = (person.field.copy(), person.current(), person.next_pairs()[1:], (match.cursor.x + 1, match.cursor.r))
        try:
            if key == "drop" and self.mode == "real":
                match.game.step_one(0, before[3])
                match.cursor = PairCursor(person.field)
            else:
                match.press(key)
        except IllegalActionError:
            self.message = "that placement cannot be reached: the columns in the way are too tall"
            return
        self.update_message()
        if key == "drop":
            self.steps = chain_views(*before)

    def ai_move(self) -> bool:
        """Real time: the AI places its pair if its clock allows (else nothing happens); whether it did."""
        match = self.playing()
        if self.mode != "real":
            raise InputError("the AI moves on its own clock only in real time (mode 'real')")
        self.steps = []
        ai = match.game.players[1]
        now = self.clock()
        if match.game.over() or ai.remaining() <= 0 or now < self.ai_next:
            return False
        match.game.step_one(1, match.ai.act(ai))
        self.ai_next = now + AI_SLACK * self.ai_interval
        self.update_message()
        return True

    def update_message(self) -> None:
        game = self.playing().game
        self.message = OUTCOMES[game.result().winner] if game.over() else "your move"

    def frame(self) -> dict[str, JSON]:
        match = self.playing()
        if self.frames is not None:
            done = self.frames.game.over()
            return {
                **self.frames.frame(),
                "mode": self.mode,
                "done": done,
                "status": self.message or ("" if done else "your move"),
            }
        done = bool(match.game.over())
        person, ai = match.game.players
        cursor = match.cursor
        axis, child = person.current()
        piece = None if done or person.remaining() <= 0 else (cursor.x + 1, cursor.r, axis, child)

        def title(who: str, p: Any) -> str:
            return f"{who}: {p.score} (chain {p.max_chain}, garbage pending {p.incoming()})"

        you = field_view(person.field.cells, person.next_pairs(), piece, title("you", person))
        if piece is not None:
            you["ghosts"] = landing(person.field.heights, cursor.x, cursor.r, (axis, child))
        boards = [
            you,
            field_view(ai.field.cells, ai.next_pairs(), None, title(self.bot_name, ai), target_overlay(match.ai)),
        ]
        steps = [{"kind": "versus", "boards": [view, boards[1]], "link": view.get("link")} for view in self.steps]
        return {
            "view": {"kind": "versus", "boards": boards},
            "steps": steps,
            "piece": {"x": cursor.x + 1, "r": cursor.r},
            "garbage": {"you": person.incoming(), "ai": ai.incoming()},
            "turn": match.game.turn,
            "pairs": {"you": person.index, "ai": ai.index},
            "mode": self.mode,
            "done": done,
            "status": self.message,
        }
