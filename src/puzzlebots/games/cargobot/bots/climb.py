"""``climb``: the Ruby example's "kludgy multiobjective hill climbing" (``examples/hillclimbing.rb``).

A random 30-token script is the wild type. Each iteration mutates it (replace one random token;
while longer than 10, delete each token with probability 1/len; while shorter than 32, insert a random
token before each position with probability 0.04, walking the list as it changes) and scores the
mutant as (rebuild distance to the goal, crashes, topples). The mutant replaces the wild type when it
is no worse in all three and its script has not been seen before. Generalized to any level and to the
game semantics (where the tokens are registers and a script that breaks the level's limits scores
10^9 in all three, so it replaces only a wild type as bad).

In the game semantics (what ``bench-gp`` runs) the whole loop runs in the climb kernel (``kernels/climb.py``,
``kernel_climb``): tokens as integer ids, the seen set a hash table of token sequences, each mutant run by the game
interpreter, and CPython's random stream continued draw for draw (``core/mt19937.py``), so the climb is the same
and an iteration costs no Python (about 30-90x the iterations per CPU second, ``bench_cargobot_gp.py``). The
vaguery semantics stays in Python (``batched_climb``): the mutants are scored in batches through the batch kernel
(``Scores``), drawn ahead, the rest dropped after an accepted one and the generator put back to just after it.
Both are the one-at-a-time loop (``score``, the readable oracle), iteration for iteration.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from puzzlebots.core.errors import PuzzlebotsError
from puzzlebots.core.mt19937 import state

from ..engine import PreparedBoard, Rules, run_level
from ..evaluate import Batch
from ..gp.evaluator import Evaluator
from ..kernels import climb as kernel
from ..kernels.interpreter import OUT_CRASHES, OUT_SIZE, OUT_TOPPLES
from ..language import _script_token, parse_registers, parse_script
from ..levels import Level
from ..metrics import rebuild_distance

WILD_TYPE_LENGTH = 30
MIN_LENGTH, MAX_LENGTH = 10, 32
INSERT_PROBABILITY = 0.04
SUFFIX_PROBABILITY = 0.2
STEP_LIMIT = 200
UNSCORABLE = (10**9, 10**9, 10**9)
#: mutants drawn ahead and scored in one kernel call: the first batch, and the most (the size doubles after a
#: batch without an accepted mutant, and starts again after one)
FIRST_BATCH, MOST_BATCH = 4, 64
#: the most iterations, and the most ticks (iterations x step limit), of one call of the climb kernel: a call
#: stays well under a second, so Ctrl-C and the progress bar keep up at any step limit
CHUNK, CHUNK_TICKS = 2000, 2_000_000


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
    draw, i, n = rng.random, 0, len(out)
    while i < n and n > MIN_LENGTH:  # a list at the least length draws no more
        if draw() < 1 / n:
            del out[i]
            n -= 1
        else:
            i += 1
    i = 0
    while i < n and n < MAX_LENGTH:  # nor does one at the most length
        if draw() < INSERT_PROBABILITY:
            out.insert(i, _random_token(rng, base, suffixes))
            n += 1
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


class Scores:
    """``score`` for many scripts in one batch-kernel call: the same figures, script for script. In the game the
    tokens are read once each into genes of the level's genome (``gp.genome``); registers of a function nothing
    calls are checked but never run, so they are left out of the genes."""

    def __init__(self, level: Level, semantics: str, step_limit: int) -> None:
        self.level, self.semantics, self.step_limit = level, semantics, step_limit
        if semantics == "game":
            self.evaluator = Evaluator(level, level.boards()[:1], step_limit=step_limit)
            self.genes = {register: k for k, register in enumerate(self.evaluator.genome.alphabet, start=1)}
            self.tokens: dict[str, int | tuple[int, ...]] = {}

    def _token(self, token: str) -> int | tuple[int, ...]:
        """A ``prog_N`` directive's function (0-based), or a register as (gene,), () if the level forbids it."""
        read = _script_token(token)
        if isinstance(read, int):
            return read
        try:
            self.level.check_program(((read,),))
        except PuzzlebotsError:
            return ()
        return (self.genes.get(read, 0),)

    def _genome(self, script: str) -> list[int] | None:
        """The genes of a script the game runs on the level (``run_level``'s checks), else None."""
        functions, genome = self.level.functions, self.evaluator.genome
        registers: list[list[int]] = [[] for _ in functions]
        current = 0
        for token in script.split():
            read = self.tokens.get(token)
            if read is None:
                read = self.tokens[token] = self._token(token)
            if isinstance(read, int):
                if read >= len(functions):
                    return None
                current = read
            elif not read or len(registers[current]) == functions[current]:
                return None
            else:
                registers[current].append(read[0])
        return [g for f, slots in enumerate(genome.functions) for g in registers[f] + [0] * (slots - len(registers[f]))]

    def __call__(self, scripts: list[str]) -> list[tuple[int, int, int]]:
        if self.semantics != "game":
            batch = Batch(scripts, [self.level], semantics="vaguery", step_limit=self.step_limit)
            outs = batch.run()
            return _figures(batch.rebuild, outs[:, OUT_CRASHES], outs[:, OUT_TOPPLES])
        genomes = [self._genome(s) for s in scripts]
        runnable = [g for g in genomes if g is not None]
        if not runnable:
            return [UNSCORABLE] * len(scripts)
        out = self.evaluator.run(np.array(runnable, np.int64))
        figures = iter(_figures(out.rebuild[:, 0], out.crashes[:, 0], out.topples[:, 0]))
        return [UNSCORABLE if g is None else next(figures) for g in genomes]


def _figures(rebuild: np.ndarray, crashes: np.ndarray, topples: np.ndarray) -> list[tuple[int, int, int]]:
    return list(zip(rebuild.tolist(), crashes.tolist(), topples.tolist(), strict=True))


def climb(
    level: Level,
    seed: int = 0,
    semantics: str = "vaguery",
    max_iterations: int = 100_000,
    stop_after: int = 21,
    step_limit: int = STEP_LIMIT,
    progress: Callable[[int], None] | None = None,
) -> ClimbResult:
    """Run the climber; it stops once ``stop_after`` distinct solving scripts were seen (Ruby: > 20). The game
    semantics runs in the climb kernel (``kernel_climb``), the vaguery one in Python (``batched_climb``)."""
    run = kernel_climb if semantics == "game" else batched_climb
    return run(level, seed, semantics, max_iterations, stop_after, step_limit, progress)


@dataclass
class _Start:
    """A climb's first steps, shared by both loops: the generator, the token pool, the wild type and its score."""

    level: Level
    seed: int
    semantics: str
    rng: random.Random
    base: list[str]
    suffixes: list[str]
    scores: Scores
    wild: list[str]
    wild_score: tuple[int, int, int]

    @classmethod
    def of(cls, level: Level, seed: int, semantics: str, step_limit: int) -> _Start:
        rng = random.Random(seed)
        base, suffixes = token_pool(level, semantics)
        wild = [_random_token(rng, base, suffixes) for _ in range(WILD_TYPE_LENGTH)]
        scores = Scores(level, semantics, step_limit)
        return cls(level, seed, semantics, rng, base, suffixes, scores, wild, scores([" ".join(wild)])[0])

    def result(self, best: str, solutions: int, iterations: int) -> ClimbResult:
        """The ``ClimbResult`` of a climb that ended with ``best``, ``solutions`` seen after ``iterations``."""
        score = (0, 0, 0) if solutions else self.wild_score
        found = bool(solutions)
        level, seed, semantics = self.level.name, self.seed, self.semantics
        return ClimbResult(level, seed, found, best, score, semantics, iterations=iterations, solutions=solutions)


def batched_climb(
    level: Level,
    seed: int,
    semantics: str,
    max_iterations: int,
    stop_after: int,
    step_limit: int = STEP_LIMIT,
    progress: Callable[[int], None] | None = None,
) -> ClimbResult:
    """The climb in Python, its mutants scored in batches by ``Scores`` (either semantics)."""
    start = _Start.of(level, seed, semantics, step_limit)
    rng, base, suffixes, scores = start.rng, start.base, start.suffixes, start.scores
    wild, wild_score = start.wild, start.wild_score
    seen = {" ".join(wild)}
    solutions = [" ".join(wild)] if wild_score == (0, 0, 0) else []
    iteration, ahead = 0, FIRST_BATCH
    while iteration < max_iterations and len(solutions) < stop_after:
        drawn = []  # (mutant, the generator's state after drawing it)
        for _ in range(min(ahead, max_iterations - iteration)):
            mutant = mutate(wild, rng, base, suffixes)
            drawn.append((mutant, rng.getstate()))
        texts = [" ".join(m) for m, _ in drawn]
        fresh = list(dict.fromkeys(t for t in texts if t not in seen))
        scored = dict(zip(fresh, scores(fresh), strict=True)) if fresh else {}
        ahead = min(2 * ahead, MOST_BATCH)
        for (mutant, after), text in zip(drawn, texts, strict=True):
            iteration += 1
            if progress and iteration % 500 == 0:
                progress(500)
            if text in seen:
                continue
            seen.add(text)
            mutant_score = scored[text]
            if mutant_score == (0, 0, 0):
                solutions.append(text)
                if len(solutions) >= stop_after:
                    break
            if all(m <= w for m, w in zip(mutant_score, wild_score, strict=True)):
                wild, wild_score = mutant, mutant_score
                rng.setstate(after)
                ahead = FIRST_BATCH
                break
    start.wild_score = wild_score
    best = solutions[0] if solutions else " ".join(wild)
    return start.result(best, len(solutions), iteration)


def kernel_climb(
    level: Level,
    seed: int,
    semantics: str,
    max_iterations: int,
    stop_after: int,
    step_limit: int = STEP_LIMIT,
    progress: Callable[[int], None] | None = None,
) -> ClimbResult:
    """The game-semantics climb in the climb kernel, at most ``CHUNK`` iterations a call: the same climb as
    ``batched_climb``, draw for draw (the kernel continues the generator's stream)."""
    if semantics != "game":
        raise PuzzlebotsError("the climb kernel runs the game semantics only")
    start = _Start.of(level, seed, semantics, step_limit)
    tokens = _KernelTokens(start)
    wild = np.zeros(kernel.MOST_TOKENS, np.int64)
    wild[: len(start.wild)] = [tokens.ids[t] for t in start.wild]
    first = wild.copy()
    counters = np.zeros(kernel.COUNTERS, np.int64)
    solved = start.wild_score == (0, 0, 0)
    counters[kernel.WILD_LENGTH] = counters[kernel.FIRST_LENGTH] = len(start.wild)
    counters[kernel.SOLUTIONS], counters[kernel.STOP_AFTER] = int(solved), stop_after
    wild_score = np.array(start.wild_score, np.int64)
    seen = kernel.Seen()
    kernel.add_seen(wild, len(start.wild), *seen.arrays, counters)
    mt, chunk = state(start.rng), max(1, min(CHUNK, CHUNK_TICKS // step_limit))
    while counters[kernel.ITERATION] < max_iterations and counters[kernel.SOLUTIONS] < stop_after:
        before = int(counters[kernel.ITERATION])
        until = min(max_iterations, before + chunk)
        seen.make_room(int(counters[kernel.SEEN]), until - before)
        kernel.climb_chunk(mt, wild, wild_score, first, counters, seen.arrays, *tokens.arrays, until)
        for _ in range(int(counters[kernel.ITERATION]) // 500 - before // 500):
            if progress:
                progress(500)
    start.wild_score = (int(wild_score[0]), int(wild_score[1]), int(wild_score[2]))
    solutions = int(counters[kernel.SOLUTIONS])
    best = first[: counters[kernel.FIRST_LENGTH]] if solutions else wild[: counters[kernel.WILD_LENGTH]]
    text = " ".join(tokens.texts[t] for t in best.tolist())
    return start.result(text, solutions, int(counters[kernel.ITERATION]))


class _KernelTokens:
    """The climb kernel's view of a level: token ids and what each is in the game (``Scores._token``), the
    mutation's pool and rates, the genes' registers, and the first board with the scratch arrays a run writes."""

    def __init__(self, start: _Start) -> None:
        names, suffixes = list(dict.fromkeys(start.base)), start.suffixes
        endings = ["", *(f"_{c}" for c in suffixes)]
        self.texts = [name + ending for name in names for ending in endings]
        self.ids = {text: k for k, text in enumerate(self.texts)}
        function, gene = np.full(len(self.texts), -1, np.int64), np.full(len(self.texts), -1, np.int64)
        for k, text in enumerate(self.texts):
            if text.startswith("prog_") and "_" in text[5:]:
                continue  # never drawn: a directive takes no suffix
            read = start.scores._token(text)
            if isinstance(read, int):
                function[k] = read
            elif read:
                gene[k] = read[0]
        pool = (
            np.array([names.index(b) for b in start.base], np.int64),
            np.array([b.startswith("prog_") for b in start.base], np.bool_),
            len(suffixes),
        )
        rates = (MIN_LENGTH, MAX_LENGTH, INSERT_PROBABILITY, SUFFIX_PROBABILITY)
        evaluator = start.scores.evaluator
        level, batch = evaluator.level, evaluator.batch
        flen = np.array(evaluator.genome.functions, np.int32)
        program = (function, gene, np.array(level.functions, np.int64), evaluator.gene_op, evaluator.gene_cond, flen)
        b = int(evaluator.board_index[0])
        n = int(batch.npiles[b])
        piles, heights = np.ascontiguousarray(batch.piles[b, :n]), np.ascontiguousarray(batch.heights[b, :n])
        board = (
            piles,
            heights,
            np.ascontiguousarray(batch.goal[b, :n]),
            np.ascontiguousarray(batch.goal_heights[b, :n]),
            bool(batch.has_goal[b]),
            int(batch.claws[b]),
            int(batch.limit),
        )
        scratch = (
            np.zeros(len(flen) * evaluator.width, np.int8),
            np.zeros(len(flen) * evaluator.width, np.int32),
            np.zeros(len(level.functions), np.int64),
            np.empty_like(piles),
            np.empty_like(heights),
            np.empty_like(piles),
            np.empty_like(heights),
            np.zeros(OUT_SIZE, np.int64),
            np.empty((64, 3), np.int64),
        )
        self.arrays = (pool, rates, program, board, scratch)
