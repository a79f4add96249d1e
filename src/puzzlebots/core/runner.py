"""The seeded episode runner: one game, one bot, one seed, from the first decision to the end."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .protocols import JSON, Bot, Episodic, Game, State, capability
from .registry import get_game
from .seeds import bot_seed


@dataclass
class Episode:
    """What one game produced: its figures, and (when recorded) its actions and periodic state hashes."""

    game: str
    bot: str
    seed: int
    config: dict[str, Any]
    result: dict[str, Any]
    actions: list[JSON] = field(default_factory=list)
    hashes: list[tuple[int, str]] = field(default_factory=list)


def resolve(game: Game | str) -> Episodic:
    """The episodic game named (or given); ``ConfigError`` for an unknown game or one without seeded games."""
    return capability(get_game(game) if isinstance(game, str) else game, Episodic)


def play_episode(
    game: Game | str,
    bot_name: str,
    seed: int,
    config: Mapping[str, Any] | None = None,
    weights: Sequence[float] | None = None,
    *,
    record: bool = False,
    hash_every: int = 10,
    max_actions: int | None = None,
    on_step: Callable[[State, Bot, Any], None] | None = None,
    on_start: Callable[[State], None] | None = None,
) -> Episode:
    """Play ``bot_name`` on ``game`` from ``seed`` until the state is terminal (or ``max_actions``).

    ``record`` keeps the encoded actions and a state hash every ``hash_every`` actions (and at the end),
    which is what a replay file holds. ``on_start(state)`` sees the first state, ``on_step(state, bot, action)``
    each state after an action.
    """
    g = resolve(game)
    cfg = g.check_config(config or {})
    state = g.new_state(seed, cfg)
    bot = g.make_bot(bot_name, cfg, weights, bot_seed(seed))
    actions: list[JSON] = []
    if on_start is not None:
        on_start(state)
    hashes: list[tuple[int, str]] = [(0, state.state_hash())] if record else []
    n = 0
    truncated = False
    while not state.is_terminal():
        if max_actions is not None and n >= max_actions:
            truncated = True
            break
        action = bot.act(state)
        if record:
            actions.append(g.encode_action(action))
        state.apply(action)
        n += 1
        if record and n % hash_every == 0:
            hashes.append((n, state.state_hash()))
        if on_step is not None:
            on_step(state, bot, action)
    if record and (not hashes or hashes[-1][0] != n):
        hashes.append((n, state.state_hash()))
    result = dict(state.result())
    result["seed"] = seed
    result["decisions"] = n
    result["truncated"] = truncated
    return Episode(g.name, bot_name, seed, cfg, result, actions, hashes)
