"""Cargo-Bot programs as text: the Ruby emulator's script syntax and the game's register lists.

Two readings of the same syntax (``R L claw callN`` with an optional ``_any``/``_none``/``_colour``
suffix, ``prog_N`` switching subroutine):

* ``parse_script`` is the Ruby parser, quirks included (reference §2.2): it keeps every token verbatim
  and never fails; ``decode_token`` is the Ruby dispatch (§2.4) that gives a token its meaning.
* ``parse_registers`` is strict and reads the original game's program: ``prog_N`` selects function FN
  and each token is one register. It also reads the JSON list form (a list of functions, each a list
  of ``[command, condition]`` pairs) and the game's save format ``(pickup,)(right,none)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import parse_json, show

from .rules import COLOURS, COMMANDS

Script = list[list[str]]

_WORD = re.compile(r"[A-Za-z0-9_]+")
_PROG = re.compile(r"prog_(\d)")
_RULES = (
    ("L", re.compile(r"L(_)?(.+)?")),
    ("R", re.compile(r"R(_)?(.+)?")),
    ("claw", re.compile(r"claw(_)?(.+)?")),
)
_CALL = re.compile(r"call(\d)(_)?(.+)?")


def parse_script(text: str) -> Script:
    """The Ruby emulator's ``load_program``: tokens go verbatim into subroutines, ``prog_N`` switches."""
    program: Script = [[]]
    current = 0
    for token in _WORD.findall(text):
        directive = _PROG.search(token)
        if directive is None:
            program[current].append(token)
            continue
        digit = int(directive.group(1))
        while len(program) < digit:
            program.append([])
        # prog_0 is Ruby's index -1: the last subroutine that exists
        current = digit - 1 if digit > 0 else len(program) - 1
    return program


def format_script(program: Script) -> str:
    """A script that ``parse_script`` reads back as ``program`` (at most 9 subroutines can be written)."""
    if len(program) > 9:
        raise InputError("script: the prog_N directive can only address subroutines 1-9")
    parts: list[str] = []
    for index, tokens in enumerate(program):
        if index > 0:
            parts.append(f"prog_{index + 1}")
        parts.extend(tokens)
    return " ".join(parts)


@dataclass(frozen=True)
class Token:
    """A decoded Ruby token: ``op`` is L, R, claw, call or nop; ``cond`` '' means unconditional."""

    op: str
    cond: str = ""
    target: int = 0  # call digit as written (0 means Ruby's index -1, the last subroutine)


@cache
def decode_token(token: str) -> Token:
    """The Ruby dispatch: first rule that matches anywhere in the token wins (case-sensitive)."""
    for op, rule in _RULES:
        match = rule.search(token)
        if match:
            return Token(op, match.group(2) or "")
    match = _CALL.search(token)
    if match:
        return Token("call", match.group(3) or "", int(match.group(1)))
    return Token("nop")


# ---------------------------------------------------------------------------------------------------
# Register programs (game semantics)

_CONDITION_ALIASES = {"multi": "any", "": None}

Register = tuple[str | None, str | None]  # (command, condition); (None, None) is an empty register
RegisterProgram = tuple[tuple[Register, ...], ...]

_SCRIPT_COMMAND = {"claw": "pickup", "R": "right", "L": "left"}
_COMMAND_SCRIPT = {"pickup": "claw", "right": "R", "left": "L"}
_REGISTER_TOKEN = re.compile(r"(claw|R|L|call([1-9]))(?:_([A-Za-z]+))?")


def _condition(name: str | None, where: str) -> str | None:
    if name is None:
        return None
    name = _CONDITION_ALIASES.get(name, name)
    if name is not None and name not in ("any", "none") + COLOURS:
        raise InputError(f"{where}: unknown condition {show(name)} (any, none, {', '.join(COLOURS)})")
    return name


def _command(name: str | None, where: str) -> str | None:
    if name in (None, ""):
        return None
    if name not in COMMANDS:
        raise InputError(f"{where}: unknown command {show(name)} ({', '.join(COMMANDS)})")
    return name


def parse_registers(text: str) -> RegisterProgram:
    """Read a game program from script syntax, the JSON list form or the game's save format."""
    stripped = text.strip()
    if stripped.startswith("["):
        return registers_from_lists(parse_json(stripped, "program"))
    if stripped.startswith("("):
        return _parse_save_format(stripped)
    functions: list[list[Register]] = [[]]
    current = 0
    for token in stripped.split():
        read = _script_token(token)
        if isinstance(read, int):
            current = read
            while len(functions) <= current:
                functions.append([])
            continue
        functions[current].append(read)
    return tuple(tuple(f) for f in functions)


_DIRECTIVE = re.compile(r"prog_([1-9])")


@cache
def _script_token(token: str) -> int | Register:
    """One token of the script syntax: the function a ``prog_N`` directive selects (0-based) or a register.
    Read once per distinct token (a program search parses the same few tokens over and over); a bad token
    raises every time (exceptions are not cached)."""
    directive = _DIRECTIVE.fullmatch(token)
    if directive:
        return int(directive.group(1)) - 1
    match = _REGISTER_TOKEN.fullmatch(token)
    if match is None:
        raise InputError(
            f"program: unknown token {show(token)} (use R, L, claw, callN with an optional _condition, prog_N)"
        )
    head, digit, cond = match.groups()
    command = f"f{digit}" if digit else _SCRIPT_COMMAND[head]
    return command, _condition(cond, f"program token {show(token)}")


def registers_from_lists(data: object) -> RegisterProgram:
    """The list form: ``[[["pickup", null], ["right", "none"]], [...]]`` (one list per function)."""
    if not isinstance(data, list) or not all(isinstance(f, list) for f in data):
        raise InputError("program: the list form is a list of functions, each a list of [command, condition]")
    functions: list[tuple[Register, ...]] = []
    for fi, function in enumerate(data, start=1):
        registers: list[Register] = []
        for ri, pair in enumerate(function, start=1):
            where = f"program F{fi} register {ri}"
            if (
                not isinstance(pair, list | tuple)
                or len(pair) > 2
                or not all(p is None or isinstance(p, str) for p in pair)
            ):
                raise InputError(f"{where}: expected [command, condition], got {show(pair)}")
            command = _command(pair[0] if pair else None, where)
            cond = _condition(pair[1] if len(pair) > 1 else None, where)
            registers.append((command, cond) if command else (None, None))
        functions.append(tuple(registers))
    return tuple(functions)


def _parse_save_format(text: str) -> RegisterProgram:
    functions = []
    for line in text.splitlines():
        if not line.strip():
            continue
        pairs = re.findall(r"\(([^(),]*),([^(),]*)\)", line)
        if not pairs or "".join(f"({a},{b})" for a, b in pairs) != line.strip().replace(" ", ""):
            raise InputError(f"program: malformed save-format line {show(line.strip())}")
        functions.append([[a.strip() or None, b.strip() or None] for a, b in pairs])
    return registers_from_lists(functions)


def registers_to_lists(program: RegisterProgram) -> list[list[list[str | None]]]:
    return [[[cmd, cond] for cmd, cond in function] for function in program]


def format_registers(program: RegisterProgram) -> str:
    """Script syntax for a register program (empty registers dropped), e.g. ``claw R claw``."""
    parts: list[str] = []
    for index, function in enumerate(program):
        tokens = []
        for command, cond in function:
            if command is None:
                continue
            token = _COMMAND_SCRIPT.get(command) or f"call{command[1:]}"
            tokens.append(f"{token}_{cond}" if cond else token)
        if index > 0 and tokens:
            parts.append(f"prog_{index + 1}")
        parts.extend(tokens)
    return " ".join(parts)


def registers_to_script(program: RegisterProgram) -> Script:
    """The reference's conversion to a Ruby program (§4): one subroutine per function."""
    return parse_script(format_registers(program))


def register_count(program: RegisterProgram) -> int:
    """The game's score n: registers that hold a command."""
    return sum(1 for function in program for command, _ in function if command is not None)
