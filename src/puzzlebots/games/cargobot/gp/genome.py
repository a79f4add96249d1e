"""Programs as integer genomes: one gene per register slot a level's program may fill, so every genome is a legal
program of that level (its toolbox, its slot counts) and every mutation or crossover that keeps genes in range
keeps it legal.

Gene 0 is an empty register; gene ``k > 0`` is ``alphabet[k - 1]``, a (command, condition) pair of the level's
toolbox. The slots run F1's first to the last function's last; only F1 and the functions the toolbox can call have
slots (a function nothing calls never runs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import show

from ..language import Register, RegisterProgram, format_registers, parse_registers, registers_from_lists
from ..levels import Level

#: the register forms a program may be given in: script text, the JSON list form, register tuples, or a genome
ProgramInput = str | RegisterProgram | Sequence[int]


@dataclass(frozen=True)
class Genome:
    """The gene layout of one level: its usable functions' slot counts, the registers the genes name, and the
    conditions each command comes with (the alphabet runs command by command: bare, then each condition)."""

    functions: tuple[int, ...]
    alphabet: tuple[Register, ...]
    conditions: int

    @classmethod
    def of(cls, level: Level) -> Genome:
        callable_ = [int(c[1:]) for c in level.commands if c.startswith("f")]
        count = min(len(level.functions), max([1, *callable_]))
        commands = [c for c in level.commands if not c.startswith("f") or int(c[1:]) <= count]
        alphabet = tuple((c, k) for c in commands for k in (None, *level.conditions))
        return cls(tuple(level.functions[:count]), alphabet, len(level.conditions))

    @property
    def length(self) -> int:
        return sum(self.functions)

    @property
    def commands(self) -> int:
        return len(self.alphabet) // (self.conditions + 1)

    def gene(self, command: int, condition: int) -> int:
        """The gene of the ``command``-th command with no condition (0) or the ``condition``-th (1-based)."""
        return 1 + command * (self.conditions + 1) + condition

    @property
    def symbols(self) -> int:
        """Genes run 0 .. symbols - 1."""
        return len(self.alphabet) + 1

    def registers(self, genes: Sequence[int]) -> RegisterProgram:
        program, at = [], 0
        for slots in self.functions:
            program.append(tuple(self.alphabet[g - 1] if g else (None, None) for g in genes[at : at + slots]))
            at += slots
        return tuple(program)

    def text(self, genes: Sequence[int]) -> str:
        """Script syntax (``cargobot run --program``), empty registers dropped."""
        return format_registers(self.registers(genes))

    def genes(self, program: RegisterProgram, where: str = "program") -> list[int]:
        """The genome of a register program; ``InputError`` if it does not fit the level's toolbox and slots."""
        if len(program) > len(self.functions):
            raise InputError(f"{where}: {len(program)} functions, the level's programs use {len(self.functions)}")
        index = {register: k for k, register in enumerate(self.alphabet, start=1)}
        genes = []
        for f, slots in enumerate(self.functions):
            registers = program[f] if f < len(program) else ()
            if len(registers) > slots:
                raise InputError(f"{where}: F{f + 1} has {len(registers)} registers, the level allows {slots}")
            for register in registers:
                if register[0] is not None and register not in index:
                    raise InputError(f"{where}: register {show(list(register))} is not in the level's toolbox")
                genes.append(index.get(register, 0))
            genes.extend([0] * (slots - len(registers)))
        return genes

    def read(self, program: ProgramInput, where: str = "program") -> list[int]:
        """One program in any accepted form as a checked genome (the one place a program reaches the evaluator)."""
        if isinstance(program, str):
            return self.genes(parse_registers(program), where)
        items: list[Any] = list(program)
        if all(isinstance(g, int) and not isinstance(g, bool) for g in items):
            if len(items) != self.length:
                raise InputError(f"{where}: a genome of this level has {self.length} genes, got {len(items)}")
            bad = [g for g in items if not 0 <= g < self.symbols]
            if bad:
                raise InputError(f"{where}: gene {show(bad[0])} is outside 0-{self.symbols - 1}")
            return items
        if not all(isinstance(f, tuple | list) and all(isinstance(r, tuple | list) for r in f) for f in items):
            raise InputError(f"{where}: expected program text, register lists or a list of genes")
        return self.genes(registers_from_lists([[list(r) for r in f] for f in items]), where)

    @staticmethod
    def size(genes: Sequence[int]) -> int:
        """Registers that hold a command (the game's score)."""
        return sum(1 for g in genes if g)
