"""The names the Puyo adapter lists without loading numpy agree with the rules and modules they stand for."""

from __future__ import annotations

from puzzlebots.games.puyo import names, pairs, rules
from puzzlebots.games.puyo.bots import krieg
from puzzlebots.games.puyo.kernels import chain_eval


def test_reach_rules_are_the_visible_rows() -> None:
    assert names.REACH_RULES == {"strict": rules.VISIBLE_ROWS - 1, "climb12": rules.VISIBLE_ROWS}


def test_the_listed_names_are_the_ones_used() -> None:
    assert pairs.SEQUENCES is names.SEQUENCES
    assert krieg.WEIGHT_NAMES is names.KRIEG_WEIGHT_NAMES
    assert chain_eval.WEIGHT_NAMES is names.CHAIN_WEIGHT_NAMES
    assert len(chain_eval.SIGNS) == len(chain_eval.HAND_WEIGHTS) == len(names.CHAIN_WEIGHT_NAMES)
