"""Weight tuning: the Hatris article's hill climber and CMA-ES (the ``cma`` package).

Both rate a weight vector by the mean ``Game.fitness`` over K seeded games, write a checkpoint after every
generation (atomically, so a kill never leaves a broken one) and resume from it.

Hill climbing, as the article's pseudo-code::

    W := random weights
    each generation:   S := K fresh game seeds;  R := rating of W on S
        repeat `rounds` times:  Z := `variants` random variants of W
            for V in Z:  T := rating of V on S;  if T > R: R, W := T, V

A variant multiplies every weight by exp(N(0, sigma)) and renormalises to sum 100 (reference Q16). All variants of
a round are rated in parallel, then accepted in order, which gives the same W as rating them one by one.
"""

from __future__ import annotations

import json
import os
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .batch import run_tasks
from .errors import ConfigError, InputError
from .registry import get_game
from .runner import play_episode

METHODS = ("hill", "cma")


@dataclass
class TrainSettings:
    game: str
    bot: str
    method: str
    games_per_eval: int
    generations: int
    seed: int = 0
    variants: int = 8
    rounds: int = 4
    sigma: float = 0.3
    popsize: int = 0  # CMA-ES population, 0 = the cma default
    init: str = "random"  # or "default": start from the shipped weights
    config: dict[str, Any] = field(default_factory=dict)
    max_actions: int | None = None


@dataclass
class TrainState:
    """Everything needed to continue: finished generations, current weights and the learning curve."""

    settings: TrainSettings
    generation: int
    weights: list[float]
    rating: float
    history: list[dict[str, Any]] = field(default_factory=list)
    cma_es: Any = None  # the pickled cma.CMAEvolutionStrategy between generations


def normalise(w: np.ndarray) -> np.ndarray:
    """Non-negative weights summing to 100, as the article's table."""
    w = np.abs(np.asarray(w, dtype=float))
    total = w.sum()
    if total <= 0:
        return np.full(len(w), 100.0 / len(w))
    return 100.0 * w / total


def rate_one(
    game: str, bot: str, seed: int, config: Mapping[str, Any], weights: Sequence[float], max_actions: int | None
) -> float:
    g = get_game(game)
    return float(g.fitness(play_episode(g, bot, seed, config, weights, max_actions=max_actions).result))


def generation_seeds(settings: TrainSettings, generation: int) -> list[int]:
    """The sequence S of one generation: K seeds that no other generation uses."""
    base = 1_000_003 * (settings.seed + 1) + generation * settings.games_per_eval
    return [base + i for i in range(settings.games_per_eval)]


def rate_many(
    settings: TrainSettings,
    candidates: Sequence[np.ndarray],
    seeds: Sequence[int],
    run: Callable[..., list[Any]],
    label: str,
) -> list[float]:
    """Mean fitness of each candidate over the same seeds (common random numbers)."""
    args = [
        (settings.game, settings.bot, s, settings.config, [float(x) for x in c], settings.max_actions)
        for c in candidates
        for s in seeds
    ]
    flat = run(rate_one, args, description=label)
    k = len(seeds)
    return [float(np.mean(flat[i * k : (i + 1) * k])) for i in range(len(candidates))]


def save_checkpoint(path: Path, state: TrainState) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        pickle.dump({"format": 1, "state": state}, fh)
    os.replace(tmp, path)


def load_checkpoint(path: Path, settings: TrainSettings) -> TrainState:
    try:
        with open(path, "rb") as fh:
            data = pickle.load(fh)
        state: TrainState = data["state"]
    except (OSError, pickle.UnpicklingError, EOFError, KeyError, TypeError, AttributeError) as exc:
        why = exc.__class__.__name__
        raise InputError(f"checkpoint {path} cannot be read ({why}); delete it to start over") from exc
    old = state.settings
    for key in ("game", "bot", "method", "games_per_eval", "seed"):
        if getattr(old, key) != getattr(settings, key):
            raise ConfigError(
                f"--resume: checkpoint {path} was made with {key}={getattr(old, key)!r}, "
                f"not {getattr(settings, key)!r}"
            )
    state.settings.generations = settings.generations
    return state


def write_weights(path: Path, state: TrainState, names: Sequence[str]) -> None:
    s = state.settings
    doc = {
        "game": s.game,
        "bot": s.bot,
        "names": list(names),
        "weights": [round(x, 6) for x in state.weights],
        "trained_with": {**asdict(s), "generations_done": state.generation, "rating": state.rating},
        "history": state.history,
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=2) + "\n")
    os.replace(tmp, path)


def initial_weights(settings: TrainSettings, n: int, defaults: Sequence[float] | None) -> np.ndarray:
    if settings.init == "default":
        if defaults is None:
            raise ConfigError(f"{settings.game}/{settings.bot} has no shipped default weights")
        return normalise(np.asarray(defaults, dtype=float))
    rng = np.random.default_rng([settings.seed, 0xC0FFEE])
    return normalise(rng.uniform(0.0, 1.0, n))


def train(
    settings: TrainSettings,
    out: Path,
    *,
    resume: bool = False,
    jobs: int | None = None,
    executor: str = "process",
    address: str | None = None,
    progress: bool = True,
    defaults: Sequence[float] | None = None,
    on_generation: Callable[[TrainState], None] | None = None,
) -> TrainState:
    """Run generations until ``settings.generations`` are done; checkpoint to ``out + '.ckpt'`` after each."""
    if settings.method not in METHODS:
        raise ConfigError(f"unknown method {settings.method!r} (choose from {', '.join(METHODS)})")
    game = get_game(settings.game)
    names = game.bot_info(settings.bot).weight_names
    if not names:
        raise ConfigError(f"{settings.game}/{settings.bot} has no weights to train")
    settings.config = game.check_config(settings.config)
    ckpt = out.with_name(out.name + ".ckpt")

    def run(fn: Callable[..., Any], args: list[tuple[Any, ...]], description: str) -> list[Any]:
        return run_tasks(fn, args, jobs=jobs, executor=executor, address=address,
                         description=description, progress=progress)

    if resume and ckpt.exists():
        state = load_checkpoint(ckpt, settings)
    elif resume:
        raise ConfigError(f"--resume: no checkpoint {ckpt} to resume from")
    else:
        w0 = initial_weights(settings, len(names), defaults)
        state = TrainState(settings, 0, [float(x) for x in w0], float("-inf"))
    step = hill_generation if settings.method == "hill" else cma_generation
    while state.generation < settings.generations:
        step(state, run)
        state.generation += 1
        save_checkpoint(ckpt, state)
        write_weights(out, state, names)
        if on_generation is not None:
            on_generation(state)
    return state


def hill_generation(state: TrainState, run: Callable[..., list[Any]]) -> None:
    s = state.settings
    g = state.generation
    seeds = generation_seeds(s, g)
    rng = np.random.default_rng([s.seed, g, 0x4111])
    w = np.asarray(state.weights)
    (r,) = rate_many(s, [w], seeds, run, f"gen {g + 1}: rate W")
    accepted = 0
    for rnd in range(s.rounds):
        variants = [normalise(w * np.exp(rng.normal(0.0, s.sigma, len(w)))) for _ in range(s.variants)]
        ratings = rate_many(s, variants, seeds, run, f"gen {g + 1}: round {rnd + 1}/{s.rounds}")
        for v, t in zip(variants, ratings, strict=True):
            if t > r:
                r, w = t, v
                accepted += 1
    state.weights = [float(x) for x in w]
    state.rating = r
    state.history.append({"generation": g + 1, "rating": r, "accepted": accepted, "weights": state.weights})


def cma_generation(state: TrainState, run: Callable[..., list[Any]]) -> None:
    import cma

    s = state.settings
    g = state.generation
    if state.cma_es is None:
        opts: dict[str, Any] = {"seed": s.seed + 1, "verbose": -9}
        if s.popsize:
            opts["popsize"] = s.popsize
        x0 = np.asarray(state.weights) / 100.0
        es = cma.CMAEvolutionStrategy(x0, s.sigma * float(np.mean(x0)) * 3, opts)
    else:
        es = pickle.loads(state.cma_es)
    seeds = generation_seeds(s, g)
    xs = es.ask()
    candidates = [normalise(x) for x in xs]
    ratings = rate_many(s, candidates, seeds, run, f"gen {g + 1}: {len(xs)} candidates")
    es.tell(xs, [-r for r in ratings])
    best = int(np.argmax(ratings))
    mean_w = normalise(es.mean)
    state.weights = [float(x) for x in mean_w]
    state.rating = float(np.mean(ratings))
    state.cma_es = pickle.dumps(es)
    state.history.append(
        {"generation": g + 1, "rating": state.rating, "best_rating": ratings[best],
         "best_weights": [float(x) for x in candidates[best]], "weights": state.weights}
    )
