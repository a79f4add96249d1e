"""The one check of a refused command the file tests share: exit code 2 and a single ``error:`` line."""

from __future__ import annotations

from click.testing import CliRunner

from puzzlebots.cli import cli


def refused(*args: object) -> str:
    """Run the CLI; assert exit code 2 and a single ``error:`` line without a traceback; return that line."""
    result = CliRunner().invoke(cli, [str(a) for a in args])
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    return lines[0]
