"""Seeded text playthroughs: one golden format for every episodic game, written and checked by one piece of code.

A playthrough is what a reviewer reads when an engine changes: for every decision the state hash, how many legal
actions there were (with a digest of the whole list), the action chosen, and every ``show_every`` decisions the
state as the terminal draws it. Its header is also its recipe: :func:`read_header` gives back the arguments that
regenerate the file, so one test checks every checked-in playthrough (OpenSpiel's ``playthrough_test`` idea)::

    # puzzlebots playthrough
    game: puyo
    ...
    step 1 action [3, 1] -> hash 3be0a1c29d01f1a7 legal 22 [5f0e9c1a]
"""

from __future__ import annotations

import hashlib
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

from .errors import InputError
from .jsonio import show
from .protocols import Episodic, State, TerminalView
from .runner import play_episode, resolve

MAGIC = "# puzzlebots playthrough"
#: width of the drawn states, so that a playthrough does not depend on the terminal it was made in
WIDTH = 100


@dataclass(frozen=True)
class Recipe:
    """Everything that determines a playthrough: the arguments of :func:`play_episode` plus how often to draw."""

    game: str
    bot: str
    seed: int
    config: dict[str, Any] = field(default_factory=dict)
    weights: list[float] | None = None
    max_actions: int | None = None
    show_every: int = 10


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(", ", ": "))


def _digest(values: Sequence[Any]) -> str:
    return hashlib.sha256(_json(list(values)).encode()).hexdigest()[:8]


def _drawn(game: Episodic, state: State) -> list[str]:
    """The state as the terminal view draws it, in plain text (no colour) at a fixed width; none without one."""
    if not isinstance(game, TerminalView):
        return []
    out = io.StringIO()
    console = Console(file=out, width=WIDTH, color_system=None, force_terminal=False, legacy_windows=False)
    console.print(game.render(state))
    return ["  | " + line.rstrip() for line in out.getvalue().rstrip("\n").split("\n")]


def playthrough(recipe: Recipe) -> str:
    """The playthrough text of ``recipe`` (deterministic: the same recipe always gives the same text)."""
    game = resolve(recipe.game)
    lines = [
        MAGIC,
        f"game: {game.name}",
        f"rules_version: {game.rules_version}",
        f"bot: {recipe.bot}",
        f"seed: {recipe.seed}",
        f"config: {_json(recipe.config)}",
        f"weights: {_json(recipe.weights)}",
        f"max_actions: {_json(recipe.max_actions)}",
        f"show_every: {recipe.show_every}",
        "",
    ]

    def describe(state: State, step: int, action: Any | None) -> None:
        legal = [game.encode_action(a) for a in state.legal_actions()] if not state.is_terminal() else []
        played = f" action {_json(game.encode_action(action))} ->" if action is not None else ""
        lines.append(f"step {step}{played} hash {state.state_hash()} legal {len(legal)} [{_digest(legal)}]")
        if step % recipe.show_every == 0 or state.is_terminal():
            lines.extend(_drawn(game, state))

    steps = 0

    def on_step(state: State, _bot: Any, action: Any) -> None:
        nonlocal steps
        steps += 1
        describe(state, steps, action)

    episode = play_episode(
        game,
        recipe.bot,
        recipe.seed,
        recipe.config,
        recipe.weights,
        max_actions=recipe.max_actions,
        on_step=on_step,
        on_start=lambda state: describe(state, 0, None),
    )
    lines.append(f"result: {_json(episode.result)}")
    return "\n".join(lines) + "\n"


def read_header(text: str) -> Recipe:
    """The recipe a playthrough was made from (its header lines); ``InputError`` if it is not a playthrough."""
    head = text.split("\n\n", 1)[0].split("\n")
    if not head or head[0] != MAGIC:
        raise InputError("not a puzzlebots playthrough (the first line must be '# puzzlebots playthrough')")
    fields: dict[str, str] = {}
    for line in head[1:]:
        key, sep, value = line.partition(": ")
        if not sep:
            raise InputError(f"playthrough header line {show(line)} is not 'key: value'")
        fields[key] = value
    try:
        return Recipe(
            game=fields["game"],
            bot=fields["bot"],
            seed=int(fields["seed"]),
            config=dict(json.loads(fields["config"])),
            weights=json.loads(fields["weights"]),
            max_actions=json.loads(fields["max_actions"]),
            show_every=int(fields["show_every"]),
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise InputError(f"playthrough header is incomplete or malformed ({type(exc).__name__}: {exc})") from exc


def step_hashes(text: str) -> list[str]:
    """The state hash of every step of a playthrough, in order (for comparing engines across a refactor)."""
    return [line.split(" hash ", 1)[1].split()[0] for line in text.split("\n") if line.startswith("step ")]
