"""A game's own options (from its config schema) show their default and their domain in ``--help``."""

from __future__ import annotations

from click.testing import CliRunner

from puzzlebots.cli import cli


def help_text(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def test_ranged_choice_and_flag_options_show_their_defaults() -> None:
    text = help_text("stats", "hatris")
    assert "--start-level INTEGER RANGE level to start on (0-59) [default: 0; 0<=x<=59]" in text
    assert "--pairs [nes|uniform]" in text and "uniform random pairs [default: nes]" in text
    assert "(survival statistics) [default: endless]" in text


def test_an_option_whose_type_does_not_show_its_domain_shows_it_in_words() -> None:
    text = help_text("watch", "yoshis_cookie")
    assert "--start-round INTEGER first round (0: the mode's first) [default: 0; an integer in 0..99]" in text
    assert '(empty: none) [default: ""]' in text
