"""The 40 Cargo-Bot levels (package data ``data/levels.json``), their toolbox, register limits and stars."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import check_int, name_of, parse_json, read_json, show

from .language import RegisterProgram, register_count
from .rules import COLOURS, COMMANDS, DEFAULT_COMMANDS, DEFAULT_FUNCTIONS

Board = list[list[str]]

#: register slots of F1..F4 on every level but Equalizer
MAX_PILES = 9
#: bound of the register counts a levels file names (stars, best known size, level number)
MAX_REGISTERS = 1000
#: boards of one sub-problem (its own and those of ``worlds``), and their piles together
MAX_WORLDS = 16
MAX_WORLD_PILES = 64
_REQUIRED = object()

#: one board of a sub-problem: the start pile of the claw (1-based), the start and goal piles
World = tuple[int, tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]


@dataclass(frozen=True)
class Level:
    pack: str
    number: int | None
    name: str
    claw: int  # 1-based start pile
    stacks: tuple[tuple[str, ...], ...]
    goal: tuple[tuple[str, ...], ...]
    functions: tuple[int, ...]
    commands: tuple[str, ...]
    conditions: tuple[str, ...]
    stars: tuple[int, int, int]
    hint: str | None
    best_known: int | None
    original_name: str | None = None
    #: a sub-problem (Elizarov's "Simplified" levels, for ``solve`` only): further boards the same program must
    #: win, a crate colour that must never be lifted, and whether the program must end (F1 returns) with each
    #: board at its goal rather than win as soon as it passes through it, and (``home``, with ``finish``) with the
    #: claw back on the board's start pile, as a helper must be for the caller that steps on from there
    worlds: tuple[World, ...] = ()
    poison: str | None = None
    finish: bool = False
    home: bool = False

    @property
    def subproblem(self) -> bool:
        return bool(self.worlds) or self.poison is not None or self.finish or self.home

    def boards(self) -> list[World]:
        """Every board the program must win: the level's own, then its ``worlds``."""
        return [(self.claw, self.stacks, self.goal), *self.worlds]

    @property
    def board_piles(self) -> int:
        """The piles of all its boards."""
        return sum(len(stacks) for _, stacks, _ in self.boards())

    @property
    def callable_functions(self) -> int:
        """How many functions the toolbox can call (F1 .. Fn): the ones a program may use."""
        return sum(1 for c in self.commands if c.startswith("f"))

    @property
    def label(self) -> str:
        return f"{self.pack} {self.number}" if self.number is not None else self.pack

    def board(self) -> Board:
        return [list(p) for p in self.stacks]

    def goal_board(self) -> Board:
        return [list(p) for p in self.goal]

    def check_program(self, program: RegisterProgram) -> None:
        """Raise ``InputError`` if the program breaks the level's toolbox or register limits."""
        check_program_limits(program, self.functions, self.commands, self.conditions, self.name)

    def stars_for(self, program: RegisterProgram) -> int:
        return stars(register_count(program), self.stars)

    def rating(self, program: RegisterProgram) -> str:
        """The stars and register count of a winning ``program``, in words (``rating``)."""
        return rating(register_count(program), self.stars)


#: the game's star scale: a level's stars, and the most a level adds to its pack's total
MAX_STARS = 3


def stars(n: int, thresholds: tuple[int, int, int] | list[int]) -> int:
    """The stars a winning program of ``n`` registers earns, 1-3 (``Level:starsEarned``, capped as the game's
    pack totals count them: its 4 and 5 are the win screen's notes of ``size_note``, not more stars)."""
    a, b, _ = thresholds
    if n > a:
        return 1
    return 2 if n > b else MAX_STARS


def size_note(n: int, thresholds: tuple[int, int, int] | list[int]) -> str:
    """The win screen's note on a 3-star size: the designer's best known size, or smaller ("" otherwise)."""
    c = thresholds[2]
    if n == c:
        return "the designer's size"
    return "smaller than the designer's" if n < c else ""


def thresholds_text(thresholds: tuple[int, int, int] | list[int]) -> str:
    """A level's star thresholds in words (``a`` is the most registers for 2 stars, ``b`` for 3, ``c`` the
    designer's size): ``3 stars with at most 7 registers, 2 with at most 9 (the designer's size: 6)``."""
    a, b, c = thresholds
    return f"{MAX_STARS} stars with at most {b} registers, 2 with at most {a} (the designer's size: {c})"


def rating(n: int, thresholds: tuple[int, int, int] | list[int]) -> str:
    """``3 stars (7 registers, the designer's size)``: the one wording of a win's stars everywhere."""
    earned = stars(n, thresholds)
    note = size_note(n, thresholds)
    return f"{earned} star{'s' if earned > 1 else ''} of {MAX_STARS} ({n} registers{', ' + note if note else ''})"


def check_program_limits(
    program: RegisterProgram,
    functions: tuple[int, ...],
    commands: tuple[str, ...],
    conditions: tuple[str, ...],
    where: str,
) -> None:
    if len(program) > len(functions):
        raise InputError(f"{where}: the program has {len(program)} functions, the level allows {len(functions)}")
    for index, (registers, slots) in enumerate(zip(program, functions, strict=False), start=1):
        if len(registers) > slots:
            raise InputError(f"{where}: F{index} has {len(registers)} registers, the level allows {slots}")
        for command, cond in registers:
            if command is not None and command not in commands:
                raise InputError(f"{where}: command {show(command)} is not in the toolbox ({', '.join(commands)})")
            if command is not None and cond is not None and cond not in conditions:
                allowed = ", ".join(conditions) or "none at all"
                raise InputError(f"{where}: condition {show(cond)} is not in the toolbox ({allowed})")


def check_board(board: Any, what: str) -> Board:
    """Validate a board given as JSON data: a list of piles, each a list of crate names (bottom first)."""
    if not isinstance(board, list) or not board or not all(isinstance(p, list) for p in board):
        raise InputError(f"{what}: expected a non-empty list of piles, each a list of crate names")
    for pile in board:
        for crate in pile:
            if not isinstance(crate, str) or not crate:
                raise InputError(f"{what}: crate {show(crate)} is not a colour name")
            if crate in ("any", "none"):
                raise InputError(f"{what}: {show(crate)} is reserved for conditions and cannot name a crate")
    return [list(p) for p in board]


def board_from_json(text: str, what: str) -> Board:
    """A board given as JSON text (``--stacks``, ``--goal``), read by the one JSON reader."""
    return check_board(parse_json(text, what), what)


def _text(raw: dict[str, Any], key: str, where: str, default: Any = _REQUIRED) -> Any:
    """A string field (``None`` allowed when the default is ``None``)."""
    value = _field(raw, key, where, default)
    if not (isinstance(value, str) and value) and not (value is None and default is None):
        raise InputError(f"{where}: {key} must be a non-empty string, got {show(value)}")
    return value


def _field(raw: dict[str, Any], key: str, where: str, default: Any = _REQUIRED) -> Any:
    if key in raw:
        return raw[key]
    if default is _REQUIRED:
        raise InputError(f"{where}: missing field {show(key)}")
    return default


def _ints(raw: dict[str, Any], key: str, where: str, lo: int, hi: int, default: Any = _REQUIRED) -> tuple[int, ...]:
    value = _field(raw, key, where, default)
    if not isinstance(value, list | tuple):
        raise InputError(f"{where}: {key} must be a list of whole numbers, got {show(value)}")
    return tuple(check_int(x, f"{where}: {key}", lo, hi) for x in value)


def _names(
    raw: dict[str, Any], key: str, where: str, allowed: tuple[str, ...], default: tuple[str, ...]
) -> tuple[str, ...]:
    value = _field(raw, key, where, default)
    if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
        raise InputError(f"{where}: {key} must be a list of names, got {show(value)}")
    bad = [x for x in value if x not in allowed]
    if bad:
        raise InputError(f"{where}: unknown toolbox entries {show(bad, 80)}")
    return tuple(value)


def _level_from_json(raw: Any, index: int, source: str) -> Level:
    where = f"{source}: level #{index + 1}"
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected an object")
    number = _field(raw, "number", where, None)
    best_known = _field(raw, "best_known", where, None)
    level = Level(
        pack=_text(raw, "pack", where),
        number=None if number is None else check_int(number, f"{where}: number", 0, MAX_REGISTERS),
        name=_text(raw, "name", where),
        claw=check_int(_field(raw, "claw", where), f"{where}: claw", 1, MAX_PILES),
        stacks=tuple(tuple(p) for p in check_board(_field(raw, "stacks", where), f"{where} stacks")),
        goal=tuple(tuple(p) for p in check_board(_field(raw, "goal", where), f"{where} goal")),
        functions=_ints(raw, "functions", where, 1, 10, DEFAULT_FUNCTIONS),
        commands=_names(raw, "commands", where, COMMANDS, DEFAULT_COMMANDS),
        conditions=_names(raw, "conditions", where, ("any", "none") + COLOURS, ()),
        stars=_ints(raw, "stars", where, 0, MAX_REGISTERS),  # type: ignore[arg-type]
        hint=_text(raw, "hint", where, None),
        best_known=None if best_known is None else check_int(best_known, f"{where}: best_known", 1, MAX_REGISTERS),
        original_name=_text(raw, "original_name", where, None),
    )
    if len(level.stars) != 3:
        raise InputError(f"{where}: stars must be [a, b, c]")
    if not 1 <= level.claw <= len(level.stacks) or len(level.stacks) != len(level.goal):
        raise InputError(f"{where}: claw must be a pile and stacks/goal must have the same number of piles")
    if len(level.stacks) > MAX_PILES or not 1 <= len(level.functions) <= 5:
        raise InputError(f"{where}: at most {MAX_PILES} piles, 1-5 functions of 1-10 registers")
    return _subproblem(raw, level, where)


def _subproblem(raw: dict[str, Any], level: Level, where: str) -> Level:
    """The sub-problem fields of a levels file entry (``Level.worlds``, ``poison``, ``finish``, ``home``), checked."""
    worlds_raw, poison = _field(raw, "worlds", where, []), _text(raw, "poison", where, None)
    finish, home = _field(raw, "finish", where, False), _field(raw, "home", where, False)
    for key, value in (("finish", finish), ("home", home)):
        if not isinstance(value, bool):
            raise InputError(f"{where}: {key} must be true or false, got {show(value)}")
    if home and not finish:
        raise InputError(f"{where}: home (the claw back on its start pile when F1 returns) needs finish")
    if poison in ("any", "none"):
        raise InputError(f"{where}: {show(poison)} is reserved for conditions and cannot be the poison colour")
    if not isinstance(worlds_raw, list) or len(worlds_raw) >= MAX_WORLDS:
        raise InputError(f"{where}: worlds must be a list of at most {MAX_WORLDS - 1} boards")
    worlds = []
    for k, board in enumerate(worlds_raw, start=2):
        at = f"{where}: world {k}"
        if not isinstance(board, dict) or set(board) != {"claw", "stacks", "goal"}:
            raise InputError(f"{at}: expected an object with claw, stacks and goal")
        stacks = tuple(tuple(p) for p in check_board(board["stacks"], f"{at} stacks"))
        goal = tuple(tuple(p) for p in check_board(board["goal"], f"{at} goal"))
        claw = check_int(board["claw"], f"{at}: claw", 1, MAX_PILES)
        if len(stacks) > MAX_PILES or len(goal) != len(stacks) or claw > len(stacks):
            raise InputError(
                f"{at}: claw must be a pile and stacks/goal must have the same number of piles (at most {MAX_PILES})"
            )
        worlds.append((claw, stacks, goal))
    level = replace(level, worlds=tuple(worlds), poison=poison, finish=finish, home=home)
    if level.board_piles > MAX_WORLD_PILES:
        raise InputError(f"{where}: at most {MAX_WORLD_PILES} piles over all its boards")
    return level


def load_levels(path: str | Path | None = None) -> list[Level]:
    """All levels of a levels file (the packaged one by default); ``InputError`` if it is malformed."""
    if path is None:
        return list(_packaged_levels())
    return _parse_levels(read_json(path, "levels file"), f"levels file {name_of(path)}")


def _parse_levels(data: Any, source: str) -> list[Level]:
    if not isinstance(data, list) or not data:
        raise InputError(f"{source}: expected a non-empty JSON list of levels")
    return [_level_from_json(raw, i, source) for i, raw in enumerate(data)]


@cache
def _packaged_levels() -> tuple[Level, ...]:
    text = files("puzzlebots.games.cargobot").joinpath("data/levels.json").read_text(encoding="utf-8")
    return tuple(_parse_levels(parse_json(text, "levels.json"), "levels.json"))


def _key(name: str) -> str:
    return " ".join(name.lower().replace("-", " ").replace("_", " ").split())


def find_level(name: str, levels: list[Level] | None = None, subproblems: bool = False) -> Level:
    """A level by name (case, spaces, dashes ignored) or by ``Pack N`` (e.g. ``hard 3``); a sub-problem only for
    a reader that knows its rules (``subproblems``: the solver)."""
    levels = levels if levels is not None else load_levels()
    wanted = _key(name)
    for level in levels:
        names = {_key(level.name), _key(level.label)} | ({_key(level.original_name)} if level.original_name else set())
        if wanted in names and level.subproblem and not subproblems:
            raise InputError(
                f"level {show(level.name)} is a sub-problem (several boards, poison or finish): only "
                "`cargobot solve` reads it"
            )
        if wanted in names:
            return level
    raise InputError(f"unknown level {show(name)} (see `puzzlebots cargobot levels`)")
