"""Hints a user gives the exhaustive ``solve`` about a level's solutions, after the constraints of Elizarov's
"Simplified" runs: the shape (at most so many registers in each function, no function past them; his
``:size=`` starts his search at a shape instead), a rule per pile (his ``:stack=``), the least number of
registers of each op (his ``:ops=``) and functions given whole (his ``:use=``, which hands the search a main
pass or a helper).

A hint narrows the search to programs a person expects, so sizes far beyond the plain search come within
reach; what it finds is smallest only among the programs the hints allow (method ``hinted``, never "proven
minimal"). The text forms are parsed and checked against the level here, before any search starts.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import show

from ..kernels.solve import KEEP_GOAL, KEEP_START, NO_PUT, NO_TAKE
from ..language import RegisterProgram, format_registers, parse_registers
from ..levels import Level, check_program_limits
from .stations import station_pass

#: a pile rule's letters: I, G (the pile stays a bottom part of its start / goal pile; both: of either),
#: - (take only: nothing is put on it), + (put only: nothing is taken from it); "." for no rule
RULE_BITS = {"I": KEEP_START, "G": KEEP_GOAL, "-": NO_PUT, "+": NO_TAKE}
OPS = ("right", "left", "pickup")
_RULE = re.compile(r"\.|I?G?[-+]?")


class Hints(NamedTuple):
    """Checked hints: ``shape`` (registers per function, F1 first; None: the level's), ``pile_rules`` (bits per
    pile; None: none), ``min_ops`` (registers of right, left, pickup every solution is taken to hold: like the
    ops a board needs, they feed the lower bound that cuts partial programs, and a run that wins before its
    program holds them all still counts, as in Elizarov's solver), ``fixed`` (functions given whole, one entry
    per function F1 first, ``()`` for one the search builds; None: none)."""

    shape: tuple[int, ...] | None = None
    pile_rules: tuple[int, ...] | None = None
    min_ops: tuple[int, int, int] = (0, 0, 0)
    #: how a program found under them is named: "hinted" (a user's), "ruled" or "stations" (the board's)
    method: str = "hinted"
    fixed: RegisterProgram | None = None

    def given(self) -> bool:
        return self.shape is not None or self.pile_rules is not None or any(self.min_ops) or self.fixed is not None

    def describe(self) -> dict[str, object]:
        """The hints as the options that give them (for the results file)."""
        out: dict[str, object] = {}
        if self.shape is not None:
            out["shape"] = ",".join(map(str, self.shape))
        if self.pile_rules is not None:
            out["pile_rules"] = " ".join(_rule_text(bits) for bits in self.pile_rules)
        if any(self.min_ops):
            out["min_ops"] = ",".join(f"{op}={n}" for op, n in zip(OPS, self.min_ops, strict=True) if n)
        if self.fixed is not None:
            out["fix"] = format_registers(self.fixed)
        return out


NO_HINTS = Hints()
#: piles the board rules cover: a pile empty at the start and not in the goal is put-only and stays a bottom part
#: of its goal pile (G+); one not empty at the start and empty in the goal is take-only and stays a bottom part
#: of its start pile (I-)
FILL, EMPTY = RULE_BITS["G"] | RULE_BITS["+"], RULE_BITS["I"] | RULE_BITS["-"]


def board_hints(level: Level) -> Hints | None:
    """The hints ``solve --all`` gives itself on a level its exhaustive search leaves open, read off the board
    with no person's insight (docs/rules/cargobot.md, "Board rules"): a pile built from nothing is only put on,
    a pile emptied is only taken from, and the program has at most two functions (F1 and F2 of the level's
    slots); on a station board (``bots.stations``) F1 is the station pass instead, and every function is the
    search's (method ``stations``). None where no pile gets a rule (the hints would only be the shape), the level
    has one function, or it is a sub-problem (whose boards are a person's design already)."""
    rules = tuple(
        FILL if not s and g else EMPTY if s and not g else 0 for s, g in zip(level.stacks, level.goal, strict=True)
    )
    if not any(rules) or level.callable_functions < 2 or level.subproblem:
        return None
    main = station_pass(level)
    if main is not None:
        return Hints(pile_rules=rules, fixed=main, method="stations")
    return Hints(shape=tuple(level.functions[:2]), pile_rules=rules, method="ruled")


def parse_hints(
    level: Level, shape: str | None, pile_rules: str | None, min_ops: str | None = None, fix: str | None = None
) -> Hints:
    """The ``--shape``, ``--pile-rules``, ``--min-ops`` and ``--fix`` texts, checked against ``level`` (InputError)."""
    slots = _shape(level, shape) if shape is not None else None
    return Hints(
        slots,
        _pile_rules(level, pile_rules) if pile_rules is not None else None,
        _min_ops(level, min_ops) if min_ops is not None else (0, 0, 0),
        fixed=_fixed(level, fix, slots or level.functions[: level.callable_functions]) if fix is not None else None,
    )


def _shape(level: Level, text: str) -> tuple[int, ...]:
    functions = level.callable_functions
    parts = text.split(",")
    if not all(re.fullmatch(r"\s*\d{1,3}\s*", p) for p in parts):
        raise InputError(f"--shape: registers per function as numbers separated by commas (e.g. 8,4), got {show(text)}")
    shape = tuple(int(p) for p in parts)
    if len(shape) > functions:
        raise InputError(f"--shape: {level.name} has {functions} functions, got {len(shape)}")
    for k, (n, slots) in enumerate(zip(shape, level.functions, strict=False)):
        if not 1 <= n <= slots:
            raise InputError(f"--shape: F{k + 1} of {level.name} holds 1 to {slots} registers, got {n}")
    return shape


def _pile_rules(level: Level, text: str) -> tuple[int, ...]:
    tokens = text.split()
    if len(tokens) != level.board_piles:  # a sub-problem's boards in turn
        raise InputError(f"--pile-rules: one rule per pile ({level.board_piles} for {level.name}), got {len(tokens)}")
    for token in tokens:
        if not token or not _RULE.fullmatch(token):
            raise InputError(
                f"--pile-rules: a rule is '.', or I, G, IG followed by an optional - or +, or - or +; got {show(token)}"
            )
    return tuple(sum(RULE_BITS.get(ch, 0) for ch in token) for token in tokens)


def _min_ops(level: Level, text: str) -> tuple[int, int, int]:
    counts = dict.fromkeys(OPS, 0)
    for part in text.split(","):
        match = re.fullmatch(r"\s*(right|left|pickup)\s*=\s*(\d{1,3})\s*", part)
        if match is None:
            raise InputError(f"--min-ops: op=count separated by commas (ops right, left, pickup), got {show(part)}")
        op, n = match.group(1), int(match.group(2))
        if n and op not in level.commands:
            raise InputError(f"--min-ops: {level.name}'s toolbox has no {op}")
        counts[op] = n
    if sum(counts.values()) > sum(level.functions):
        raise InputError(
            f"--min-ops: {sum(counts.values())} registers, more than the {sum(level.functions)} of {level.name}"
        )
    return counts["right"], counts["left"], counts["pickup"]


def _fixed(level: Level, text: str, slots: tuple[int, ...]) -> RegisterProgram:
    """``--fix``: a program in script syntax whose non-empty functions are given whole (``call2 R call1`` fixes F1,
    ``prog_2 claw L_none claw R`` F2), checked against the level's toolbox and the slots (the shape's, if given)."""
    if len(text) > 1000:
        raise InputError(f"--fix: at most 1000 characters, got {len(text)}")
    program = parse_registers(text)
    if len(program) > len(slots):
        raise InputError(f"--fix: F{len(program)} is past the {len(slots)} functions searched")
    check_program_limits(program, slots, level.commands, level.conditions, "--fix")
    for k, registers in enumerate(program):
        if any(command is None for command, _ in registers):
            raise InputError(f"--fix: F{k + 1} has an empty register")
        calls = [int(command[1:]) for command, _ in registers if command and command.startswith("f")]
        if any(n > len(slots) for n in calls):
            raise InputError(f"--fix: F{k + 1} calls F{max(calls)}, past the {len(slots)} functions searched")
        if k > 0 and len(registers) == 1:
            raise InputError(f"--fix: F{k + 1} has one register; a function other than F1 holds at least two")
    if not any(program):
        raise InputError("--fix: no function given (e.g. 'call2 R call1' fixes F1, 'prog_2 claw R' F2)")
    return tuple(program) + ((),) * (len(slots) - len(program))


def _rule_text(bits: int) -> str:
    return "".join(ch for ch, bit in RULE_BITS.items() if bits & bit) or "."
