"""Run a Cargo-Bot program under ``Rules``: in either semantics, ``vaguery`` (the Ruby emulator) or ``game`` (the
original iPad game), two implementations of one interface (``Semantics``). Plain Python objects in and out; the
loops run in ``kernels.interpreter``.

``engine="python"`` runs the slow literal interpreters of ``oracle.py`` instead (for differential tests).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple, Protocol

import numpy as np

from puzzlebots.core.errors import InputError

from . import oracle
from .kernels import interpreter
from .language import RegisterProgram, Script, decode_token, parse_registers, parse_script
from .levels import Board, Level, check_board
from .report import RunReport
from .rules import DEFAULT_FUNCTIONS, OUTCOMES

SEMANTICS = ("game", "vaguery")
ENGINES = ("kernel", "python")
VAGUERY_STEP_LIMIT = 200
GAME_TICK_LIMIT = 10_000_000
HEIGHT_LIMIT = 6


#: crate ids live in int16 board arrays
MAX_COLOURS = int(np.iinfo(np.int16).max)


@dataclass
class Colours:
    """Colour names <-> crate ids (1..K); condition names get ids too, so unknown ones never match."""

    ids: dict[str, int] = field(default_factory=dict)

    def id(self, name: str) -> int:
        if name not in self.ids and len(self.ids) >= MAX_COLOURS:
            raise InputError(f"a board and program may name at most {MAX_COLOURS} distinct colours")
        return self.ids.setdefault(name, len(self.ids) + 1)

    def cond(self, text: str | None) -> int:
        if not text:
            return 0
        return {"any": -1, "none": -2}.get(text) or self.id(text)

    def name(self, crate: int) -> str | None:
        if crate == 0:
            return None
        return next(name for name, i in self.ids.items() if i == crate)


class EncodedBoard(NamedTuple):
    """A board and its goal as the kernels read them (see ``kernels.interpreter``)."""

    piles: np.ndarray
    heights: np.ndarray
    goal: np.ndarray
    goal_heights: np.ndarray
    has_goal: bool

    def decode(self, colours: Colours) -> list[list[str]]:
        return [
            [colours.name(int(c)) or "" for c in self.piles[p, : self.heights[p]]] for p in range(len(self.heights))
        ]


def encode_board(stacks: Board, goal: Board | None, colours: Colours) -> EncodedBoard:
    crates = sum(len(p) for p in stacks)
    capacity = max([crates] + [len(p) for p in goal or []]) + 1
    piles = np.zeros((len(stacks), capacity), np.int16)
    heights = np.zeros(len(stacks), np.int32)
    for p, pile in enumerate(stacks):
        heights[p] = len(pile)
        piles[p, : len(pile)] = [colours.id(c) for c in pile]
    has_goal = goal is not None and len(goal) == len(stacks)
    goal_piles = np.zeros_like(piles)
    goal_heights = np.zeros_like(heights)
    if has_goal:
        assert goal is not None
        for p, pile in enumerate(goal):
            goal_heights[p] = len(pile)
            goal_piles[p, : len(pile)] = [colours.id(c) for c in pile]
    return EncodedBoard(piles, heights, goal_piles, goal_heights, has_goal)


def _check_setup(stacks: Board, goal: Board | None, claw: int) -> None:
    check_board(stacks, "stacks")
    if goal is not None:
        check_board(goal, "goal")
        if len(goal) != len(stacks):
            raise InputError(f"the goal has {len(goal)} piles and the board {len(stacks)}: they must match")
    if not 1 <= claw <= len(stacks):
        raise InputError(f"claw position {claw} is not a pile (1..{len(stacks)})")


def _report(semantics: str, out: np.ndarray, board: EncodedBoard, colours: Colours) -> RunReport:
    k = interpreter
    return RunReport(
        semantics=semantics,
        outcome=OUTCOMES[int(out[k.OUT_OUTCOME])],
        steps=int(out[k.OUT_STEPS]),
        moves=int(out[k.OUT_MOVES]),
        crashes=int(out[k.OUT_CRASHES]),
        topples=int(out[k.OUT_TOPPLES]),
        stacks=board.decode(colours),
        claw=int(out[k.OUT_CLAW]) + 1,
        holding=colours.name(int(out[k.OUT_HELD])),
    )


def decode_report(
    semantics: str, out: list[int], piles: list[list[int]], heights: list[int], names: list[str | None]
) -> RunReport:
    """``_report`` from plain lists, with a list lookup per crate (``names[id]``, ``names[0]`` None): the fast
    decoding of the cached one-call path and of ``Batch.reports``."""
    stacks = [[names[c] for c in pile[:h]] for pile, h in zip(piles, heights, strict=False)]
    outcome, steps, moves, crashes, topples, claw, held = out[: interpreter.OUT_FETCHED]
    return RunReport(
        semantics,
        OUTCOMES[outcome],
        steps,
        moves,
        crashes,
        topples,
        stacks,  # type: ignore[arg-type]
        claw + 1,
        names[held],
    )


class ScriptCode(NamedTuple):
    """A Ruby script for ``kernels.interpreter.run_vaguery``: tokens (op, call target, condition) and the
    subroutines' offsets and lengths into them."""

    op: np.ndarray
    arg: np.ndarray
    cond: np.ndarray
    start: np.ndarray
    length: np.ndarray


class VagueryRules(NamedTuple):
    """The Ruby emulator's switches and limits."""

    fragile: bool
    unstable: bool
    height_limit: int
    step_limit: int


def encode_script(program: Script, colours: Colours) -> ScriptCode:
    """Flatten a Ruby program into token arrays (op, arg, cond) plus subroutine offsets and lengths."""
    codes = {"R": 1, "L": 2, "claw": 3, "call": 4, "nop": 0}
    op: list[int] = []
    arg: list[int] = []
    cond: list[int] = []
    start: list[int] = []
    length: list[int] = []
    for tokens in program:
        start.append(len(op))
        length.append(len(tokens))
        for text in tokens:
            token = decode_token(text)
            op.append(codes[token.op])
            cond.append(colours.cond(token.cond))
            target = token.target - 1 if token.target > 0 else len(program) - 1
            arg.append(target if token.op == "call" and token.target <= len(program) else -1)
    return ScriptCode(
        np.array(op, np.int8),
        np.array(arg, np.int32),
        np.array(cond, np.int32),
        np.array(start, np.int32),
        np.array(length, np.int32),
    )


class PreparedBoard:
    """A board encoded once, for running many scripts on it in vaguery mode (the hill climber)."""

    def __init__(self, stacks: Board, goal: Board | None, claw: int) -> None:
        _check_setup(stacks, goal, claw)
        self.colours = Colours()
        self.board = encode_board(stacks, goal, self.colours)
        self.claw = claw

    def run_vaguery(self, script: Script, rules: VagueryRules) -> RunReport:
        colours = Colours(dict(self.colours.ids))
        board = self.board._replace(piles=self.board.piles.copy(), heights=self.board.heights.copy())
        code = encode_script(script or [[]], colours)
        out = np.zeros(interpreter.OUT_SIZE, np.int64)
        interpreter.run_vaguery(code, board, self.claw - 1, rules, out)
        return _report("vaguery", out, board, colours)


def run_vaguery(
    program: Script | str,
    stacks: Board,
    goal: Board | None = None,
    claw: int = 1,
    *,
    fragile: bool = False,
    unstable: bool = False,
    height_limit: int = HEIGHT_LIMIT,
    step_limit: int = VAGUERY_STEP_LIMIT,
    engine: str = "kernel",
) -> RunReport:
    """A fresh Ruby ``CargoBot`` activated once. ``goal`` None is Ruby's never-matching default. A program
    text on a board of plain lists takes the cached path (``CachedBoard``)."""
    rules = VagueryRules(fragile, unstable, height_limit, step_limit)
    key = _board_key(stacks, goal, claw) if engine == "kernel" and type(program) is str else None
    if key is not None:
        assert isinstance(program, str)
        cached = _cached_board(*key)
        return cached.run_vaguery(_script_code(program, cached.key), rules)
    script = parse_script(program) if isinstance(program, str) else [list(s) for s in program]
    if not script:
        script = [[]]
    if engine == "python":
        _check_setup(stacks, goal, claw)
        return oracle.run_vaguery(
            script,
            [list(p) for p in stacks],
            None if goal is None else [list(p) for p in goal],
            claw,
            fragile,
            unstable,
            height_limit,
            step_limit,
        )
    return PreparedBoard(stacks, goal, claw).run_vaguery(script, rules)


class RegisterCode(NamedTuple):
    """A game program for ``kernels.interpreter.run_game``: op and condition per (function, register), and
    each function's length."""

    op: np.ndarray
    cond: np.ndarray
    length: np.ndarray


def encode_registers(program: RegisterProgram, functions: Sequence[int], colours: Colours) -> RegisterCode:
    slots = max(functions)
    fop = np.zeros((len(functions), slots), np.int8)
    fcond = np.zeros((len(functions), slots), np.int32)
    codes = {"right": 1, "left": 2, "pickup": 3}
    for f, registers in enumerate(program):
        for i, (command, cond) in enumerate(registers):
            if command is None:
                continue
            fop[f, i] = codes.get(command) or 3 + int(command[1:])
            fcond[f, i] = colours.cond(cond)
    return RegisterCode(fop, fcond, np.array(functions, np.int32))


def check_register_shape(program: RegisterProgram, functions: Sequence[int]) -> None:
    if len(program) > len(functions):
        raise InputError(f"program: {len(program)} functions, only {len(functions)} available")
    for index, (registers, slots) in enumerate(zip(program, functions, strict=False), start=1):
        if len(registers) > slots:
            raise InputError(f"program: F{index} has {len(registers)} registers, only {slots} slots")
        for command, _ in registers:
            if command and command.startswith("f") and int(command[1:]) > len(functions):
                raise InputError(f"program: {command} calls a function that does not exist")


#: how many boards and programs the one-call caches keep (a search runs many programs on few boards)
CACHE_SIZE = 4096


def _board_key(stacks: object, goal: object, claw: object) -> tuple | None:
    """A hashable key for a board given as plain lists (the caches' input), or None for any other shape: those
    take the uncached path and its checks (a string or tuple pile must not hash like a valid list pile)."""
    if type(stacks) is not list or type(claw) is not int or not all(type(p) is list for p in stacks):
        return None
    if goal is None:
        return tuple(map(tuple, stacks)), None, claw
    if type(goal) is not list or not all(type(p) is list for p in goal):
        return None
    return tuple(map(tuple, stacks)), tuple(map(tuple, goal)), claw


class CachedBoard:
    """A checked, encoded board kept for one call after another; each run copies its piles first."""

    def __init__(self, stacks: tuple, goal: tuple | None, claw: int) -> None:
        plain_goal = None if goal is None else [list(p) for p in goal]
        _check_setup([list(p) for p in stacks], plain_goal, claw)
        self.colours = Colours()
        self.board = encode_board([list(p) for p in stacks], plain_goal, self.colours)
        self.claw = claw - 1
        #: crate id -> colour name (0: no crate), and the colour names in id order (the programs' cache key)
        self.names: list[str | None] = [None, *self.colours.ids]
        self.key = tuple(self.colours.ids)

    def report(self, semantics: str, out: np.ndarray, piles: np.ndarray, heights: np.ndarray) -> RunReport:
        return decode_report(semantics, out.tolist(), piles.tolist(), heights.tolist(), self.names)

    def run_game(self, code: RegisterCode, tick_limit: int) -> RunReport:
        b = self.board
        piles, heights, out = b.piles.copy(), b.heights.copy(), np.zeros(interpreter.OUT_SIZE, np.int64)
        flat = code.op.ravel(), code.cond.ravel(), code.length, code.op.shape[1]
        interpreter.game_loop(
            *flat,
            piles,
            heights,
            b.goal,
            b.goal_heights,
            b.has_goal,
            self.claw,
            tick_limit,
            out,
            np.empty((64, 3), np.int64),
        )
        return self.report("game", out, piles, heights)

    def run_vaguery(self, code: ScriptCode, rules: VagueryRules) -> RunReport:
        board = self.board._replace(piles=self.board.piles.copy(), heights=self.board.heights.copy())
        out = np.zeros(interpreter.OUT_SIZE, np.int64)
        interpreter.run_vaguery(code, board, self.claw, rules, out)
        return self.report("vaguery", out, board.piles, board.heights)


@lru_cache(maxsize=CACHE_SIZE)
def _script_code(program: str, colours: tuple[str, ...]) -> ScriptCode:
    """A Ruby script encoded for a board's colours."""
    return encode_script(parse_script(program) or [[]], _colours(colours))


@lru_cache(maxsize=CACHE_SIZE)
def _cached_board(stacks: tuple, goal: tuple | None, claw: int) -> CachedBoard:
    return CachedBoard(stacks, goal, claw)


@lru_cache(maxsize=CACHE_SIZE)
def _checked_registers(program: str, functions: tuple[int, ...]) -> RegisterProgram:
    registers = parse_registers(program)
    check_register_shape(registers, functions)
    return registers


@lru_cache(maxsize=CACHE_SIZE)
def _game_code(program: str, functions: tuple[int, ...], colours: tuple[str, ...]) -> RegisterCode:
    """A checked program encoded for a board's colours (or a batch's)."""
    return encode_registers(_checked_registers(program, functions), functions, _colours(colours))


def _colours(names: tuple[str, ...]) -> Colours:
    """A board's colour ids again, from its names in id order (a program's unknown colours get new ids)."""
    return Colours({name: i for i, name in enumerate(names, 1)})


def _functions_key(functions: Sequence[int]) -> tuple[int, ...] | None:
    key = tuple(functions) if isinstance(functions, tuple | list) else ()
    return key if key and all(type(f) is int for f in key) else None


def run_game(
    program: RegisterProgram | str,
    stacks: Board,
    goal: Board,
    claw: int = 1,
    *,
    functions: Sequence[int] = DEFAULT_FUNCTIONS,
    tick_limit: int = GAME_TICK_LIMIT,
    engine: str = "kernel",
) -> RunReport:
    """The original game on a board; registers beyond a function's length are empty. A program text on a board
    of plain lists takes the cached path: board and program checked and encoded once (``CachedBoard``)."""
    key = _board_key(stacks, goal, claw) if engine == "kernel" and type(program) is str else None
    functions_key = _functions_key(functions)
    if key is not None and functions_key is not None:  # the cached path: same checks, in the same order
        assert isinstance(program, str)
        _checked_registers(program, functions_key)
        cached = _cached_board(*key)
        return cached.run_game(_game_code(program, functions_key, cached.key), tick_limit)
    registers = parse_registers(program) if isinstance(program, str) else program
    check_register_shape(registers, functions)
    _check_setup(stacks, goal, claw)
    if engine == "python":
        return oracle.run_game(
            registers, tuple(functions), [list(p) for p in stacks], [list(p) for p in goal], claw, tick_limit
        )
    colours = Colours()
    board = encode_board(stacks, goal, colours)
    code = encode_registers(registers, functions, colours)
    out = np.zeros(interpreter.OUT_SIZE, np.int64)
    interpreter.run_game(code, board, claw - 1, tick_limit, out)
    return _report("game", out, board, colours)


@dataclass(frozen=True)
class Rules:
    """The rules a program runs under: the semantics by name (``SEMANTICS``), and the switches and limits of the
    Ruby emulator's (``vaguery``): a wall crash ends the run (``fragile``), a topple ends it (``unstable``), a
    pile taller than ``height_limit`` topples. ``step_limit``: most steps (vaguery) or ticks (game), None for
    the semantics' default (``Semantics.step_limit``)."""

    semantics: str = "game"
    fragile: bool = False
    unstable: bool = False
    height_limit: int = HEIGHT_LIMIT
    step_limit: int | None = None

    def __post_init__(self) -> None:
        if self.semantics not in SEMANTICS:
            raise InputError(f"unknown semantics {self.semantics!r} (game, vaguery)")

    @property
    def model(self) -> Semantics:
        """The semantics that runs programs under these rules."""
        return SEMANTICS_BY_NAME[self.semantics]

    @property
    def steps(self) -> int:
        """The step (or tick) limit, the semantics' default where none is given."""
        return self.step_limit or self.model.step_limit

    def vaguery(self) -> VagueryRules:
        """The emulator's switches as its kernel takes them."""
        return VagueryRules(self.fragile, self.unstable, self.height_limit, self.steps)


#: the original game's rules (the switches are the emulator's: the game has neither)
GAME_RULES = Rules()


class Start(NamedTuple):
    """Where a run starts: the piles and the goal piles (bottom first; None: no goal), the claw's 1-based pile
    and the register slots of each function."""

    stacks: Board
    goal: Board | None
    claw: int = 1
    functions: Sequence[int] = DEFAULT_FUNCTIONS


Step = Callable[[list[list[str]], int, str | None], None]


class Semantics(Protocol):
    """How programs run: the original game (``GameSemantics``) or the Ruby emulator (``VagueryRules``'s,
    ``VaguerySemantics``)."""

    #: its name in ``SEMANTICS``, what the run counts (``ticks`` or ``steps``) and the default limit of them
    name: str
    count: str
    step_limit: int

    def program(self, level: Level, program: str | RegisterProgram | Script) -> str | RegisterProgram | Script:
        """``program`` as this semantics runs it on ``level`` (checked against the level where it has limits)."""
        ...

    def run(self, rules: Rules, program: str | RegisterProgram | Script, start: Start, engine: str) -> RunReport:
        """The run of ``program`` on a board (``engine``: ``kernel``, or ``python`` for the oracle)."""
        ...

    def conditions(self, level: Level) -> list[str]:
        """The conditions a program may put on a register on ``level``."""
        ...

    def stars(self, level: Level, program: str, report: RunReport) -> int | None:
        """The stars ``program`` earns on ``level`` for its run ``report`` (None: this semantics gives none)."""
        ...

    def trace(self, rules: Rules, program: str, start: Start, most: int, on_step: Step) -> None:
        """The oracle's run of ``program`` for at most ``most`` steps, ``on_step`` seeing the board before each."""
        ...


class GameSemantics:
    """The original iPad game: register programs, ticks, a level's toolbox and register limits."""

    name, count, step_limit = "game", "ticks", GAME_TICK_LIMIT

    def program(self, level: Level, program: str | RegisterProgram | Script) -> RegisterProgram:
        registers = parse_registers(program) if isinstance(program, str) else program
        level.check_program(registers)  # type: ignore[arg-type]
        return registers  # type: ignore[return-value]

    def run(self, rules: Rules, program: str | RegisterProgram | Script, start: Start, engine: str) -> RunReport:
        if start.goal is None:
            raise InputError("game semantics needs a goal board")
        return run_game(
            program,  # type: ignore[arg-type]
            start.stacks,
            start.goal,
            start.claw,
            functions=start.functions,
            tick_limit=rules.steps,
            engine=engine,
        )

    def stars(self, level: Level, program: str, report: RunReport) -> int | None:
        return level.stars_for(parse_registers(program)) if report.solved else None

    def conditions(self, level: Level) -> list[str]:
        return list(level.conditions)  # the level's toolbox

    def trace(self, rules: Rules, program: str, start: Start, most: int, on_step: Step) -> None:
        oracle.run_game(
            parse_registers(program),
            tuple(start.functions),
            [list(p) for p in start.stacks],
            [list(p) for p in start.goal or []],
            start.claw,
            min(rules.step_limit or most, most),
            on_step=on_step,
        )


class VaguerySemantics:
    """Bill Tozier's Ruby emulator (the article's): scripts, steps, and the switches of ``Rules``."""

    name, count, step_limit = "vaguery", "steps", VAGUERY_STEP_LIMIT

    def program(self, level: Level, program: str | RegisterProgram | Script) -> str | RegisterProgram | Script:
        return program

    def stars(self, level: Level, program: str, report: RunReport) -> int | None:
        return None

    def conditions(self, level: Level) -> list[str]:
        return sorted({c for pile in level.stacks for c in pile}) + ["any", "none"]  # the board's colours

    def run(self, rules: Rules, program: str | RegisterProgram | Script, start: Start, engine: str) -> RunReport:
        return run_vaguery(
            program,  # type: ignore[arg-type]
            start.stacks,
            start.goal,
            start.claw,
            fragile=rules.fragile,
            unstable=rules.unstable,
            height_limit=rules.height_limit,
            step_limit=rules.steps,
            engine=engine,
        )

    def trace(self, rules: Rules, program: str, start: Start, most: int, on_step: Step) -> None:
        oracle.run_vaguery(
            parse_script(program),
            [list(p) for p in start.stacks],
            None if start.goal is None else [list(p) for p in start.goal],
            start.claw,
            rules.fragile,
            rules.unstable,
            rules.height_limit,
            min(rules.steps, most),
            on_step=on_step,
        )


SEMANTICS_BY_NAME: dict[str, Semantics] = {"game": GameSemantics(), "vaguery": VaguerySemantics()}


def run(
    rules: Rules,
    program: str | RegisterProgram | Script,
    stacks: Board,
    goal: Board | None,
    claw: int = 1,
    *,
    functions: Sequence[int] = DEFAULT_FUNCTIONS,
    engine: str = "kernel",
) -> RunReport:
    """Run on a board under ``rules``."""
    return rules.model.run(rules, program, Start(stacks, goal, claw, functions), engine)


def run_level(
    level: Level, program: str | RegisterProgram | Script, rules: Rules = GAME_RULES, *, engine: str = "kernel"
) -> RunReport:
    """Run on a level under ``rules``: the game checks the toolbox and register limits, the emulator reads a
    script."""
    return run(
        rules,
        rules.model.program(level, program),
        level.board(),
        level.goal_board(),
        level.claw,
        functions=level.functions,
        engine=engine,
    )
