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

Checkpoints are JSON (never pickle: a checkpoint is a file anyone could have planted), read through ``jsonio`` and
checked field by field. CMA-ES keeps its state in the ``cma`` object, so a checkpoint stores what rebuilds it: the
start point ``x0`` and the fitness values told each generation. The strategy samples from its own seeded
``RandomState``, so asking and telling again from ``x0`` repeats every generation exactly; a resumed run gives the
same weights as one that was never interrupted, and a rebuilt mean that differs from the stored weights (an
edited file, another ``cma`` version) is refused.

Versus tuning (``opponent`` set) rates a bot's *parameters* instead: named whole numbers with ranges and defaults
that the game declares beside the bot (:class:`Parameter`, ``tuned_parameters``), played as config overrides of
those keys. A candidate's rating is its mean points per game (0 loss, 1/2 draw, 1 win) in game pairs against the
opponent (``core.match.play_pair``, one seed with the sides swapped, through the game's ``versus_play``: the games
``match`` plays), or against each of several opponents on the same seeds. An opponent may be the tuned bot itself:
then it plays the shipped settings (the config as given) and only the candidate's side reads the candidate's
values, so a candidate is rated against the incumbent, near even, where a strong bot's points against weaker ones
no longer tell candidates apart; a weaker opponent beside it keeps the search from trading away wins it must keep.
Both methods search the unit cube, each parameter's range mapped onto 0..1, and round and clip a candidate into its
ranges before it plays; the weights written are those whole numbers.
"""

from __future__ import annotations

import json
import math
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from .batch import run_tasks
from .errors import ConfigError, InputError
from .jsonio import check_int, check_number, name_of, read_json, show, write_text_atomic
from .match import PlayGame, Sides, game_points, play_pair
from .parameters import ParameterSpace
from .protocols import Versus, capability
from .registry import get_game
from .runner import play_episode, resolve
from .seeds import legacy_seed

METHODS = ("hill", "cma")
#: the seeds training draws its games from (strength figures use seeds from 100,000 up)
TRAINING_SEEDS = 10_000
CHECKPOINT_FORMAT = 3
#: the keys of one learning-curve entry, per method
HISTORY_KEYS = {
    "hill": {"generation", "rating", "accepted", "weights"},
    "cma": {"generation", "rating", "best_rating", "best_weights", "weights"},
}
MAX_GENERATIONS = 10**6
#: the widest step ``--sigma`` may ask for (exp(N(0, 10)) already spans 40 orders of magnitude)
MAX_SIGMA = 10.0
#: the most bytes one number takes in a checkpoint (``repr`` of a float, a comma and a space)
NUMBER_BYTES = 32
#: a checkpoint's bytes besides its numbers: field names, settings, brackets (per generation, and in all)
ENTRY_BYTES = 512
FIXED_BYTES = 64 * 1024


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
    opponent: str | None = None  # versus tuning: the bot (or comma-separated bots) every candidate plays pairs against


@dataclass
class TrainState:
    """Everything needed to continue: finished generations, current weights and the learning curve."""

    settings: TrainSettings
    generation: int
    weights: list[float]
    rating: float
    history: list[dict[str, Any]] = field(default_factory=list)
    cma_x0: list[float] | None = None  # CMA-ES: the weights it started from
    cma_told: list[list[float]] = field(default_factory=list)  # CMA-ES: the values told, one list per generation
    cma_es: Any = field(default=None, repr=False, compare=False)  # the live cma.CMAEvolutionStrategy (not saved)


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
    g = resolve(game)
    return float(g.fitness(play_episode(g, bot, seed, config, weights, max_actions=max_actions).result))


def parameter_space(settings: TrainSettings) -> ParameterSpace:
    """The parameters versus tuning searches for ``settings.bot``, as the game declares them."""
    return ParameterSpace(versus_game_of(settings.game).tuned_parameters(settings.bot))


def versus_game_of(name: str) -> Versus:
    """The game ``name`` as a game with versus play, or the capability's one-line ``ConfigError``."""
    return capability(get_game(name), Versus)


def decode(settings: TrainSettings, x: np.ndarray) -> np.ndarray:
    """The candidate a search point stands for: weights summing to 100, or whole numbers in their ranges."""
    return normalise(x) if settings.opponent is None else parameter_space(settings).values(x)


def opponents(settings: TrainSettings) -> tuple[str, ...]:
    """The bots a versus-tuned candidate plays, in the order ``opponent`` names them (comma-separated)."""
    return () if settings.opponent is None else tuple(settings.opponent.split(","))


def rate_pair(
    play: PlayGame,
    bot: str,
    opponent: str,
    seed: int,
    config: Mapping[str, Any],
    args: tuple[Any, ...],
    sides: Sides | None = None,
) -> float:
    """``bot``'s points per game (0..1) in the pair of versus games on ``seed`` against ``opponent`` (with
    ``sides``, each plays ``config`` with its own overrides)."""
    return sum(game_points(play_pair(play, bot, opponent, seed, config, *args, sides=sides))) / 4.0


def generation_seeds(settings: TrainSettings, generation: int) -> list[int]:
    """The sequence S of one generation: K distinct seeds drawn afresh from the training range 0..9,999.

    Training never plays a seed from 100,000 up, where the guides report strength, so no figure there was seen
    while tuning.
    """
    rng = np.random.default_rng([settings.seed, generation, 0x7EED])
    return sorted(int(s) for s in rng.choice(TRAINING_SEEDS, size=settings.games_per_eval, replace=False))


def rate_many(
    settings: TrainSettings,
    candidates: Sequence[np.ndarray],
    seeds: Sequence[int],
    run: Callable[..., list[Any]],
    label: str,
) -> list[float]:
    """Mean fitness of each candidate over the same seeds (common random numbers); in versus tuning, its mean
    points per game in one game pair per seed against each opponent (every opponent on the same seeds)."""
    if settings.opponent is not None:
        game = versus_game_of(settings.game)
        play, config, extra = game.versus_play(settings.config, settings.max_actions)
        space = parameter_space(settings)
        pair_args: list[tuple[Any, ...]] = []
        for c in candidates:
            over = space.overrides(c)
            merged = game.check_config({**config, **over})  # checked once per candidate, not per opponent
            for opponent in opponents(settings):
                # against the shipped settings only its side reads the candidate; against another bot it is the config
                own = opponent == settings.bot
                mine = config if own else merged
                sides: Sides | None = (over, {}) if own else None
                pair_args += [(play, settings.bot, opponent, s, mine, extra, sides) for s in seeds]
        flat = run(rate_pair, pair_args, description=label)
        k = len(seeds) * len(opponents(settings))
        return [float(np.mean(flat[i * k : (i + 1) * k])) for i in range(len(candidates))]
    args = [
        (settings.game, settings.bot, s, settings.config, [float(x) for x in c], settings.max_actions)
        for c in candidates
        for s in seeds
    ]
    flat = run(rate_one, args, description=label)
    k = len(seeds)
    return [float(np.mean(flat[i * k : (i + 1) * k])) for i in range(len(candidates))]


def save_checkpoint(path: Path, state: TrainState) -> None:
    cma = None if state.cma_x0 is None else {"x0": state.cma_x0, "told": state.cma_told}
    doc = {
        "format": CHECKPOINT_FORMAT,
        "kind": "puzzlebots train checkpoint",
        "settings": asdict(state.settings),
        "generation": state.generation,
        "weights": state.weights,
        "rating": state.rating,
        "history": state.history,
        "cma": cma,
    }
    write_text_atomic(path, json.dumps(doc, allow_nan=False) + "\n")


def load_checkpoint(path: Path, settings: TrainSettings, n_weights: int) -> TrainState:
    """The checkpoint of a run with ``settings`` (all but ``generations`` must match); ``InputError`` if it is
    not a checkpoint this code wrote, ``ConfigError`` listing the settings that differ."""
    name = f"checkpoint {name_of(path)}"
    try:
        _check_size(path, settings, n_weights, name)
        doc = read_json(path, "checkpoint")
        if not isinstance(doc, dict) or doc.get("kind") != "puzzlebots train checkpoint":
            raise InputError(f"{name} is not a puzzlebots train checkpoint")
        if doc.get("format") != CHECKPOINT_FORMAT:
            raise InputError(f"{name} has format {show(doc.get('format'))}, this puzzlebots reads {CHECKPOINT_FORMAT}")
        _check_settings(doc.get("settings"), settings, name)
        state = _state_from(doc, settings, n_weights, name)
    except InputError as exc:
        raise InputError(f"{exc}; delete it, or start over with --force instead of --resume") from None
    return state


def population(settings: TrainSettings, n_weights: int) -> int:
    """Candidates rated per generation: the variants of a hill-climbing round, or CMA-ES's population
    (``--popsize``, or the ``cma`` package's default for ``n_weights`` weights, 4 + 3 ln n)."""
    if settings.method == "hill":
        return settings.variants
    return settings.popsize or 4 + int(3 * math.log(n_weights))


def _check_size(path: Path, settings: TrainSettings, n_weights: int, name: str) -> None:
    """Refuse a file larger than a checkpoint of ``settings.generations`` generations can be, before reading it
    (a planted file of many generations would otherwise be parsed and replayed for minutes)."""
    per_generation = (3 * n_weights + population(settings, n_weights)) * NUMBER_BYTES + ENTRY_BYTES
    most = FIXED_BYTES + len(json.dumps(asdict(settings))) + settings.generations * per_generation
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read {name}: {exc.strerror}") from None
    if size > most:
        raise InputError(
            f"{name} is {size:,} bytes, more than a checkpoint of at most {settings.generations:,} "
            f"generations can be ({most:,})"
        )


def _check_settings(old: Any, settings: TrainSettings, name: str) -> None:
    keys = [f.name for f in fields(TrainSettings)]
    if not isinstance(old, dict) or sorted(old) != sorted(keys):
        raise InputError(f"{name}: settings must be an object with {', '.join(keys)}")
    now = json.loads(json.dumps(asdict(settings)))
    differ = [
        f"{k}={show(old[k], 30)} (now {show(now[k], 30)})" for k in keys if k != "generations" and old[k] != now[k]
    ]
    if differ:
        raise ConfigError(
            f"--resume: {name} was made with other settings: {'; '.join(differ)}. "
            "Repeat them, or start over with --force instead of --resume"
        )


def _numbers(value: Any, where: str, n: int | None = None) -> list[float]:
    """A list of finite numbers (of length ``n`` if given)."""
    if not isinstance(value, list) or (n is not None and len(value) != n):
        raise InputError(f"{where} must be a list of {'' if n is None else f'{n} '}numbers")
    return [check_number(x, where) for x in value]


def _state_from(doc: dict[str, Any], settings: TrainSettings, n: int, name: str) -> TrainState:
    expected = {"format", "kind", "settings", "generation", "weights", "rating", "history", "cma"}
    if set(doc) != expected:
        raise InputError(f"{name}: fields must be {', '.join(sorted(expected))}")
    generation = check_int(doc["generation"], f"{name}: generation", 1, MAX_GENERATIONS)
    if generation > settings.generations:
        raise InputError(f"{name} holds {generation:,} generations, more than --generations {settings.generations:,}")
    state = TrainState(
        settings,
        generation,
        _numbers(doc["weights"], f"{name}: weights", n),
        check_number(doc["rating"], f"{name}: rating"),
    )
    history = doc["history"]
    if not isinstance(history, list) or len(history) != generation:
        raise InputError(f"{name}: history must hold one entry per generation ({generation})")
    for g, entry in enumerate(history, start=1):
        where = f"{name}: history entry {g}"
        if not isinstance(entry, dict) or set(entry) != HISTORY_KEYS[settings.method] or entry["generation"] != g:
            raise InputError(f"{where} must be an object with {', '.join(sorted(HISTORY_KEYS[settings.method]))}")
        entry = dict(entry)
        for key in ("rating", "best_rating"):
            if key in entry:
                entry[key] = check_number(entry[key], f"{where}: {key}")
        for key in ("weights", "best_weights"):
            if key in entry:
                entry[key] = _numbers(entry[key], f"{where}: {key}", n)
        if "accepted" in entry:
            check_int(entry["accepted"], f"{where}: accepted", 0, settings.rounds * settings.variants)
        state.history.append(entry)
    cma = doc["cma"]
    if settings.method == "hill":
        if cma is not None:
            raise InputError(f"{name}: a hill-climbing checkpoint has no cma state")
        return state
    if not isinstance(cma, dict) or set(cma) != {"x0", "told"}:
        raise InputError(f"{name}: cma must be an object with x0 and told")
    told = cma["told"]
    if not isinstance(told, list) or len(told) != generation:
        raise InputError(f"{name}: cma.told must hold one list per generation ({generation})")
    size = population(settings, n)
    state.cma_x0 = _numbers(cma["x0"], f"{name}: cma.x0", n)
    state.cma_told = [_numbers(values, f"{name}: cma.told[{g}]", size) for g, values in enumerate(told, start=1)]
    state.cma_es = rebuild_cma(settings, state.cma_x0, state.cma_told, name)
    if not np.allclose(decode(settings, state.cma_es.mean), state.weights, rtol=1e-9, atol=1e-9):
        raise InputError(f"{name}: its CMA-ES history does not lead to its weights (edited, or another cma version)")
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
    write_text_atomic(path, json.dumps(doc, indent=2) + "\n")


def initial_weights(settings: TrainSettings, n: int, defaults: Sequence[float] | None) -> np.ndarray:
    if settings.opponent is not None:
        space = parameter_space(settings)
        if settings.init == "default":
            return np.array([float(p.default) for p in space.parameters])
        return space.values(np.random.default_rng([settings.seed, 0xC0FFEE]).uniform(0.0, 1.0, n))
    if settings.init == "default":
        if defaults is None:
            raise ConfigError(f"{settings.game}/{settings.bot} has no shipped default weights")
        return normalise(np.asarray(defaults, dtype=float))
    rng = np.random.default_rng([settings.seed, 0xC0FFEE])
    return normalise(rng.uniform(0.0, 1.0, n))


def tuned_names(settings: TrainSettings) -> tuple[str, ...]:
    """The names of the vector ``settings`` tunes: the bot's weights, or with an opponent its parameters;
    ``ConfigError`` for a game without versus play, an unknown opponent, or a bot with nothing to tune."""
    if settings.opponent is None:
        names = get_game(settings.game).bot_info(settings.bot).weight_names
        if not names:
            raise ConfigError(f"{settings.game}/{settings.bot} has no weights to train")
        return tuple(names)
    game = versus_game_of(settings.game)
    game.bot_info(settings.bot)
    for opponent in opponents(settings):
        game.bot_info(opponent)
    names = tuple(p.name for p in game.tuned_parameters(settings.bot))
    if not names:
        raise ConfigError(f"{settings.game}/{settings.bot} has no parameters to tune against an opponent")
    return names


def train(
    settings: TrainSettings,
    out: Path,
    *,
    resume: bool = False,
    force: bool = False,
    jobs: int | None = None,
    executor: str = "process",
    address: str | None = None,
    progress: bool = True,
    defaults: Sequence[float] | None = None,
    on_generation: Callable[[TrainState], None] | None = None,
) -> TrainState:
    """Run generations until ``settings.generations`` are done; checkpoint to ``out + '.ckpt'`` after each.

    ``resume`` continues from the checkpoint (made with the same settings); otherwise an existing weights file or
    checkpoint is refused unless ``force`` says to start over (the old checkpoint is deleted first).
    """
    if not 1 <= settings.games_per_eval <= TRAINING_SEEDS:
        raise ConfigError(
            f"games_per_eval must be 1..{TRAINING_SEEDS:,} (the training seeds), got {settings.games_per_eval}"
        )
    if settings.method not in METHODS:
        raise ConfigError(f"unknown method {settings.method!r} (choose from {', '.join(METHODS)})")
    names = tuned_names(settings)
    game = get_game(settings.game)
    settings.config = game.check_config(settings.config)
    if settings.opponent is not None:
        _, settings.config, _ = capability(game, Versus).versus_play(settings.config, settings.max_actions)
    ckpt = out.with_name(out.name + ".ckpt")

    def run(fn: Callable[..., Any], args: list[tuple[Any, ...]], description: str) -> list[Any]:
        return run_tasks(
            fn, args, jobs=jobs, executor=executor, address=address, description=description, progress=progress
        )

    if resume and force:
        raise ConfigError("--resume continues a run and --force starts it over: give one of them")
    if resume and ckpt.exists():
        state = load_checkpoint(ckpt, settings, len(names))
    elif resume:
        raise ConfigError(f"--resume: no checkpoint {name_of(ckpt)} to resume from")
    else:
        there = [name_of(p) for p in (out, ckpt) if p.exists()]
        if there and not force:
            raise ConfigError(
                f"{' and '.join(there)} already exist{'s' if len(there) == 1 else ''}: "
                "pass --resume to continue that run, or --force to start over"
            )
        try:
            ckpt.unlink(missing_ok=True)
        except OSError as exc:
            raise ConfigError(f"--force: cannot delete {name_of(ckpt)}: {exc.strerror}") from None
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
        variants = [vary(s, w, rng) for _ in range(s.variants)]
        ratings = rate_many(s, variants, seeds, run, f"gen {g + 1}: round {rnd + 1}/{s.rounds}")
        for v, t in zip(variants, ratings, strict=True):
            if t > r:
                r, w = t, v
                accepted += 1
    state.weights = [float(x) for x in w]
    state.rating = r
    state.history.append({"generation": g + 1, "rating": r, "accepted": accepted, "weights": state.weights})


def vary(settings: TrainSettings, w: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random variant: every weight times exp(N(0, sigma)), renormalised; or every parameter moved by
    N(0, sigma) of its range, rounded and clipped."""
    if settings.opponent is None:
        return normalise(w * np.exp(rng.normal(0.0, settings.sigma, len(w))))
    space = parameter_space(settings)
    return space.values(space.unit(w) + rng.normal(0.0, settings.sigma, len(w)))


def import_cma() -> Any:
    """The ``cma`` package, imported without the matplotlib it loads for its own plots (over a second of every
    CMA-ES run's start, and tuning draws its curves itself); a matplotlib already imported is left as it is."""
    if "cma" in sys.modules or "matplotlib" in sys.modules:
        import cma

        return cma
    sys.modules["matplotlib"] = None  # type: ignore[assignment]  # cma's ``import matplotlib`` then fails, as it allows
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # its note that its own plots are not available
            import cma
    finally:
        del sys.modules["matplotlib"]
    return cma


def new_cma(settings: TrainSettings, x0_weights: Sequence[float]) -> Any:
    """A fresh CMA-ES on weights/100 that samples from its own ``RandomState`` (the same numbers as the global
    generator seeded with ``legacy_seed(seed, 1)``, without depending on anyone else's use of it)."""
    cma = import_cma()
    randn = np.random.RandomState(legacy_seed(settings.seed, 1)).randn
    opts: dict[str, Any] = {"seed": math.nan, "randn": randn, "verbose": -9}
    if settings.popsize:
        opts["popsize"] = settings.popsize
    if settings.opponent is not None:
        return cma.CMAEvolutionStrategy(parameter_space(settings).unit(x0_weights), settings.sigma, opts)
    x0 = np.asarray(x0_weights) / 100.0
    return cma.CMAEvolutionStrategy(x0, settings.sigma * float(np.mean(x0)) * 3, opts)


def rebuild_cma(
    settings: TrainSettings, x0_weights: Sequence[float], told: Sequence[Sequence[float]], name: str
) -> Any:
    """The strategy after the generations of ``told``: ask and tell again, in order."""
    if settings.opponent is not None:
        if list(x0_weights) != list(decode(settings, parameter_space(settings).unit(x0_weights))):
            raise InputError(f"{name}: cma.x0 must be whole numbers within the parameters' ranges")
    elif min(x0_weights) < 0 or not math.isclose(sum(x0_weights), 100.0, rel_tol=1e-9):
        raise InputError(f"{name}: cma.x0 must be non-negative weights summing to 100")
    es = new_cma(settings, x0_weights)
    for g, values in enumerate(told, start=1):
        xs = es.ask()
        if len(values) != len(xs):
            raise InputError(f"{name}: cma.told[{g}] has {len(values)} values, the population is {len(xs)}")
        es.tell(xs, list(values))
    return es


def cma_generation(state: TrainState, run: Callable[..., list[Any]]) -> None:
    s = state.settings
    g = state.generation
    if state.cma_es is None:
        state.cma_x0 = list(state.weights)
        state.cma_es = new_cma(s, state.cma_x0)
    es = state.cma_es
    seeds = generation_seeds(s, g)
    xs = es.ask()
    candidates = [decode(s, x) for x in xs]
    ratings = rate_many(s, candidates, seeds, run, f"gen {g + 1}: {len(xs)} candidates")
    told = [-r for r in ratings]
    es.tell(xs, told)
    state.cma_told.append(told)
    best = int(np.argmax(ratings))
    mean_w = decode(s, es.mean)
    state.weights = [float(x) for x in mean_w]
    state.rating = float(np.mean(ratings))
    state.history.append(
        {
            "generation": g + 1,
            "rating": state.rating,
            "best_rating": ratings[best],
            "best_weights": [float(x) for x in candidates[best]],
            "weights": state.weights,
        }
    )
