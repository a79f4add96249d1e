"""Acceptance corpus: every Ruby emulator case and every CrateStacks metric case, kernel and oracle."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzlebots.games.cargobot import metrics
from puzzlebots.games.cargobot.engine import run_vaguery
from puzzlebots.games.cargobot.language import parse_script

DATA = Path(__file__).parent.parent / "data" / "cargobot"
VAGUERY = [json.loads(line) for line in (DATA / "vaguery_cases.jsonl").read_text().splitlines() if line.strip()]
DISTANCE = [json.loads(line) for line in (DATA / "distance_cases.jsonl").read_text().splitlines() if line.strip()]


def test_corpus_sizes() -> None:
    assert len(VAGUERY) == 29
    assert len(DISTANCE) == 41


@pytest.mark.parametrize("engine", ["kernel", "python"])
@pytest.mark.parametrize("case", VAGUERY, ids=[c["id"] for c in VAGUERY])
def test_vaguery_case(case: dict, engine: str) -> None:
    program = case["subroutines"] if "subroutines" in case else parse_script(case["script"])
    expect = case["expect"]
    if "program" in expect:
        assert program == expect["program"]
    if "program_length" in expect:
        assert len(program) == expect["program_length"]
    if not case["activate"]:
        return
    report = run_vaguery(
        program,
        case["stacks"],
        case.get("goal"),
        case["claw"],
        fragile=case["fragile"],
        unstable=case["unstable"],
        height_limit=case["height_limit"],
        step_limit=case["step_limit"],
        engine=engine,
    )
    got = report.to_json()
    checked = [k for k in expect if k in got]
    assert checked or set(expect) <= {"program", "program_length", "raises"}
    for key in checked:
        assert got[key] == expect[key], key


METRIC = {
    "cleanup_box": lambda o, t, a: metrics.crate_cleanup_error(o, t, a["stack"], a["box"]),
    "cleanup_stack": lambda o, t, a: metrics.stack_cleanup_error(o, t, a["stack"]),
    "cleanup_total": lambda o, t, a: metrics.cleanup_error(o, t),
    "rebuild": lambda o, t, a: metrics.rebuild_distance(o, t),
    "teardown": lambda o, t, a: metrics.teardown_distance(o, t),
}


@pytest.mark.parametrize("case", DISTANCE, ids=[c["id"] for c in DISTANCE])
def test_distance_case(case: dict) -> None:
    assert METRIC[case["metric"]](case["observed"], case["target"], case["args"]) == case["expect"]


def test_metrics_need_enough_observed_piles() -> None:
    from puzzlebots.core.errors import InputError

    with pytest.raises(InputError):
        metrics.rebuild_distance([["r"]], [["r"], []])
