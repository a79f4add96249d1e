"""The page's message protocol: one ``Session`` per browser connection, JSON object in, JSON object out.

Kept free of sockets so it is tested directly. Every message is ``{"op": ..., ...}``; the answer is a
``{"type": ...}`` object, and anything malformed or impossible gets ``{"type": "error", "message": ...}``
with a one-line message (the connection stays usable). Timing (speed, pause, single step) lives in the page:
it asks for steps. A page sets only the config keys its game lets a page set (``check_config(web=True)``).

The session knows no game: ``watch``, ``step`` and ``replay`` play any ``Episodic`` game and draw it with its
``WebView`` (or the text of its ``TerminalView``); ``{"op": "game", "game": G, "call": OP, ...}`` goes to the
``WebControls`` session of game G (one per connection and game, made on first use), made with the operator's
engine table where the game plays external engines (``WebEngines``); a session whose long calls report as they
go (``WebReporting``) sends ``{"type": "progress", "game": G, ...}`` messages before its answer, and ends early
when the page says stop (``{"op": "stop"}``, which the server reads: ``server.stop_answer``). ``preview`` plays
the small games of the start page, one per game beside the watched one; a frame carries the bot's ``thinking()``
where the bot has it (docs/architecture.md).
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from rich.console import Console

from ..core.errors import InputError, PuzzlebotsError
from ..core.jsonio import name_of
from ..core.messages import field_of, int_field, seed_field
from ..core.protocols import (
    Bot,
    EngineTable,
    Episodic,
    Game,
    State,
    TerminalView,
    WebControls,
    WebEngines,
    WebReporting,
    WebSession,
    WebView,
    capability,
)
from ..core.registry import get_game
from ..core.replay import read_replay, replay_start, replay_summary
from ..core.runner import resolve
from ..core.seeds import bot_seed
from .files import safe_file
from .games import list_games

log = logging.getLogger(__name__)

MAX_STEPS_PER_MESSAGE = 500
#: at most this many replay files are listed (each one's header is read for the list)
MAX_LISTED_REPLAYS = 200
REPLAY_SUFFIX = ".jsonl"
#: a message nested deeper than this (lists and objects in each other) is refused before any work
MAX_NESTING = 32
#: an error message longer than this is cut (it may quote what the page sent)
MAX_ERROR_CHARS = 300
#: the width of a game's terminal view drawn as text on the page
TEXT_WIDTH = 100
#: the start page's small games: at most this many decisions each before a new seed starts
PREVIEW_DECISIONS = 400


class ProtocolError(ValueError):
    """A message the protocol cannot act on; its text goes back to the page."""


def error_reply(text: str) -> dict[str, Any]:
    """The ``error`` answer: its message on one line, and short."""
    message = " ".join(text.split())
    if len(message) > MAX_ERROR_CHARS:
        message = message[: MAX_ERROR_CHARS - 3] + "..."
    return {"type": "error", "message": message or "error"}


def too_deep(value: Any) -> bool:
    """Whether lists and objects nest in ``value`` more than ``MAX_NESTING`` levels (found without recursion)."""
    todo = [(value, 0)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            if depth == MAX_NESTING:
                return True
            todo.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def parse_message(text: str) -> Any:
    """The JSON value of one websocket message; ``ProtocolError`` for anything that is not plain, shallow JSON."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"a message must be JSON ({exc.msg})") from exc
    except RecursionError as exc:
        raise ProtocolError(f"a message may nest at most {MAX_NESTING} levels") from exc
    except ValueError as exc:  # an integer of thousands of digits, which Python will not convert
        raise ProtocolError("a message must be plain JSON (it holds a number too long to read)") from exc
    if too_deep(value):
        raise ProtocolError(f"a message may nest at most {MAX_NESTING} levels")
    return value


def board(game: Game, state: State, bot: Bot | None = None) -> dict[str, Any]:
    """The board JSON of ``state``: the game's web view, or else its terminal view as plain text."""
    if isinstance(game, WebView):
        return game.web_view(state, bot)
    buffer = io.StringIO()
    Console(file=buffer, width=TEXT_WIDTH, color_system=None).print(capability(game, TerminalView).render(state, bot))
    return {"kind": "text", "text": buffer.getvalue()}


def thinking(bot: Bot | None) -> dict[str, Any] | None:
    """What the bot weighed at its last decision (its optional ``thinking()``), or None for a bot without one."""
    think = getattr(bot, "thinking", None)
    return think() if callable(think) else None


@runtime_checkable
class Previewed(Protocol):
    """A game that names the bot and config its small live board on the start page plays (else its first bot)."""

    def web_preview(self) -> dict[str, Any]:
        """``{"bot": name, "config": {web-settable key: value}}``."""
        ...


@runtime_checkable
class Animated(Protocol):
    """A game whose page view can show what happens within one decision (a chain popping link by link)."""

    def web_animation(self, state: State, action: Any) -> list[dict[str, Any]]:
        """The views between ``state`` and the state after ``action``, in order (the last view is the frame's)."""
        ...


@dataclass
class Play:
    """A game being shown: a bot playing it live, or a replay file being stepped through."""

    game: Episodic
    state: State
    mode: str
    seed: int
    bot_name: str
    bot: Bot | None = None
    #: a replay's actions, read from its file one at a time, each with the hash recorded after it
    replay_steps: Iterator[tuple[Any, str | None]] = field(default_factory=lambda: iter(()))
    #: a replay's number of actions
    total: int = 0
    step: int = 0
    divergence: dict[str, Any] | None = None
    #: the state before the last decision and the decision, kept only for a one-step answer to animate
    last_move: tuple[State, Any] | None = None

    def done(self) -> bool:
        if self.mode == "replay":
            return self.step >= self.total or self.divergence is not None
        return self.state.is_terminal()

    def advance(self, animate: bool = False) -> None:
        self.last_move = None
        if self.done():
            return
        before = self.state.clone() if animate and isinstance(self.game, Animated) else None
        expected = None
        if self.bot is not None:
            action = self.bot.act(self.state)
            self.state.apply(action)
        else:
            data, expected = next(self.replay_steps, (None, None))
            try:
                action = self.game.decode_action(data)
                self.state.apply(action)
            except PuzzlebotsError as exc:
                raise InputError(f"replay action {self.step + 1} cannot be played: {exc}") from exc
        if before is not None:
            self.last_move = (before, action)
        self.step += 1
        if expected is not None and (got := self.state.state_hash()) != expected:
            self.divergence = {"step": self.step, "expected": expected, "got": got}

    def frame(self) -> dict[str, Any]:
        return {
            "type": "frame",
            "mode": self.mode,
            "game": self.game.name,
            "bot": self.bot_name,
            "seed": self.seed,
            "step": self.step,
            "total": self.total if self.mode == "replay" else None,
            "done": self.done(),
            "divergence": self.divergence,
            "result": self.state.result(),
            "view": board(self.game, self.state, self.bot),
            "steps": self.animation(),
            "thinking": thinking(self.bot) if self.step else None,
        }

    def animation(self) -> list[dict[str, Any]]:
        """The views within the last decision, if the game draws them and the answer is for one step."""
        if self.last_move is None or not isinstance(self.game, Animated):
            return []
        return self.game.web_animation(*self.last_move)


class Session:
    """The state of one browser connection: what it is watching or playing."""

    def __init__(
        self,
        replays_dir: Path | None = None,
        engines: EngineTable | None = None,
        report: Callable[[dict[str, Any]], None] | None = None,
        stopped: Callable[[], bool] | None = None,
    ) -> None:
        self.replays_dir = replays_dir
        #: sends the page a progress message of the call running (the worker's frames; None: no page listens)
        self.report = report
        #: whether the page said stop to the call running (the worker's flag; None: it never does)
        self.stopped = stopped or (lambda: False)
        #: the operator's external engines (``serve --engine``): a game's page controls may play them by name
        self.engines = dict(engines or {})
        self.play: Play | None = None
        #: the replay file open in ``play``, if it is a replay (``seek`` re-reads it)
        self.replay_name: str | None = None
        #: each game's page-controls session, by game name, made on the first ``game`` message for it
        self.controls: dict[str, WebSession] = {}
        #: the (game, bot) pairs whose kernels this process has loaded (``warm_up``)
        self.warm: set[tuple[str, str]] = set()
        #: the start page's small games, by game name
        self.previews: dict[str, Play] = {}
        self.handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "games": lambda msg: {"type": "games", "games": list_games(self.engines)},
            "watch": self.watch,
            "step": self.step,
            "replays": self.list_replays,
            "replay": self.open_replay,
            "seek": self.seek,
            "game": self.game_call,
            "preview": self.preview,
        }

    def reply(self, text: str) -> str:
        """The JSON text answering the message ``text`` (what a worker process sends back); never raises,
        whatever the message: the page's game lives in this process."""
        try:
            msg = parse_message(text)
        except ProtocolError as exc:
            answer = error_reply(str(exc))
        except Exception as exc:  # a message the parser chokes on otherwise: report it, keep serving
            log.exception("cannot read the message %.200r", text)
            answer = error_reply(f"internal error: {type(exc).__name__}: {exc}")
        else:
            answer = self.handle(msg)
        try:
            return json.dumps(answer)
        except Exception as exc:  # a bug in a view: report it, keep serving
            log.exception("cannot send the answer to %.200r", text)
            return json.dumps(error_reply(f"internal error: the answer is not JSON ({type(exc).__name__})"))

    def handle(self, msg: Any) -> dict[str, Any]:
        """Answer one message; never raises."""
        try:
            if not isinstance(msg, dict):
                raise ProtocolError("a message must be a JSON object")
            op = field_of(msg, "op", str)
            handler = self.handlers.get(op)
            if handler is None:
                raise ProtocolError(f"unknown op {op!r} (known: {', '.join(sorted(self.handlers))})")
            return handler(msg)
        except (ProtocolError, PuzzlebotsError) as exc:
            return error_reply(str(exc))
        except Exception as exc:  # a bug in a game or bot: report it, keep serving
            log.exception("error while handling %.200r", msg)
            return error_reply(f"internal error: {type(exc).__name__}: {exc}")

    def watch(self, msg: dict[str, Any]) -> dict[str, Any]:
        game = resolve(field_of(msg, "game", str))
        bot_name = field_of(msg, "bot", str)
        seed = seed_field(msg)
        config = game.check_config(field_of(msg, "config", dict, {}), web=True)
        bot = game.make_bot(bot_name, config, None, bot_seed(seed))
        state = game.new_state(seed, config)
        self.warm_up(game, bot_name, config, seed, state)
        self.play = Play(game, state, "watch", seed, bot_name, bot=bot)
        self.replay_name = None
        return self.play.frame()

    def warm_up(self, game: Episodic, bot_name: str, config: dict[str, Any], seed: int, state: State) -> None:
        """One decision of a spare copy of a bot whose decisions call numba kernels, on a copy of the state,
        thrown away: its kernels are compiled or loaded now, within the watch's allowance (``Limits``), and the
        first step keeps its time budget for the decision. Once per bot and process: the kernels stay loaded."""
        if (game.name, bot_name) in self.warm or not game.bot_info(bot_name).compiled or state.is_terminal():
            return
        game.make_bot(bot_name, config, None, bot_seed(seed)).act(state.clone())
        self.warm.add((game.name, bot_name))

    def preview(self, msg: dict[str, Any]) -> dict[str, Any]:
        """One more decision of the start page's small game of ``game`` (a new seed once it ends or has played
        ``PREVIEW_DECISIONS``): the bot the game names for it (``Previewed``) or its first, with the game's
        preview config; kept apart from the watched game."""
        game = resolve(field_of(msg, "game", str))
        play = self.previews.get(game.name)
        if play is None or play.done() or play.step >= PREVIEW_DECISIONS:
            chosen: dict[str, Any] = game.web_preview() if isinstance(game, Previewed) else {}
            bot_name = str(chosen.get("bot", game.bots()[0].name))
            config = game.check_config(dict(chosen.get("config", {})), web=True)
            seed = play.seed + 1 if play is not None else 1
            state = game.new_state(seed, config)
            self.warm_up(game, bot_name, config, seed, state)
            play = self.previews[game.name] = Play(
                game, state, "watch", seed, bot_name, bot=game.make_bot(bot_name, config, None, bot_seed(seed))
            )
        else:
            play.advance()
        return {**play.frame(), "type": "preview"}

    def step(self, msg: dict[str, Any]) -> dict[str, Any]:
        if self.play is None:
            raise ProtocolError("nothing to step: start a game or open a replay first")
        n = int_field(msg, "n", 1, MAX_STEPS_PER_MESSAGE, 1)
        for _ in range(n):
            self.play.advance(animate=n == 1 and field_of(msg, "animate", bool, False))
        return self.play.frame()

    def game_call(self, msg: dict[str, Any]) -> dict[str, Any]:
        """A message for a game's own page controls; its answer, marked with the game and the call."""
        name = field_of(msg, "game", str)
        call = field_of(msg, "call", str)
        controls = capability(get_game(name), WebControls)
        ops = list(controls.web_ops())
        if call not in ops:
            raise ProtocolError(f"{name} has no page call {call!r} (calls: {', '.join(ops)})")
        session = self.controls.get(name)
        if session is None:
            session = self.controls[name] = (
                controls.web_engine_session(self.engines)
                if self.engines and isinstance(controls, WebEngines)
                else controls.web_session()
            )
            if self.report is not None and isinstance(session, WebReporting):
                session.web_reporting(self.progress_of(name), self.stopped)
        return {**session.handle(call, msg), "type": "game", "game": name, "call": call}

    def progress_of(self, name: str) -> Callable[[dict[str, Any]], None]:
        """What game ``name``'s long calls report through: a ``progress`` message to the page, marked with the game."""
        report = self.report
        assert report is not None
        return lambda update: report({**update, "type": "progress", "game": name})

    def replay_names(self) -> list[str]:
        if self.replays_dir is None or not self.replays_dir.is_dir():
            return []
        return sorted(p.name for p in self.replays_dir.iterdir() if p.is_file() and p.suffix == REPLAY_SUFFIX)

    def list_replays(self, msg: dict[str, Any]) -> dict[str, Any]:
        """The replay files, each with its game, bot, seed, length and date (or why it cannot be read)."""
        names = self.replay_names()[:MAX_LISTED_REPLAYS]
        return {"type": "replays", "replays": names, "files": [self.replay_entry(name) for name in names]}

    def replay_entry(self, name: str) -> dict[str, Any]:
        path = safe_file(self.replays_dir, name) if self.replays_dir is not None else None
        if path is None:
            return {"name": name, "error": "not a plain file of the replay folder"}
        try:
            header, length = replay_summary(path)
            date = datetime.fromtimestamp(path.stat().st_mtime, tz=UTC)
        except PuzzlebotsError as exc:  # its message names the file by its name only, never the server's path
            return {"name": name, "error": str(exc)}
        except OSError as exc:
            return {"name": name, "error": f"cannot read replay {name_of(name)}: {exc.strerror}"}
        return {
            "name": name,
            "game": str(header["game"]),
            "bot": str(header["bot"]),
            "seed": header["seed"],
            "length": length,
            "date": date.strftime("%Y-%m-%d %H:%M UTC"),
        }

    def seek(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Jump to any step of the open replay (back by re-running it from its start)."""
        play = self.play
        if play is None or play.mode != "replay" or self.replay_name is None:
            raise ProtocolError("nothing to seek in: open a replay first")
        target = int_field(msg, "step", 0, play.total, play.step)
        if target < play.step:
            self.open_replay({"name": self.replay_name})
            assert self.play is not None
            play = self.play
        while play.step < target and not play.done():
            play.advance()
        return play.frame()

    def open_replay(self, msg: dict[str, Any]) -> dict[str, Any]:
        name = field_of(msg, "name", str)
        path = safe_file(self.replays_dir, name) if self.replays_dir is not None else None
        if path is None or "/" in name:
            raise ProtocolError(f"no replay named {name!r} in the replay folder")
        replay = read_replay(path)
        header = replay.header
        game, state = replay_start(replay)
        self.play = Play(
            game,
            state,
            "replay",
            header["seed"],
            str(header["bot"]),
            replay_steps=replay.steps(),
            total=replay.length,
        )
        self.replay_name = name
        first = replay.initial_hash
        if first is not None and (got := state.state_hash()) != first:
            self.play.divergence = {"step": 0, "expected": first, "got": got}
        return self.play.frame()
