"""Recall: the registers a run fetched, in the order it fetched them (``Outcomes.fetch_order``), decide it, so the
GP takes a child that matches a program already run in those registers from memory instead of running it."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.games.cargobot.gp.evaluator import Evaluator, Outcomes
from puzzlebots.games.cargobot.gp.search import RECALL_LIMIT, GPOptions, Memory, gp
from puzzlebots.games.cargobot.levels import find_level

LEVELS = ["Inverter", "Mirror", "Count The Blues", "The Swap"]
EVALUATORS = {name: Evaluator(find_level(name), step_limit=300) for name in LEVELS}


def test_a_run_fetches_the_registers_it_reaches_and_no_others() -> None:
    ev = EVALUATORS["Inverter"]  # F1-F4 of 8, 8, 8, 5 registers
    out = ev.evaluate(["prog_1 R call1", "prog_1 claw R claw", "prog_1 call2 L prog_2 R"])
    assert np.flatnonzero(out.fetched[0]).tolist() == [0, 1]  # the loop never passes its call
    assert np.flatnonzero(out.fetched[1]).tolist() == list(range(8))  # F1 to its end; F2-F4 are never called
    assert np.flatnonzero(out.fetched[2]).tolist() == list(range(16))  # F1 and the F2 it calls
    assert out.fetch_order[2, :16].tolist() == [0, *range(9, 16), *range(1, 9)]  # F1's call, F2, the rest of F1
    assert Evaluator(find_level("Inverter"), semantics="vaguery").evaluate(["prog_1 R call1"]).fetched.all()


def same_runs(a: Outcomes, b: Outcomes) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in Outcomes.__dataclass_fields__ if f != "sizes")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(LEVELS), st.integers(0, 2**32 - 1))
def test_changing_registers_a_run_never_fetched_changes_nothing(name: str, seed: int) -> None:
    ev = EVALUATORS[name]
    rng = random.Random(seed)
    genes = [rng.randrange(ev.genome.symbols) if rng.random() < 0.5 else 0 for _ in range(ev.genome.length)]
    before = ev.run(np.array([genes]))
    unfetched = np.flatnonzero(~before.fetched[0]).tolist()
    changed = [rng.randrange(ev.genome.symbols) if i in unfetched else g for i, g in enumerate(genes)]
    assert same_runs(ev.run(np.array([changed])), before)


class Counting(Evaluator):
    """The real evaluator, counting the programs it is given."""

    ran = 0

    def run(self, genes: np.ndarray) -> Outcomes:
        self.ran += len(genes)
        return super().run(genes)


def test_recall_keeps_the_run_and_spends_fewer_evaluations() -> None:
    """The Swap, tuning seed 0: the same generations and winner with and without recall; with it, more than half
    of the children come from memory, and every evaluation counted is a program run."""
    with_recall, without = Counting(find_level("The Swap")), Counting(find_level("The Swap"))
    a, b = gp(with_recall, 20_000, 0, GPOptions()), gp(without, 20_000, 0, GPOptions(recall=False))
    assert a.solved and b.solved and a.program == b.program and a.generations == b.generations
    assert (a.evaluations, b.evaluations) == (6_740, 15_542)
    assert a.recalled == 9_002 and b.recalled == 0
    assert with_recall.ran - a.simplify_evaluations >= a.evaluations


def test_a_run_whose_children_are_all_recalled_still_ends() -> None:
    """Crossover alone in a population that has become one program forms only programs already run: the run ends
    once it has formed ``RECALL_LIMIT`` times its budget, not never."""
    ev = EVALUATORS["Mirror"]
    result = gp(ev, 1_000, 2, GPOptions(population=10, elite=0, crossover=1.0, mutation=0.0))
    assert not result.solved and result.evaluations < 1_000
    assert result.evaluations + result.recalled >= RECALL_LIMIT * 1_000


def test_memory_recalls_exactly_the_programs_that_read_the_same_registers_alike() -> None:
    """Against the evaluator itself: a child is recalled only with the results of a program its own run matches."""
    ev = EVALUATORS["Count The Blues"]
    rng = np.random.default_rng(7)
    kept = rng.integers(0, ev.genome.symbols, (300, ev.genome.length)) * (rng.random((300, ev.genome.length)) < 0.4)
    memory = Memory()
    out = ev.run(kept)
    for genes, errors, order in zip(kept.tolist(), out.errors.tolist(), out.fetch_order.tolist(), strict=True):
        memory.keep(genes, order, (tuple(errors), (0, 0)))
    children = kept.copy()
    flips = rng.random(children.shape) < 0.1
    children[flips] = rng.integers(0, ev.genome.symbols, int(flips.sum()))
    runs = ev.run(children)
    found = [memory.recall(genes) for genes in children.tolist()]
    assert sum(f is not None for f in found) > 50
    for known, errors in zip(found, runs.errors.tolist(), strict=True):
        assert known is None or known[0] == tuple(errors)
