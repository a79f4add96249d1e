"""The GP evaluator against the oracle (differential, hypothesis), genomes always legal, the GP's wins replaying
through the engine, seeded runs independent of the worker count, level families."""

from __future__ import annotations

import random

import numpy as np
import pytest
from deap import base, tools
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot.engine import Rules, run, run_level
from puzzlebots.games.cargobot.gp import lexicase
from puzzlebots.games.cargobot.gp.evaluator import SEARCH_STEP_LIMIT, Evaluator
from puzzlebots.games.cargobot.gp.families import FAMILIES, split
from puzzlebots.games.cargobot.gp.genome import Genome
from puzzlebots.games.cargobot.gp.lexicase import AUTOMATIC, EPSILON, PLAIN, select
from puzzlebots.games.cargobot.gp.search import (
    GPOptions,
    Individual,
    gp,
    random_genes,
    random_genomes,
    random_search,
    seeded,
)
from puzzlebots.games.cargobot.levels import find_level, load_levels
from puzzlebots.games.cargobot.metrics import METRICS, stack_cleanup_error
from puzzlebots.games.cargobot.rules import OUTCOMES

LEVELS = ["Cargo 101", "Inverter", "Color Sort", "Mirror", "Count The Blues", "Equalizer"]
EVALUATORS: dict[tuple[str, str], Evaluator] = {}


def evaluator(name: str, semantics: str) -> Evaluator:
    if (name, semantics) not in EVALUATORS:
        EVALUATORS[name, semantics] = Evaluator(find_level(name), semantics=semantics, step_limit=300)
    return EVALUATORS[name, semantics]


def pile_error(final: list[list[str]], goal: list[list[str]], s: int) -> int:
    """The case error as documented: Ruby's stack cleanup error, 100 per crate too many or few, 1 if wrong."""
    h, w = len(final[s]), len(goal[s])
    return stack_cleanup_error(final, goal, s + 1) + 100 * abs(h - w) + (final[s] != goal[s])


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(LEVELS), st.sampled_from(["game", "vaguery"]), st.data())
def test_errors_and_outcomes_match_the_oracle(name: str, semantics: str, data: st.DataObject) -> None:
    ev = evaluator(name, semantics)
    genes = data.draw(
        st.lists(
            st.lists(st.integers(0, ev.genome.symbols - 1), min_size=ev.genome.length, max_size=ev.genome.length),
            min_size=1,
            max_size=4,
        )
    )
    out = ev.run(np.array(genes))
    level = ev.level
    for p, g in enumerate(genes):
        report = run(
            Rules(semantics, step_limit=300),
            ev.genome.text(g),
            level.board(),
            level.goal_board(),
            level.claw,
            functions=ev.genome.functions,
            engine="python",
        )
        goal = level.goal_board()
        assert OUTCOMES[out.outcome[p, 0]] == report.outcome
        assert (out.steps[p, 0], out.crashes[p, 0], out.topples[p, 0]) == (report.steps, report.crashes, report.topples)
        for metric in ("rebuild", "teardown", "cleanup"):
            assert getattr(out, metric)[p, 0] == METRICS[metric](report.stacks, goal)
        assert out.errors[p].tolist() == [pile_error(report.stacks, goal, s) for s in range(len(goal))]
        assert (out.errors[p] == 0).all() == (report.stacks == goal)
        assert out.sizes[p] == Genome.size(g)


def test_family_cases_are_boards_and_sum_their_piles() -> None:
    level = find_level("Inverter")
    train, _ = split(level, 5)
    ev = Evaluator(level, train)
    program = "R call2 call2 call2 call2 call1 prog_2 L claw R claw"
    out = ev.evaluate([program])
    assert out.errors.shape == (1, len(train)) and ev.cases == len(train)
    for b, (claw, stacks, goal) in enumerate(train):
        report = run(
            Rules(step_limit=SEARCH_STEP_LIMIT["game"]),
            program,
            [list(p) for p in stacks],
            [list(p) for p in goal],
            claw,
            engine="python",
        )
        wanted = [list(p) for p in goal]
        assert out.errors[0, b] == sum(pile_error(report.stacks, wanted, s) for s in range(len(goal)))
        assert OUTCOMES[out.outcome[0, b]] == report.outcome


def test_every_program_form_reads_to_the_same_genome() -> None:
    ev = evaluator("Inverter", "game")
    text = "R call2 call2 call2 call2 call1 prog_2 L claw R claw"
    genes = ev.genome.read(text)
    lists = [[["right", None], ["f2", None]], [["left", None], ["pickup", None]]]
    assert ev.genome.text(genes) == text
    assert ev.genome.read(genes) == genes
    assert ev.genome.text(ev.genome.read(lists)) == "R call2 prog_2 L claw"
    assert ev.evaluate([text, genes]).solved.tolist() == [True, True]


@pytest.mark.parametrize(
    "program, message",
    [
        ("claw_blue", "not in the level's toolbox"),
        ("R R R R R R R R R", "F1 has 9 registers"),
        ("call9", "not in the level.s toolbox"),
        ("jump", "unknown token"),
        ([0, 1], "genes"),
        ([[["pickup", None]], 5], "expected program text"),
        ([10**6] * 29, "outside"),
    ],
)
def test_a_hostile_program_is_one_input_error(program: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        evaluator("Inverter", "game").evaluate([program])  # type: ignore[list-item]


def test_a_hostile_genome_array_is_refused() -> None:
    ev = evaluator("Inverter", "game")
    with pytest.raises(InputError, match="genes must lie"):
        ev.run(np.full((2, ev.genome.length), -1))
    with pytest.raises(InputError, match="expected"):
        ev.run(np.zeros((2, 3), np.int64))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(LEVELS))
def test_random_genomes_are_legal_programs_of_their_level(seed: int, name: str) -> None:
    level = find_level(name)
    genome = Genome.of(level)
    rng = random.Random(seed)
    genes = [rng.randrange(genome.symbols) for _ in range(genome.length)]
    level.check_program(genome.registers(genes))
    text = genome.text(genes)
    assert genome.text(genome.read(text)) == text  # read back with the empty registers dropped
    assert Genome.size(genome.read(text)) == Genome.size(genes)


@pytest.mark.parametrize("semantics", ["game", "vaguery"])
@pytest.mark.parametrize("selection", ["lexicase", "tournament", "auto-epsilon"])
def test_gp_wins_replay_through_the_engine(semantics: str, selection: str) -> None:
    level = find_level("Transporter")
    ev = Evaluator(level, semantics=semantics)
    result = gp(ev, 3_000, 2, GPOptions(population=100, selection=selection))
    assert result.solved and result.evaluations <= 3_000 and result.size <= result.found_size
    report = run_level(level, result.program, Rules(semantics, step_limit=ev.step_limit), engine="python")
    assert report.solved


DEAP_LEXICASE = {
    PLAIN: tools.selLexicase,
    EPSILON: lambda people, k: tools.selEpsilonLexicase(people, k, 1.0),
    AUTOMATIC: tools.selAutomaticEpsilonLexicase,
}


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda cases: st.lists(st.lists(st.integers(0, 4), min_size=cases, max_size=cases), min_size=1, max_size=30)
    ),
    st.sampled_from([PLAIN, EPSILON, AUTOMATIC]),
    st.integers(0, 2**32),
)
def test_lexicase_selects_what_deap_selects_from_the_same_state(errors: list[list[int]], mode: int, seed: int) -> None:
    fitness = type("Fitness", (base.Fitness,), {"weights": (-1.0,) * len(errors[0])})
    people = []
    for row, values in enumerate(errors):
        person = Individual([row])
        person.fitness = fitness(tuple(values))
        people.append(person)
    random.seed(seed)
    expected = [p[0] for p in DEAP_LEXICASE[mode](people, 25)]
    after = random.random()
    random.seed(seed)
    assert select(np.array(errors), 25, mode, 1.0) == expected
    assert random.random() == after


def test_gp_is_seeded_and_leaves_random_as_it_was() -> None:
    ev = evaluator("Inverter", "game")
    random.seed(11)
    before = random.random()
    random.seed(11)
    first = gp(ev, 1_000, 4, GPOptions(population=50))
    assert random.random() == before
    assert gp(ev, 1_000, 4, GPOptions(population=50)) == first
    assert first.evaluations <= 1_000


def test_lexicase_selects_on_each_pile_and_the_whole_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``board_case`` (the default) the cases are the evaluator's and the board's rebuild distance."""
    seen: list[np.ndarray] = []
    real = lexicase.select
    monkeypatch.setattr(lexicase, "select", lambda errors, *rest: seen.append(errors) or real(errors, *rest))
    ev = evaluator("Mirror", "game")
    gp(ev, 200, 5, GPOptions(population=100))
    with seeded(5):
        first = random_genomes(ev.genome, GPOptions.empty, GPOptions.condition, 100)
    out = ev.run(first)
    expected = {(*e, r) for e, r in zip(out.errors.tolist(), out.rebuild.sum(axis=1).tolist(), strict=True)}
    assert seen[0].shape[1] == ev.cases + 1 and {tuple(row) for row in seen[0].tolist()} == expected
    seen.clear()
    gp(ev, 200, 5, GPOptions(population=100, board_case=False))
    assert {tuple(row) for row in seen[0].tolist()} == {tuple(e) for e in out.errors.tolist()}


def test_the_board_case_is_what_wins_the_swap() -> None:
    """The Swap, tuning seed 0: the per-pile cases alone reward single piles put right, which the swap must undo;
    with the board's distance as a case the run wins in 6,740 programs (15,542 without recall), without it not in
    20,000."""
    ev = Evaluator(find_level("The Swap"))
    won = gp(ev, 20_000, 0, GPOptions())
    assert won.solved and won.evaluations == 6_740
    assert not gp(ev, 20_000, 0, GPOptions(board_case=False)).solved


def test_gp_with_two_worker_processes_gives_the_same_run() -> None:
    level = find_level("Inverter")
    with Evaluator(level, jobs=2) as two:
        assert gp(two, 600, 3, GPOptions(population=60)) == gp(Evaluator(level), 600, 3, GPOptions(population=60))


def test_random_search_counts_its_evaluations() -> None:
    result = random_search(evaluator("Mirror", "game"), 1_500, 0)
    assert not result.solved and result.evaluations == 1_500


@pytest.mark.parametrize("name", list(FAMILIES))
def test_families_are_seeded_distinct_and_keep_the_level_first(name: str) -> None:
    level = find_level(name)
    train, test = split(level, 3)
    assert (train, test) == split(level, 3)
    assert train[0] == (level.claw, level.stacks, level.goal)
    boards = [(s, g) for _, s, g in train + test]
    assert len(set(boards)) == len(boards)
    for _, stacks, goal in train + test:
        assert sorted(c for p in stacks for c in p) == sorted(c for p in goal for c in p)
        assert len(stacks) == len(level.stacks)


def test_a_rule_program_wins_its_whole_family() -> None:
    level = find_level("Re-Curses")
    train, test = split(level, 0)
    assert Evaluator(level, train + test).evaluate(["claw R claw L call1"]).solved.all()


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**40),
    st.sampled_from([lv.name for lv in load_levels() if not lv.subproblem]),
    st.floats(0.0, 1.0),
    st.floats(0.0, 1.0),
    st.integers(1, 60),
)
def test_random_genomes_are_random_genes_drawn_one_after_another(
    seed: int, name: str, empty: float, condition: float, count: int
) -> None:
    """The numba draw against the Python one: the same genomes, and Python's ``random`` left in the same state."""
    genome = Genome.of(find_level(name))
    with seeded(seed):
        expected = [random_genes(genome, empty, condition) for _ in range(count)]
        after, follows = random.getstate(), random.random()
    with seeded(seed):
        drawn = random_genomes(genome, empty, condition, count)
        assert drawn.tolist() == expected and random.getstate() == after and random.random() == follows


@pytest.mark.parametrize("condition", [0.0, 0.2, 1.0])
def test_a_drawn_register_carries_a_condition_at_the_chance_asked(condition: float) -> None:
    """Every command comes up, bare or with each of the level's conditions, in the shares the draw asks for
    (Walking Piles: 7 commands with its calls, 2 conditions)."""
    genome = Genome.of(find_level("Walking Piles"))
    with seeded(7):
        genes = random_genomes(genome, 0.0, condition, 2_000).ravel()
    registers = [genome.alphabet[g - 1] for g in genes]
    conditioned = sum(1 for _, k in registers if k is not None) / len(registers)
    assert conditioned == pytest.approx(condition, abs=0.01)
    assert {c for c, _ in registers} == {c for c, _ in genome.alphabet}
    if condition:
        assert {k for _, k in registers if k is not None} == set(find_level("Walking Piles").conditions)
