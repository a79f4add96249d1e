"""The side-by-side script (benchmarks/cargobot_vs_elizarov.py) without his solver: its level switch on a file in his
format, its race of real processes (one ends, one is killed at its deadline), and its one-line refusals."""

import importlib.util
import os
import sys
import time

import pytest

from puzzlebots.cli.commands import benchmarks_dir
from puzzlebots.core.errors import PuzzlebotsError

SPEC = importlib.util.spec_from_file_location("cargobot_vs_elizarov", benchmarks_dir() / "cargobot_vs_elizarov.py")
assert SPEC is not None and SPEC.loader is not None
script = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(script)

HIS_FORMAT = """# a comment
# Solution of size 10 = [7, 3]
= P1 [ 2 N< N2 N> N2  <  1] P2 [ v  >  v]
-Crazy Divide by Two
4 0 2 0 6 0 4 0
2 2 1 1 3 3 2 2

+Crazy Merger
AAA 0 BBB
0 ABABAB 0
"""


def test_only_the_named_level_is_switched_on():
    text = script.his_level_file(HIS_FORMAT, "Divide by two")
    assert "+Crazy Divide by Two" in text and "-Crazy Merger" in text
    assert text.replace("+Crazy Divide", "-Crazy Divide").replace("-Crazy Merger", "+Crazy Merger") == HIS_FORMAT


@pytest.mark.parametrize(
    ("text", "name"), [(HIS_FORMAT, "Mirror"), (HIS_FORMAT + "-Easy Divide by two\n0\n0\n", "Divide by two")]
)
def test_a_level_not_there_once_is_refused(text, name):
    with pytest.raises(PuzzlebotsError, match="levels of that name"):
        script.his_level_file(text, name)


LATE = 300  # seconds the late racer would sleep if it were not killed


def test_race_reaps_the_finished_and_kills_the_late(tmp_path):
    cores = sorted(os.sched_getaffinity(0))
    """The late one sleeps ``LATE`` seconds: ending before that (the bound is its own life, not a budget a busy
    machine could reach) means it was killed at its 1 s limit; the quick one's limit is never reached."""
    quick = ([sys.executable, "-c", "pass"], cores[0], tmp_path / "quick.out", 600.0)
    late = ([sys.executable, "-c", f"import time; time.sleep({LATE})"], cores[-1], tmp_path / "late.out", 1.0)
    start = time.monotonic()
    done = script.race({"quick": quick, "late": late})
    assert time.monotonic() - start < LATE
    assert done["quick"][2] is False and done["late"][2] is True
    assert 1.0 <= done["late"][0] < LATE


def test_bad_arguments_are_one_error_line(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        script.main(["--java-solver", str(tmp_path)])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --java-solver") and err.count("\n") == 1
