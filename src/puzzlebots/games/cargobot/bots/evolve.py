"""``evolve``: a small genetic program over Ruby scripts, beside ``climb``, scored through the batch API.

A population of random 30-token scripts (``climb``'s token pool) evolves by tournament selection on
(rebuild distance, crashes, topples) compared in that order, one-point crossover of two parents' token
lists and ``climb``'s mutation; the best ``elite`` scripts pass unchanged. A whole generation runs in
one ``evaluate.Batch`` call, its rebuild distance computed in the kernel. The budget counts scripts run,
as ``climb``'s iterations do, so the two compare at equal cost. Seeded and deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from puzzlebots.core.errors import InputError

from ..evaluate import Batch
from ..kernels.interpreter import OUT_CRASHES, OUT_TOPPLES
from ..levels import Level
from .climb import MAX_LENGTH, STEP_LIMIT, WILD_TYPE_LENGTH, SearchResult, _random_token, mutate, token_pool

TOURNAMENT = 3
SOLVED_SCORE = (0, 0, 0)


@dataclass(frozen=True)
class EvolveResult(SearchResult):
    evaluations: int
    generations: int


def _scores(level: Level, scripts: list[list[str]], step_limit: int) -> list[tuple[int, int, int]]:
    batch = Batch([" ".join(s) for s in scripts], [level], semantics="vaguery", step_limit=step_limit)
    outs = batch.run()
    return [(int(r), int(o[OUT_CRASHES]), int(o[OUT_TOPPLES])) for r, o in zip(batch.rebuild, outs, strict=True)]


def _crossover(a: list[str], b: list[str], rng: random.Random) -> list[str]:
    child = a[: rng.randint(0, len(a))] + b[rng.randint(0, len(b)) :]
    return child[:MAX_LENGTH] or list(a)


def check_options(population: int, evaluations: int, elite: int, crossover: float) -> None:
    if population < 2:
        raise InputError(f"population {population} must be at least 2")
    if not 0 <= elite < population:
        raise InputError(f"elite {elite} must be at least 0 and below the population {population}")
    if evaluations < population:
        raise InputError(f"evaluation budget {evaluations} is smaller than one population ({population})")
    if not 0.0 <= crossover <= 1.0:
        raise InputError(f"crossover rate {crossover} is not in [0, 1]")


def evolve(
    level: Level,
    seed: int = 0,
    population: int = 200,
    evaluations: int = 100_000,
    elite: int = 2,
    crossover: float = 0.7,
    step_limit: int = STEP_LIMIT,
    progress: Callable[[int], None] | None = None,
) -> EvolveResult:
    """Evolve until a script solves the level (score (0, 0, 0)) or ``evaluations`` scripts were run."""
    check_options(population, evaluations, elite, crossover)
    rng = random.Random(seed)
    base, suffixes = token_pool(level, "vaguery")
    scripts = [[_random_token(rng, base, suffixes) for _ in range(WILD_TYPE_LENGTH)] for _ in range(population)]
    scores = _scores(level, scripts, step_limit)
    used, generations = population, 0
    if progress:
        progress(population)

    def pick() -> list[str]:
        return scripts[min(rng.sample(range(population), TOURNAMENT), key=lambda i: scores[i])]

    while SOLVED_SCORE not in scores and used + population - elite <= evaluations:
        order = sorted(range(population), key=lambda i: scores[i])
        children = [
            mutate(_crossover(pick(), pick(), rng) if rng.random() < crossover else pick(), rng, base, suffixes)
            for _ in range(population - elite)
        ]
        child_scores = _scores(level, children, step_limit)
        scripts = [scripts[i] for i in order[:elite]] + children
        scores = [scores[i] for i in order[:elite]] + child_scores
        used += len(children)
        generations += 1
        if progress:
            progress(len(children))
    best = min(range(population), key=lambda i: scores[i])
    return EvolveResult(
        level.name, seed, scores[best] == SOLVED_SCORE, " ".join(scripts[best]), scores[best], used, generations
    )
