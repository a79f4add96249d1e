"""A game's own config keys as command-line options (``Game.config_options``), and their values read back into a
checked config."""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from typing import Any

import click

from ..core.config import ConfigOption
from .options import GameOption


def game_option_decorators(game: Any, keys: Collection[str] | None = None) -> list[Callable[[Any], Any]]:
    """click options for the game's own config keys (or those of them in ``keys``); their values land in
    ``kwargs['config_<key>']``."""
    out = []
    for opt in game.config_options():
        if keys is not None and opt.key not in keys:
            continue
        dest = "config__" + opt.key
        # default None: a key the user leaves out keeps the game's default, which the help shows (GameOption)
        shown = "; ".join(filter(None, [f"default: {_default_words(opt)}", opt.domain]))
        kind = {"is_flag": True} if opt.is_flag else {"type": opt.type}
        out.append(click.option(opt.flag, dest, cls=GameOption, shown=shown, default=None, help=opt.help, **kind))
    return out


def _default_words(opt: ConfigOption) -> str:
    """A game option's default as ``--help`` shows it: the flag a bool default stands for, else the value."""
    if opt.is_flag:
        on, _, off = opt.flag.partition("/")
        return (on if opt.default else off or "off").lstrip("-")
    if isinstance(opt.default, str):
        return opt.default or '""'
    return json.dumps(opt.default)


def split_config(game: Any, kwargs: dict[str, Any]) -> dict[str, Any]:
    """Pull the game options out of ``kwargs`` into a validated config."""
    raw = {k[len("config__") :]: kwargs.pop(k) for k in list(kwargs) if k.startswith("config__")}
    return game.check_config({k: v for k, v in raw.items() if v is not None})


def with_options(decorators: Sequence[Callable[[Any], Any]], fn: Any) -> Any:
    """``fn`` with ``decorators`` applied, the first one outermost (as they would be written above it)."""
    for dec in reversed(list(decorators)):
        fn = dec(fn)
    return fn
