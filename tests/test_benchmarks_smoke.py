"""Every benchmark script still runs (quick mode) and prints its table: benchmarks must not rot.

Speed targets are read off `make bench`, never asserted here: the machines are shared and noisy.
"""

import pytest
from click.testing import CliRunner

from puzzlebots.cli import cli
from puzzlebots.cli.commands import benchmarks_dir

NAMES = sorted(p.stem[len("bench_") :] for p in benchmarks_dir().glob("bench_*.py"))


@pytest.mark.parametrize("name", NAMES)
def test_benchmark_runs_in_quick_mode(name):
    result = CliRunner().invoke(cli, ["bench", name, "--quick"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"benchmark: {name}" in result.output and "┃" in result.output  # a rich table was printed


def test_unknown_benchmark_is_refused():
    result = CliRunner().invoke(cli, ["bench", "nope"])
    assert result.exit_code == 2 and "unknown benchmark 'nope'" in result.output
