"""Slow, literal pure-Python interpreters: the reference the numba kernels are tested against.

They follow the reference text step by step with plain Python data (a real deque of token strings in
``vaguery`` mode, an unbounded list call stack in ``game`` mode) and share no code with the kernels.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from .language import RegisterProgram, Script, decode_token
from .report import RunReport
from .rules import FETCH_GUARD, TOPPLE_HEIGHT


def _claw(piles: list[list[str]], pos: int, holding: str | None) -> str | None:
    """The claw's one action at pile ``pos`` (1-based): lift the top crate, or set down the one it holds; what it
    holds afterwards. Lifting from an empty pile holds nothing (the same in both semantics)."""
    pile = piles[pos - 1]
    if holding is None:
        return pile.pop() if pile else None
    pile.append(holding)
    return None


def _holds(cond: str | None, holding: str | None) -> bool:
    if not cond:
        return True
    if cond == "any":
        return holding is not None
    if cond == "none":
        return holding is None
    return holding == cond


def run_vaguery(
    program: Script,
    stacks: list[list[str]],
    goal: list[list[str]] | None,
    claw: int = 1,
    fragile: bool = False,
    unstable: bool = False,
    height_limit: int = 6,
    step_limit: int = 200,
    on_step: Callable[[list[list[str]], int, str | None], None] | None = None,
) -> RunReport:
    """Ruby ``CargoBot#activate`` on a fresh bot (reference §2.3-2.5)."""
    piles = [list(p) for p in stacks]
    pos = claw
    holding: str | None = None
    steps = moves = crashes = topples = 0
    broken: str | None = None
    todo: deque[str] = deque(program[0])
    while True:
        if on_step is not None:
            on_step(piles, pos, holding)
        if goal is not None and piles == goal:
            outcome = "solved"
            break
        if broken:
            outcome = broken
            break
        if not todo:
            outcome = "finished"
            break
        if steps >= step_limit:
            outcome = "out_of_steps"
            break
        steps += 1
        token = decode_token(todo.popleft())
        if token.op == "nop" or not _holds(token.cond, holding):
            continue
        if token.op == "claw":
            moves += 1
            holding = _claw(piles, pos, holding)
        elif token.op in ("L", "R"):
            pos += 1 if token.op == "R" else -1
            if not 1 <= pos <= len(piles):
                pos = min(max(pos, 1), len(piles))
                crashes += 1
                if fragile and not broken:
                    broken = "crashed"
            else:
                moves += 1
            if len(piles[pos - 1]) > height_limit:
                topples += 1
                if unstable and not broken:
                    broken = "toppled"
        else:  # call
            if token.target <= len(program):
                todo.extendleft(reversed(program[token.target - 1]))
    return RunReport("vaguery", outcome, steps, moves, crashes, topples, piles, pos, holding)


def run_game(
    program: RegisterProgram,
    slots: tuple[int, ...],
    stacks: list[list[str]],
    goal: list[list[str]],
    claw: int = 1,
    tick_limit: int = 10_000_000,
    on_step: Callable[[list[list[str]], int, str | None], None] | None = None,
    on_register: Callable[[int, int], None] | None = None,
    poison: str | None = None,
    finish: bool = False,
    home: bool = False,
) -> RunReport:
    """The original game (reference §3): ``Level:run`` with ``Program:nextMove``. ``on_register(function,
    index)``, if given, sees the register each tick executes (0-based; the page highlights it).

    Two rules of Elizarov's sub-problems (``Level.poison``, ``Level.finish``; not the game's): lifting a crate
    of the ``poison`` colour ends the run ("poisoned"), and with ``finish`` the board passing through its goal
    is no win: the program must end (F1 returns) with the board at its goal, and with ``home`` with the claw
    back on its start pile."""
    piles = [list(p) for p in stacks]
    functions = [list(program[i]) if i < len(program) else [] for i in range(len(slots))]
    for i, n in enumerate(slots):
        functions[i] += [(None, None)] * (n - len(functions[i]))
    pos = claw
    holding: str | None = None
    ticks = moves = 0
    crashes = topples = 0
    func, index = 0, -1
    stack: list[tuple[int, int]] = []
    while True:
        if on_step is not None:
            on_step(piles, pos, holding)
        if piles == goal and not finish:
            outcome = "solved"
            break
        if ticks >= tick_limit:
            outcome = "out_of_steps"
            break
        # Program:nextMove
        move: str | None = None
        finished = False
        for _ in range(FETCH_GUARD):
            index += 1
            if index >= len(functions[func]):
                if not stack:
                    finished = True
                    index -= 1
                    break
                func, index = stack.pop()
                continue
            command, cond = functions[func][index]
            if command is None or not _holds(cond, holding):
                continue
            move = command
            if command.startswith("f"):
                stack.append((func, index))
                func, index = int(command[1:]) - 1, -1
            break
        if finished:
            outcome = "solved" if finish and piles == goal and (pos == claw or not home) else "finished"
            break
        if on_register is not None:
            on_register(*(stack[-1] if move is not None and move.startswith("f") else (func, index)))
        ticks += 1
        if move is None or move.startswith("f"):
            continue  # an idle tick of the guard, or a call
        moves += 1
        if move == "pickup":
            if holding is None and poison is not None and piles[pos - 1][-1:] == [poison]:
                outcome = "poisoned"
                break
            holding = _claw(piles, pos, holding)
            continue
        if len(piles[pos - 1]) >= TOPPLE_HEIGHT:
            topples = 1
            outcome = "toppled"
            break
        target = pos + (1 if move == "right" else -1)
        if not 1 <= target <= len(piles):
            crashes = 1
            outcome = "crashed"
            break
        pos = target
    return RunReport("game", outcome, ticks, moves, crashes, topples, piles, pos, holding)
