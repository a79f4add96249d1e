"""Game configuration declared once: a frozen dataclass whose fields say what each key may hold.

A game's ``config.py`` subclasses :class:`Schema` and declares every key with :func:`setting` (its default, help,
choices or inclusive range or a ``valid`` test, an optional CLI flag, whether a web page may set it and a tighter
web bound). From that one declaration come the default config, the CLI options, the keys a web page may set, and
:func:`check`, the one validator, so every game words a bad value the same way:
``"<game>: <key> must be <what>, got <value!r>"``.
"""

from __future__ import annotations

import copy
import dataclasses
import reprlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import click

from .errors import ConfigError

_META = "puzzlebots.setting"

#: ``repr`` for error messages, cut short so a hostile megabyte value is not echoed back whole
_short = reprlib.Repr()
_short.maxstring = _short.maxother = 60
_short.maxlist = _short.maxtuple = 12
_short.maxlong = 40


@dataclass(frozen=True)
class Setting:
    """What one config key may hold; read from the field's metadata."""

    help: str
    type: type
    choices: tuple[Any, ...] = ()
    range: tuple[int, int] | None = None
    #: a test for values the other kinds cannot describe (lists, maps, "a or b"); ``what`` words it
    valid: Callable[[Any], bool] | None = None
    what: str = ""
    #: click option declaration (e.g. "--pairs", "--endless/--no-endless"); None: not on the command line
    flag: str | None = None
    #: click type for the flag when the derived one (choices, bool flag, or ``type``) is not what the CLI wants
    cli_type: Any = None
    web: bool = False
    #: a tighter inclusive upper bound for a value set by a web page (ranged integers only)
    web_max: int | None = None
    #: the value names a file the game reads: only the command line (or Python) may set it, never a page or a file
    file: bool = False
    #: the bots that read the key (empty: the game itself reads it, whichever bot plays); setting it while
    #: another bot plays is refused, as it would change nothing
    bots: tuple[str, ...] = ()
    #: read only where two bots play each other (a game's versus mode): a solo game (``stats``, ``watch``,
    #: ``train``) refuses it, as it would change nothing
    versus: bool = False

    def accepts(self, value: Any) -> bool:
        if self.valid is not None:
            return self.valid(value)
        if self.choices:
            return any(type(value) is type(c) and value == c for c in self.choices)  # True is not 1
        if self.range is not None:
            return is_int(value) and self.range[0] <= value <= self.range[1]
        return isinstance(value, self.type)

    def describe(self) -> str:
        """The ``<what>`` of the error: a valid value in words."""
        if self.what:
            return self.what
        if self.choices:
            return "one of " + ", ".join(map(str, self.choices))
        if self.range is not None:
            return f"an integer in {self.range[0]}..{self.range[1]}"
        return "true or false" if self.type is bool else "a string"


@dataclass(frozen=True)
class ConfigOption:
    """A game-specific command-line option that sets one configuration key (derived from the game's schema).

    ``type`` is anything click accepts as an option type (``int``, ``click.Choice([...])``, ...).
    """

    flag: str  # e.g. "--pairs"
    key: str  # configuration key it sets, e.g. "pair_source"
    type: Any
    help: str
    is_flag: bool = False
    #: the key's default, shown in ``--help``
    default: Any = None
    #: the values the key takes, in words, where ``type`` does not show them itself ("" otherwise)
    domain: str = ""


class Invalid(Exception):
    """Raised by ``Schema.cross_check``: ``key``'s value must be ``what`` (``check`` words the ConfigError)."""

    def __init__(self, key: str, what: str) -> None:
        super().__init__(key, what)
        self.key = key
        self.what = what


@dataclass(frozen=True)
class Schema:
    """Base of every game's config dataclass; used as is, it is the config of a game without settings.

    A subclass must be decorated ``@dataclass(frozen=True)``: without it its ``setting`` fields are not fields and
    the game would silently have no config keys. The decorator runs after the class is created, so the check is
    made where a schema is first used: a game class naming it (``GameBase``) and every function below.
    """

    #: keys renamed after files were written with them, old name -> new name: :func:`check` reads a config under
    #: either (a replay's header, a checkpoint's settings), so an old file keeps loading
    renamed: ClassVar[Mapping[str, str]] = {}

    @classmethod
    def cross_check(cls, config: Mapping[str, Any]) -> None:
        """Rules between keys, run after every key passed its own check: raise :class:`Invalid`."""

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> Self:
        """The typed view of a config already passed through :func:`check` (keys left out take their defaults):
        what an engine reads, as attributes."""
        require_dataclass(cls)
        return cls(**config)


def require_dataclass(schema: type) -> None:
    """``TypeError`` (one line) unless ``schema`` is a :class:`Schema` subclass made ``@dataclass(frozen=True)``."""
    if not (isinstance(schema, type) and issubclass(schema, Schema)):
        raise TypeError(f"config schema {schema!r} is not a puzzlebots.core.config.Schema subclass")
    params = schema.__dict__.get("__dataclass_params__")
    if params is None or not params.frozen:
        raise TypeError(f"config schema {schema.__qualname__} needs @dataclass(frozen=True) on its class")


def is_int(value: Any) -> bool:
    """An integer that is not a bool (JSON ``true`` is never a number here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def setting(
    default: Any,
    help: str,
    *,
    choices: tuple[Any, ...] = (),
    range: tuple[int, int] | None = None,
    valid: Callable[[Any], bool] | None = None,
    what: str = "",
    flag: str | None = None,
    cli_type: Any = None,
    web: bool = False,
    web_max: int | None = None,
    file: bool = False,
    bots: tuple[str, ...] = (),
    versus: bool = False,
) -> Any:
    """A dataclass field for one config key. Every key needs a domain: choices, a range, a ``valid`` test, or a
    bool/str default (any bool, any string)."""
    kind = type(default)
    if not (choices or range or valid or kind in (bool, str)):
        raise TypeError(f"setting {default!r}: give choices, a range or a valid test")
    if valid is not None and not what:
        raise TypeError(f"setting {default!r}: a valid test needs its wording (what=...)")
    if web_max is not None and range is None:
        raise TypeError(f"setting {default!r}: web_max bounds a ranged integer")
    if file and web:
        raise TypeError(f"setting {default!r}: a key that names a file is never web-settable")
    meta = {
        _META: Setting(
            help, kind, tuple(choices), range, valid, what, flag, cli_type, web, web_max, file, tuple(bots), versus
        )
    }
    if isinstance(default, list | dict):
        return dataclasses.field(default_factory=lambda: copy.deepcopy(default), metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def settings(schema: type[Schema]) -> dict[str, Setting]:
    """Each key's :class:`Setting`, in declaration order (what web forms and help pages read)."""
    require_dataclass(schema)
    return {f.name: f.metadata[_META] for f in dataclasses.fields(schema)}


def defaults(schema: type[Schema]) -> dict[str, Any]:
    """Every key with its default (a fresh copy: callers may mutate it)."""
    require_dataclass(schema)
    return dataclasses.asdict(schema())


def bot_keys(schema: type[Schema], bot: str) -> tuple[str, ...]:
    """The keys only some bots read that ``bot`` is one of (a game's ``BotInfo.config_keys``)."""
    return tuple(k for k, s in settings(schema).items() if bot in s.bots)


def keys_read_by(schema: type[Schema], bots: Sequence[str]) -> tuple[str, ...]:
    """The keys any of ``bots`` reads: the ones every bot reads and those given to one of them (a match's record
    names only these, so that another bot's setting does not make its run look like another run)."""
    return tuple(k for k, s in settings(schema).items() if not s.bots or set(s.bots) & set(bots))


def unread_keys(schema: type[Schema], bot: str) -> tuple[str, ...]:
    """The keys ``bot`` does not read in a solo game: those the schema gives to other bots only, and those only
    a versus game reads. The one check of a config against a bot refuses them when the user set one
    (``cli.commands.check_start``)."""
    return tuple(k for k, s in settings(schema).items() if (s.bots and bot not in s.bots) or s.versus)


def web_keys(schema: type[Schema]) -> frozenset[str]:
    return frozenset(k for k, s in settings(schema).items() if s.web)


def cli_options(schema: type[Schema]) -> tuple[ConfigOption, ...]:
    """The command-line options of the keys that have a flag, in declaration order."""
    out = []
    field_defaults = defaults(schema)
    for key, s in settings(schema).items():
        if s.flag is None:
            continue
        default = field_defaults[key]
        if s.type is bool:
            out.append(ConfigOption(s.flag, key, bool, s.help, is_flag=True, default=default))
            continue
        words = s.choices and all(isinstance(c, str) for c in s.choices)
        derived = click.Choice(list(s.choices)) if words else s.type  # integer choices: click reads an int
        kind = s.cli_type or derived
        shown_by_click = isinstance(kind, click.Choice | click.IntRange)  # its metavar or help shows the domain
        domain = s.describe() if (s.range or s.valid or s.choices) and not shown_by_click else ""
        out.append(ConfigOption(s.flag, key, kind, s.help, default=default, domain=domain))
    return tuple(out)


def _error(game: str, key: str, what: str, value: Any) -> ConfigError:
    return ConfigError(f"{game}: {key} must be {what}, got {_short.repr(value)}")


def check(
    schema: type[Schema], game: str, raw: Mapping[str, Any], *, web: bool = False, files: bool = True
) -> dict[str, Any]:
    """Merge ``raw`` over the defaults and check every value; a plain dict, values as given (JSON-able).

    ``web``: ``raw`` comes from a web page, which may set only web keys, and ranged ones only up to ``web_max``.
    ``files=False``: ``raw`` comes from a file (a replay's header), which may not name another file to read.
    A key the schema has renamed (``Schema.renamed``) is read under its new name.
    """
    specs = settings(schema)
    merged = defaults(schema)
    for given, value in raw.items():
        key = schema.renamed.get(given, given)
        spec = specs.get(key)
        if web and (spec is None or not spec.web):
            raise ConfigError(f"{game}: a web page may not set {_short.repr(key)}")
        if spec is None:
            known = ", ".join(sorted(specs)) or "none"
            raise ConfigError(f"{game}: unknown config key {_short.repr(key)} (known: {known})")
        if not files and spec.file and value != merged[key]:
            raise ConfigError(f"{game}: {key} names a file, which only the command line may set")
        merged[key] = value
    for key, spec in specs.items():
        value = merged[key]
        if not spec.accepts(value):
            raise _error(game, key, spec.describe(), value)
        if web and spec.web_max is not None and spec.range is not None and value > spec.web_max:
            raise _error(game, key, f"an integer in {spec.range[0]}..{spec.web_max} on a web page", value)
    try:
        schema.cross_check(merged)
    except Invalid as exc:
        raise _error(game, exc.key, exc.what, merged[exc.key]) from None
    return merged
