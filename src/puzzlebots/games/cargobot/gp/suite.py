"""The benchmark suite (``cargobot bench-gp``): methods x levels x seeded runs at one budget of program
evaluations, as genetic-programming benchmarks are judged (PSB2: success rate over seeded runs at a fixed budget).

Run ``r`` of every method on a level has seed ``seed + r``, so the methods are paired level by level. The
exhaustive solver is the reference, not a run: its best known size (``Level.best_known``, which ``solve --all``
reaches on every level) is what the winners' sizes are set against. On a family (``families.py``) a run trains
on the family's training boards and a winner is also run on its test boards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median
from typing import Any

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import show

from ..levels import Level
from .evaluator import Evaluator
from .families import FAMILIES, split
from .search import GPOptions, climb, gp, random_search

#: the searching methods, in the tables' order
METHODS = ("random", "climb", "gp-tournament", "gp-lexicase")
RECORD_KEYS = {"seed": int, "task": list, "solved": bool, "evaluations": int, "size": int, "program": str}


@dataclass(frozen=True)
class Plan:
    """What every run of a suite shares."""

    evaluations: int
    semantics: str = "game"
    step_limit: int | None = None
    population: int = GPOptions.population
    family: bool = False

    def gp_options(self, method: str) -> GPOptions:
        return GPOptions(population=self.population, selection=method.removeprefix("gp-"))


def check_methods(names: Sequence[str], family: bool) -> tuple[str, ...]:
    unknown = [m for m in names if m not in METHODS]
    if unknown or not names:
        raise InputError(f"unknown method {show(unknown[0] if unknown else '')} ({', '.join(METHODS)})")
    if family and "climb" in names:
        raise InputError("the hill climber runs on one board: leave climb out of a --families suite")
    return tuple(dict.fromkeys(names))


def check_family_levels(levels: Sequence[Level]) -> None:
    missing = [lv.name for lv in levels if lv.name not in FAMILIES]
    if missing:
        raise InputError(f"level {show(missing[0])} has no family ({', '.join(FAMILIES)})")


def run_one(index: int, method: str, level: Level, seed: int, plan: Plan) -> dict[str, Any]:
    """One seeded run of a method on a level, as a JSON record (``seed``: its index among the suite's runs)."""
    train, test = split(level, seed) if plan.family else (None, [])
    with Evaluator(level, train, semantics=plan.semantics, step_limit=plan.step_limit) as evaluator:
        if method == "random":
            result = random_search(evaluator, plan.evaluations, seed)
        elif method == "climb":
            result = climb(evaluator, plan.evaluations, seed)
        else:
            result = gp(evaluator, plan.evaluations, seed, plan.gp_options(method))
    record = result.to_json() | {"seed": index, "task": [method, level.name, seed], "best_known": level.best_known}
    if plan.family:
        record["test_boards"] = len(test)
        record["test_solved"] = None
        if result.solved:
            tested = Evaluator(level, test, semantics=plan.semantics, step_limit=plan.step_limit)
            record["test_solved"] = int(tested.evaluate([result.program]).outcome[0].tolist().count(0))
    return record


def checked_record(tasks: Sequence[tuple[str, str, int]]) -> Any:
    """The check ``read_progress`` runs on a record read back: this suite's run at its index, the fields typed."""

    def check(value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict) or any(not isinstance(value.get(k), t) for k, t in RECORD_KEYS.items()):
            raise InputError(f"{where}: not a bench-gp run record")
        index = value["seed"]
        if not 0 <= index < len(tasks) or value["task"] != list(tasks[index]):
            raise InputError(f"{where}: run {show(value['task'])} is not run {index} of this suite")
        return value

    return check


def summarize(
    records: Sequence[dict[str, Any]], methods: Sequence[str], levels: Sequence[Level], runs: int
) -> list[dict[str, Any]]:
    """Per level and method: runs, wins, success rate, median evaluations to the first win and median winner size
    (None without a win), best known size, and on families the share of test boards the winners won."""
    rows = []
    for level in levels:
        for method in methods:
            mine = [r for r in records if r["task"][0] == method and r["task"][1] == level.name]
            wins = [r for r in mine if r["solved"]]
            tested = [(r["test_solved"], r["test_boards"]) for r in wins if r.get("test_boards")]
            rows.append(
                {
                    "level": level.name,
                    "method": method,
                    "runs": len(mine),
                    "solved": len(wins),
                    "success": len(wins) / runs,
                    "median_evaluations": median(r["evaluations"] for r in wins) if wins else None,
                    "median_size": median(r["size"] for r in wins) if wins else None,
                    "best_known": level.best_known,
                    "test_share": sum(a for a, _ in tested) / sum(b for _, b in tested) if tested else None,
                    "winners_general": sum(a == b for a, b in tested) if tested else None,
                }
            )
    return rows


def half_solved(rows: Sequence[dict[str, Any]], method: str) -> list[str]:
    """Levels the method solved in at least half its runs."""
    return [r["level"] for r in rows if r["method"] == method and r["runs"] and 2 * r["solved"] >= r["runs"]]


def paired(rows: Sequence[dict[str, Any]], first: str, second: str) -> list[tuple[str, float, float]]:
    """(level, first's median evaluations, second's) on the levels both solved at least once."""
    by = {(r["method"], r["level"]): r for r in rows}
    return [
        (level, by[first, level]["median_evaluations"], by[second, level]["median_evaluations"])
        for (method, level) in by
        if method == first and (second, level) in by and by[first, level]["solved"] and by[second, level]["solved"]
    ]


def success_curve(
    records: Sequence[dict[str, Any]], method: str, budget: int, points: int = 60
) -> tuple[list[int], list[float]]:
    """(evaluations, share of the method's runs that had won by then), for the plot."""
    mine = [r for r in records if r["task"][0] == method]
    grid = sorted({max(1, round(budget ** (k / (points - 1)))) for k in range(points)})
    return grid, [sum(r["solved"] and r["evaluations"] <= x for r in mine) / max(1, len(mine)) for x in grid]
