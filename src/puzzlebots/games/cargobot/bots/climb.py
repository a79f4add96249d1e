"""``climb``: the Ruby example's "kludgy multiobjective hill climbing" (``examples/hillclimbing.rb``).

A random 30-token script is the wild type. Each iteration mutates it (replace one random token;
while longer than 10, delete each token with probability 1/len; while shorter than 32, insert a random
token before each position with probability 0.04, walking the list as it changes) and scores the
mutant as (rebuild distance to the goal, crashes, topples). The mutant replaces the wild type when it
is no worse in all three and its script has not been seen before. Generalized to any level and to the
game semantics (where the tokens are registers and a script that breaks the level's limits is never
accepted).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from puzzlebots.core.errors import PuzzlebotsError

from ..engine import PreparedBoard, Rules, run_level
from ..language import parse_registers, parse_script
from ..levels import Level
from ..metrics import rebuild_distance

WILD_TYPE_LENGTH = 30
MIN_LENGTH, MAX_LENGTH = 10, 32
INSERT_PROBABILITY = 0.04
SUFFIX_PROBABILITY = 0.2
STEP_LIMIT = 200
UNSCORABLE = (10**9, 10**9, 10**9)


@dataclass(frozen=True)
class SearchResult:
    """What a script search (climb, evolve) ends with: its best script and that script's score."""

    level: str
    seed: int
    solved: bool
    script: str  # the best script (a solution when solved)
    score: tuple[int, int, int]  # (rebuild distance, crashes, topples)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class ClimbResult(SearchResult):
    semantics: str
    iterations: int
    solutions: int


def token_pool(level: Level, semantics: str) -> tuple[list[str], list[str]]:
    """(base tokens, condition suffixes): R L claw ten times each, call1-4, prog_1-4 (as in the Ruby)."""
    calls = [f"call{k}" for k in range(1, 5)]
    progs = [f"prog_{k}" for k in range(1, 5)]
    base = ["R"] * 10 + ["L"] * 10 + ["claw"] * 10 + calls + progs
    return base, Rules(semantics).model.conditions(level)


def _random_token(rng: random.Random, base: list[str], suffixes: list[str]) -> str:
    token = rng.choice(base)
    if not token.startswith("prog_") and suffixes and rng.random() < SUFFIX_PROBABILITY:
        token = f"{token}_{rng.choice(suffixes)}"
    return token


def mutate(tokens: list[str], rng: random.Random, base: list[str], suffixes: list[str]) -> list[str]:
    out = list(tokens)
    if out:
        out[rng.randrange(len(out))] = _random_token(rng, base, suffixes)
    i = 0
    while i < len(out):
        if len(out) > MIN_LENGTH and rng.random() < 1 / len(out):
            del out[i]
        else:
            i += 1
    i = 0
    while i < len(out):
        if len(out) < MAX_LENGTH and rng.random() < INSERT_PROBABILITY:
            out.insert(i, _random_token(rng, base, suffixes))
            i += 1
        i += 1
    return out


def score(
    level: Level, script: str, semantics: str, step_limit: int, board: PreparedBoard | None = None
) -> tuple[int, int, int]:
    """(rebuild distance, crashes, topples) after running ``script``; game mode runs it as registers."""
    if semantics == "game":
        try:
            report = run_level(level, parse_registers(script), Rules(step_limit=step_limit))
        except PuzzlebotsError:
            return UNSCORABLE
    else:
        board = board or PreparedBoard(level.board(), level.goal_board(), level.claw)
        report = board.run_vaguery(parse_script(script), Rules("vaguery", step_limit=step_limit).vaguery())
    return rebuild_distance(report.stacks, level.goal_board()), report.crashes, report.topples


def climb(
    level: Level,
    seed: int = 0,
    semantics: str = "vaguery",
    max_iterations: int = 100_000,
    stop_after: int = 21,
    step_limit: int = STEP_LIMIT,
    progress: Callable[[int], None] | None = None,
) -> ClimbResult:
    """Run the climber; it stops once ``stop_after`` distinct solving scripts were seen (Ruby: > 20)."""
    rng = random.Random(seed)
    base, suffixes = token_pool(level, semantics)
    wild = [_random_token(rng, base, suffixes) for _ in range(WILD_TYPE_LENGTH)]
    board = PreparedBoard(level.board(), level.goal_board(), level.claw)
    wild_score = score(level, " ".join(wild), semantics, step_limit, board)
    seen = {" ".join(wild)}
    solutions = [" ".join(wild)] if wild_score == (0, 0, 0) else []
    iteration = 0
    while iteration < max_iterations and len(solutions) < stop_after:
        iteration += 1
        if progress and iteration % 500 == 0:
            progress(500)
        mutant = mutate(wild, rng, base, suffixes)
        text = " ".join(mutant)
        if text in seen:
            continue
        seen.add(text)
        mutant_score = score(level, text, semantics, step_limit, board)
        if mutant_score == (0, 0, 0):
            solutions.append(text)
        if all(m <= w for m, w in zip(mutant_score, wild_score, strict=True)):
            wild, wild_score = mutant, mutant_score
    best = solutions[0] if solutions else " ".join(wild)
    return ClimbResult(
        level.name,
        seed,
        bool(solutions),
        best,
        (0, 0, 0) if solutions else wild_score,
        semantics=semantics,
        iterations=iteration,
        solutions=len(solutions),
    )
