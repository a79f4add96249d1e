"""Program searches at a budget of program evaluations: the GP on DEAP and its baselines.

* ``gp``: a generational GP over integer genomes (``genome.py``, so every program is legal for its level) with
  DEAP's two-point crossover, a gene-resetting mutation and DEAP's selection: tournament (on total error, with
  size as the lexicographic tie-break when ``parsimony``), lexicase, epsilon-lexicase or automatic
  epsilon-lexicase (``deap.tools.selLexicase``, ``selEpsilonLexicase``, ``selAutomaticEpsilonLexicase``) over the
  evaluator's cases and, with ``board_case``, one case more: the whole board's rebuild distance. ``elite``
  programs pass unchanged, the best by (total error, size).
* ``random_search``: random genomes drawn as the GP's first generation is, in batches.
* ``climb``: the Ruby example's hill climber (``bots.climb``), its iterations counted as evaluations.

Every run is seeded: DEAP draws from Python's ``random``, which a run seeds with its own seed and gives back as it
found it, so runs in one process or many give the same answers. A winning genome is then simplified (empty
registers tried one at a time, kept while it still wins; those runs are counted apart from the budget).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from functools import cache
from typing import Any

import numpy as np
from deap import algorithms, base, tools

from puzzlebots.core.errors import InputError, PuzzlebotsError

from ..bots.climb import climb as run_climb
from ..language import parse_registers
from . import lexicase
from .evaluator import Evaluator, Outcomes
from .genome import Genome
from .kernel import draw_genes

SELECTIONS = ("tournament", "lexicase", "epsilon", "auto-epsilon")
#: random search evaluates this many programs per kernel call
RANDOM_BATCH = 1000
#: the largest population and evaluation budget a run takes
MAX_POPULATION = 100_000
MAX_EVALUATIONS = 10**9
#: a GP run with recall also ends once it has formed this many times its budget in children, recalled ones
#: included: a population that only ever forms programs it has run would otherwise never spend its budget
RECALL_LIMIT = 10

Progress = Callable[[int], None]


@dataclass(frozen=True)
class GPOptions:
    """The GP's settings (see the module's docstring)."""

    population: int = 500
    selection: str = "lexicase"
    tournament: int = 7
    #: the chances a pair of children is crossed and a child mutated
    crossover: float = 0.7
    mutation: float = 0.9
    #: the genes a mutation redraws, on average, and the share of empty registers among the genes drawn
    gene_changes: float = 2.0
    empty: float = 0.6
    #: the chance a drawn register carries a condition: the Ruby hill climber's (``bots.climb``'s suffix chance);
    #: drawing the (command, condition) pairs uniformly put a condition on two registers in three or more, where
    #: most winning registers have none, and needed 2.1-2.8x the evaluations on three easy levels (docs/cargobot.md)
    condition: float = 0.2
    #: lexicase selects on one case more than the evaluator's: the rebuild distance of the whole board (the Ruby
    #: emulator's measure that the hill climber climbs on), summed over the boards. The per-pile cases alone
    #: reward getting single piles right, a trap where the piles must be swapped through each other: The Swap
    #: was won in 1 run of 6 on tuning seeds, and in 6 of 6 with this case (docs/cargobot.md)
    board_case: bool = True
    #: a child that must run as a program already run (equal to it in every register that program's runs fetched,
    #: ``Outcomes.fetch_order``) takes that program's results from the run's ``Memory`` instead of a run: children
    #: of a mutation in a register their parent never reaches, or copies. Such a child is not an evaluation: no
    #: program runs (docs/cargobot.md, "Recall")
    recall: bool = True
    #: the programs passed unchanged to the next generation
    elite: int = 2
    #: tournaments break ties in total error by size
    parsimony: bool = True
    #: epsilon-lexicase's tolerance
    epsilon: float = 1.0

    def check(self, evaluations: int) -> None:
        if not 2 <= self.population <= MAX_POPULATION:
            raise InputError(f"population {self.population} is outside 2-{MAX_POPULATION:,}")
        if self.selection not in SELECTIONS:
            raise InputError(f"unknown selection {self.selection!r} ({', '.join(SELECTIONS)})")
        if not 0 <= self.elite < self.population:
            raise InputError(f"elite {self.elite} must be at least 0 and below the population {self.population}")
        if not 2 <= self.tournament <= self.population:
            raise InputError(f"tournament size {self.tournament} is outside 2-{self.population}")
        for name in ("crossover", "mutation", "empty", "condition"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise InputError(f"{name} rate {getattr(self, name)} is not in [0, 1]")
        if self.crossover + self.mutation == 0:
            raise InputError("crossover and mutation rates are both 0: no child would ever change")
        if not 0.0 < self.gene_changes <= 100.0 or not 0.0 <= self.epsilon <= 1e6:
            raise InputError("gene changes must be in (0, 100] and epsilon in [0, 10^6]")
        check_budget(evaluations, self.population)


def check_budget(evaluations: int, population: int = 1) -> None:
    if not population <= evaluations <= MAX_EVALUATIONS:
        raise InputError(
            f"evaluation budget {evaluations} is outside {population}-{MAX_EVALUATIONS:,} (at least one population)"
        )


@dataclass(frozen=True)
class RunResult:
    """One seeded run: solved or not, evaluations to its first win (else all it used), the winner simplified
    (``program``, ``size``; ``found_size`` as found), the best total case error, generations, runs spent
    simplifying."""

    method: str
    level: str
    seed: int
    solved: bool
    evaluations: int
    program: str
    size: int
    found_size: int
    best_error: int
    generations: int
    simplify_evaluations: int
    #: children that took a program's results from memory instead of a run (``GPOptions.recall``)
    recalled: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Python's ``random`` (DEAP's source) seeded for one run and given back as it was."""
    saved = random.getstate()
    random.seed(seed)
    try:
        yield
    finally:
        random.setstate(saved)


def random_gene(genome: Genome, empty: float, condition: float) -> int:
    """One register from Python's ``random``: empty with chance ``empty``, else a command of the toolbox (uniform)
    that carries one of the level's conditions (uniform) with chance ``condition``."""
    if random.random() < empty:
        return 0
    command = random.randrange(genome.commands)
    if genome.conditions and random.random() < condition:
        return genome.gene(command, 1 + random.randrange(genome.conditions))
    return genome.gene(command, 0)


def random_genes(genome: Genome, empty: float, condition: float) -> list[int]:
    """One random genome (the readable form of ``random_genomes``)."""
    return [random_gene(genome, empty, condition) for _ in range(genome.length)]


def random_genomes(genome: Genome, empty: float, condition: float, count: int) -> np.ndarray:
    """``count`` genomes as ``random_genes`` draws them one after another, drawn in numba from Python's ``random``
    state, which is then left where those calls would leave it (a tenth of their time)."""
    version, words, gauss = random.getstate()
    mt = np.array(words, np.int64)
    out = np.empty((count, genome.length), np.int64)
    draw_genes(mt, empty, genome.commands, genome.conditions, condition, out)
    random.setstate((version, tuple(mt.tolist()), gauss))
    return out


def mutate(genes: list[int], genome: Genome, rate: float, empty: float, condition: float) -> tuple[list[int]]:
    """Redraw each gene with probability ``rate`` as ``random_gene`` draws it: always a legal program."""
    for i in range(len(genes)):
        if random.random() < rate:
            genes[i] = random_gene(genome, empty, condition)
    return (genes,)


class Individual(list):  # type: ignore[type-arg]
    """A genome with a DEAP fitness (its class set per run: the weights depend on the cases) and its (total case
    error, size), which the elite is chosen by and which copies keep."""

    fitness: base.Fitness
    score: tuple[int, int]


Results = tuple[tuple[float, ...], tuple[int, int]]


class Memory:
    """The results of the programs a run has run, in a tree that asks what a run asks: a node names the register
    every program that reaches it reads next (``Outcomes.fetch_order``), its branches the genes found there, and a
    leaf holds the results of the programs that read no more. Programs that reach one node read the same
    registers so far and so run the same so far, which is what makes the next register theirs alike."""

    def __init__(self) -> None:
        self.root: list[Any] | None = None  # [register, {gene: node}] or [None, results]

    def keep(self, genes: list[int], order: list[int], results: Results) -> None:
        read = sorted((place, gene) for gene, place in enumerate(order) if place >= 0)
        if self.root is None:
            self.root = [None, results] if not read else [read[0][1], {}]
        node = self.root
        for k, (_, register) in enumerate(read):
            if node[0] != register:  # a run that reads on where another read no more: kept out (never expected)
                return
            node = node[1].setdefault(genes[register], [read[k + 1][1], {}] if k + 1 < len(read) else [None, results])

    def recall(self, genes: list[int]) -> Results | None:
        node = self.root
        while node is not None and node[0] is not None:
            node = node[1].get(genes[node[0]])
        return None if node is None else node[1]


class CachedFitness(base.Fitness):
    """DEAP's fitness with ``values`` kept as set: DEAP's getter divides the weights out on every read, and
    lexicase reads a value per case per candidate per selection. It skips DEAP's check of the weights on every
    new fitness (an abstract-class ``isinstance``, a tenth of a run's time), done once where ``_fitness`` makes
    the class."""

    _values: tuple[float, ...] = ()

    def __init__(self, values: tuple[float, ...] = ()) -> None:
        if values:
            self.values = values

    def _get(self) -> tuple[float, ...]:
        return self._values

    def _set(self, values: tuple[float, ...]) -> None:
        base.Fitness.setValues(self, values)
        self._values = tuple(values)

    def _delete(self) -> None:
        base.Fitness.delValues(self)
        self._values = ()

    values = property(_get, _set, _delete)

    def __deepcopy__(self, memo: dict[int, Any]) -> CachedFitness:
        copy = self.__class__()
        copy.wvalues, copy._values = self.wvalues, self._values
        return copy


def clone(person: Individual) -> Individual:
    """The copy DEAP's ``varAnd`` makes of each parent, without ``copy.deepcopy``'s generic walk (half a run's
    time): the genes are integers and the fitness values and score tuples, none of them shared mutably."""
    copy = Individual(person)
    copy.fitness = person.fitness.__deepcopy__({})
    copy.score = person.score
    return copy


@cache
def _fitness(weights: tuple[float, ...]) -> type[base.Fitness]:
    return type(f"Fitness{len(weights)}", (CachedFitness,), {"weights": weights})


def _selector(options: GPOptions) -> Callable[[list[Individual], int], list[Individual]]:
    if options.selection == "tournament":
        return lambda pop, k: tools.selTournament(pop, k, tournsize=options.tournament)
    mode = {"lexicase": lexicase.PLAIN, "epsilon": lexicase.EPSILON}.get(options.selection, lexicase.AUTOMATIC)
    return lambda pop, k: by_error_vector(pop, k, mode, options.epsilon)


def by_error_vector(population: list[Individual], k: int, mode: int, epsilon: float) -> list[Individual]:
    """Lexicase (plain or epsilon, ``lexicase.select``: DEAP's draws) over the distinct error vectors, then a
    uniform pick among the programs of the chosen vector: the same distribution as lexicase over the whole
    population (which ends in a uniform pick among the survivors, all of one vector once the cases run out), at
    the cost of the distinct vectors only (a population holds many programs with equal errors)."""
    groups: dict[tuple[float, ...], list[Individual]] = {}
    for person in population:
        groups.setdefault(person.fitness.values, []).append(person)
    members = list(groups.values())
    chosen = lexicase.select(np.array(list(groups), np.float64), k, mode, epsilon)
    return [random.choice(members[i]) for i in chosen]


def gp(
    evaluator: Evaluator,
    evaluations: int,
    seed: int,
    options: GPOptions = GPOptions(),
    progress: Progress | None = None,
) -> RunResult:
    """One GP run until a program wins every case or ``evaluations`` programs were run."""
    options.check(evaluations)
    genome = evaluator.genome
    tournament = options.selection == "tournament"
    board_case = options.board_case and not tournament
    cases = evaluator.cases + board_case
    weights = (-1.0, -1.0) if tournament and options.parsimony else (-1.0,) if tournament else (-1.0,) * cases
    fitness = _fitness(weights)
    toolbox = base.Toolbox()
    toolbox.register("clone", clone)
    toolbox.register("mate", tools.cxTwoPoint)
    toolbox.register(
        "mutate",
        mutate,
        genome=genome,
        rate=min(1.0, options.gene_changes / genome.length),
        empty=options.empty,
        condition=options.condition,
    )
    select = _selector(options)

    memory = Memory()

    def rate(people: list[Individual]) -> Outcomes:
        out = evaluator.run(np.array(people, np.int64).reshape(len(people), genome.length))
        boards = out.rebuild.sum(axis=1).tolist()
        rows = zip(people, out.errors.tolist(), out.sizes.tolist(), boards, out.fetch_order.tolist(), strict=True)
        for person, errors, size, board, order in rows:
            person.score = (sum(errors), size)
            person.fitness = fitness()
            if tournament:
                person.fitness.values = person.score if options.parsimony else person.score[:1]
            else:
                person.fitness.values = (*errors, board) if board_case else tuple(errors)
            if options.recall:
                memory.keep(person, order, (person.fitness.values, person.score))
        return out

    with seeded(seed):
        first = random_genomes(genome, options.empty, options.condition, options.population)
        population = [Individual(g) for g in first.tolist()]
        fresh, used, recalled, generations, won = population, 0, 0, 0, None
        while True:
            if options.recall:
                unknown = []
                for child in fresh:
                    known = memory.recall(child)
                    if known is None:
                        unknown.append(child)
                    else:
                        child.fitness, child.score = fitness(known[0]), known[1]
                recalled += len(fresh) - len(unknown)
                fresh = unknown
            fresh = fresh[: evaluations - used]
            wins = np.flatnonzero(rate(fresh).solved) if fresh else np.array([], np.int64)
            spent = int(wins[0]) + 1 if len(wins) else len(fresh)
            used += spent
            if progress:
                progress(spent)
            if len(wins):
                won = fresh[int(wins[0])]
                break
            if used >= evaluations or used + recalled >= RECALL_LIMIT * evaluations:
                break
            elite = sorted(population, key=lambda p: p.score)[: options.elite]
            children = algorithms.varAnd(
                select(population, options.population - options.elite), toolbox, options.crossover, options.mutation
            )
            fresh = [c for c in children if not c.fitness.valid]
            population = elite + children
            generations += 1
        rated = [p for p in population if p.fitness.valid]
        best = won if won is not None else min(rated, key=lambda p: p.score)
    found = _result(
        f"gp-{options.selection}", evaluator, seed, won is not None, used, list(best), generations, best.score[0]
    )
    return replace(found, recalled=recalled)


def random_search(
    evaluator: Evaluator,
    evaluations: int,
    seed: int,
    empty: float = GPOptions.empty,
    condition: float = GPOptions.condition,
    progress: Progress | None = None,
) -> RunResult:
    """Random genomes until one wins or ``evaluations`` were run."""
    check_budget(evaluations)
    genome = evaluator.genome
    used, best, best_total = 0, None, None
    with seeded(seed):
        while used < evaluations:
            batch = random_genomes(genome, empty, condition, min(RANDOM_BATCH, evaluations - used))
            out = evaluator.run(batch)
            totals = out.errors.sum(axis=1)
            wins = np.flatnonzero(out.solved)
            if len(wins):
                if progress:
                    progress(int(wins[0]) + 1)
                won = batch[int(wins[0])].tolist()
                return _result("random", evaluator, seed, True, used + int(wins[0]) + 1, won, 0, 0)
            k = int(np.argmin(totals))
            if best_total is None or totals[k] < best_total:
                best, best_total = batch[k].tolist(), int(totals[k])
            used += len(batch)
            if progress:
                progress(len(batch))
    return _result("random", evaluator, seed, False, used, best or [], 0, best_total or 0)


def climb(evaluator: Evaluator, evaluations: int, seed: int, progress: Progress | None = None) -> RunResult:
    """The Ruby hill climber (``bots.climb``) on the evaluator's level, semantics and step limit, until its
    first solving script; its iterations count as evaluations."""
    check_budget(evaluations)
    if len(evaluator.boards) > 1:
        raise InputError("the hill climber runs on a level's own board, not on a family's boards")
    found = run_climb(evaluator.level, seed, evaluator.semantics, evaluations, 1, evaluator.step_limit, progress)
    size = len([t for t in found.script.split() if not t.startswith("prog_")])
    try:
        genes = evaluator.genome.genes(parse_registers(found.script))
    except PuzzlebotsError:  # a Ruby script beyond the level's slots (vaguery): kept as it is
        return RunResult(
            "climb",
            evaluator.level.name,
            seed,
            found.solved,
            found.iterations,
            found.script,
            size,
            size,
            found.score[0],
            0,
            0,
        )
    return _result("climb", evaluator, seed, found.solved, found.iterations, genes, 0, found.score[0])


def simplify(evaluator: Evaluator, genes: list[int]) -> tuple[list[int], int]:
    """Empty one register at a time while the program still wins; (simplified genes, programs run)."""
    runs = 0
    while True:
        tries = [genes[:i] + [0] + genes[i + 1 :] for i, g in enumerate(genes) if g]
        if not tries:
            return genes, runs
        out = evaluator.run(np.array(tries, np.int64))
        runs += len(tries)
        wins = np.flatnonzero(out.solved)
        if not len(wins):
            return genes, runs
        genes = tries[int(wins[0])]


def _result(
    method: str,
    evaluator: Evaluator,
    seed: int,
    solved: bool,
    used: int,
    genes: list[int],
    generations: int,
    best_error: int,
) -> RunResult:
    found_size = Genome.size(genes)
    runs = 0
    if solved:
        genes, runs = simplify(evaluator, list(genes))
    return RunResult(
        method,
        evaluator.level.name,
        seed,
        solved,
        used,
        evaluator.genome.text(genes),
        Genome.size(genes),
        found_size,
        0 if solved else int(best_error),
        generations,
        runs,
    )
