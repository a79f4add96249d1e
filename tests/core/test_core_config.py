"""The config schema (core.config): each kind of field, the one wording, web keys and bounds, defaults kept."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzlebots.cli.app import cli
from puzzlebots.core import config as config_mod
from puzzlebots.core.config import Invalid, Schema, is_int, setting
from puzzlebots.core.errors import ConfigError
from puzzlebots.core.registry import get_game
from puzzlebots.core.runner import play_episode


@dataclass(frozen=True)
class Demo(Schema):
    """One field of each kind."""

    size: int = setting(3, "a ranged integer", range=(1, 9), flag="--size", web=True, web_max=5)
    colour: str = setting("red", "a choice", choices=("red", "blue"), flag="--colour", web=True)
    step: int = setting(2, "an integer choice", choices=(2, 3), flag="--step")
    fast: bool = setting(False, "a flag", flag="--fast/--slow")
    path: str = setting("", "a file", what="a path (or empty)", flag="--path")
    sizes: list[int] = setting(
        [1, 2],
        "two sizes",
        valid=lambda v: isinstance(v, list) and len(v) == 2 and all(is_int(x) and 1 <= x <= 9 for x in v),
        what="two sizes in 1..9",
    )
    speeds: dict[str, float] = setting(
        {"low": 0.5},
        "a speed map",
        valid=lambda v: isinstance(v, dict) and v.keys() == {"low"},
        what="a map of low to a speed",
    )

    @classmethod
    def cross_check(cls, config: Mapping[str, Any]) -> None:
        if config["colour"] == "blue" and config["size"] > 4:
            raise Invalid("size", "at most 4 when blue")


def check(raw: Mapping[str, Any], web: bool = False) -> dict[str, Any]:
    return config_mod.check(Demo, "demo", raw, web=web)


def test_defaults_are_fresh_plain_values() -> None:
    a = config_mod.defaults(Demo)
    assert a == {
        "size": 3,
        "colour": "red",
        "step": 2,
        "fast": False,
        "path": "",
        "sizes": [1, 2],
        "speeds": {"low": 0.5},
    }
    a["sizes"].append(7)
    assert config_mod.defaults(Demo)["sizes"] == [1, 2]
    assert check({"size": 4, "sizes": [9, 9]}) == {**config_mod.defaults(Demo), "size": 4, "sizes": [9, 9]}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"size": 0}, "demo: size must be an integer in 1..9, got 0"),
        ({"size": 10}, "demo: size must be an integer in 1..9, got 10"),
        ({"size": "3"}, "demo: size must be an integer in 1..9, got '3'"),
        ({"size": 3.0}, "demo: size must be an integer in 1..9, got 3.0"),
        ({"size": True}, "demo: size must be an integer in 1..9, got True"),  # a bool is never an integer
        ({"colour": "green"}, "demo: colour must be one of red, blue, got 'green'"),
        ({"step": 2.0}, "demo: step must be one of 2, 3, got 2.0"),
        ({"step": True}, "demo: step must be one of 2, 3, got True"),
        ({"fast": 1}, "demo: fast must be true or false, got 1"),
        ({"fast": "yes"}, "demo: fast must be true or false, got 'yes'"),
        ({"path": 5}, "demo: path must be a path (or empty), got 5"),
        ({"sizes": [1]}, "demo: sizes must be two sizes in 1..9, got [1]"),
        ({"sizes": [1, True]}, "demo: sizes must be two sizes in 1..9, got [1, True]"),
        ({"speeds": {"high": 1}}, "demo: speeds must be a map of low to a speed, got {'high': 1}"),
        ({"speeds": {1: 1, "low": 2}}, "demo: speeds must be a map of low to a speed, got {1: 1, 'low': 2}"),
        ({"colour": "blue", "size": 5}, "demo: size must be at most 4 when blue, got 5"),  # the cross-field hook
        ({"nope": 1}, "demo: unknown config key 'nope' (known: colour, fast, path, size, sizes, speeds, step)"),
        ({"size": "x" * 10_000}, f"demo: size must be an integer in 1..9, got '{'x' * 27}...{'x' * 28}'"),
    ],
)
def test_each_kind_of_field_has_one_wording(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        check(raw)
    assert str(info.value) == message


def test_web_sets_only_web_keys_within_web_bounds() -> None:
    assert config_mod.web_keys(Demo) == {"size", "colour"}
    assert check({"size": 5, "colour": "red"}, web=True)["size"] == 5
    assert check({"size": 9}) == {**config_mod.defaults(Demo), "size": 9}  # the bound is the web's only
    with pytest.raises(ConfigError) as info:
        check({"size": 6}, web=True)
    assert str(info.value) == "demo: size must be an integer in 1..5 on a web page, got 6"
    for key, value in (("path", "/etc/passwd"), ("fast", True), ("nope", 1)):
        with pytest.raises(ConfigError) as info:
            check({key: value}, web=True)
        assert str(info.value) == f"demo: a web page may not set {key!r}"


def test_cli_options_come_from_the_flags() -> None:
    opts = {o.key: o for o in config_mod.cli_options(Demo)}
    assert list(opts) == ["size", "colour", "step", "fast", "path"]
    assert opts["size"].flag == "--size" and opts["size"].type is int and opts["size"].help == "a ranged integer"
    assert isinstance(opts["colour"].type, click.Choice) and list(opts["colour"].type.choices) == ["red", "blue"]
    assert opts["step"].type is int  # click reads an integer; the choice is checked by check()
    assert opts["fast"].is_flag and opts["fast"].flag == "--fast/--slow"
    assert opts["path"].type is str


@pytest.mark.parametrize("kwargs", [{}, {"web_max": 3}, {"valid": bool}])
def test_a_setting_without_a_domain_is_refused_at_declaration(kwargs: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        setting(1, "an integer with no range", **kwargs)


# --------------------------------------------------------------------------- the real games

DEFAULTS = {
    "hatris": {
        "alexey": "multi_pile",
        "block_rule": "base_vs_top",
        "cash_in": False,
        "down": "hard_drop",
        "endless": True,
        "first_frame_counter": "random",
        "frames_helper": 60,
        "frames_helper_per_hat": 20,
        "frames_per_press": 1,
        "frames_per_release": 1,
        "frames_spawn": 0,
        "frames_vanish": 30,
        "hatris_bonus": 0,
        "helper_groups": "article",
        "hoard_below_px": 64,
        "hoard_stage": 8,
        "hoard_value": 1.0,
        "metric7_formula": "signed",
        "max_spawns": 20000,
        "min_run": 2,
        "nesting_reading": "base_offset",
        "norm": "bounds",
        "pair_source": "nes",
        "pool_overflow": "discard",
        "prng_retries_per_frame": 60,
        "prng_rotate": "circular8",
        "quota": 15,
        "quota_first_level": "fixed",
        "reach": "timeless",
        "refill": "uniform_no5",
        "shop_start": "6xShop_equal",
        "sort_dir": "desc_lr",
        "speed_base": 64,
        "speed_step": 3,
        "start_level": 0,
        "top_px": 128,
    },
    "yoshis_cookie": {
        "b_speed": 4.0,
        "board_file": "",
        "clear_incoming_aligned": True,
        "cursor_follows": True,
        "expert_types": 5,
        "frames_button": 1,
        "frames_clear": 30,
        "frames_contact": 8,
        "frames_cursor": 2,
        "frames_rotate": 8,
        "gen": "balanced",
        "incoming": "L_unit",
        "incoming_dist": "uniform",
        "max_continues": 100,
        "max_stages": 0,
        "meter_target": 5,
        "min_line": 2,
        "mode": "normal",
        "score_cookie": 10,
        "score_yoshi": 100,
        "shell_pos": "random",
        "size": 0,
        "speed": "medium",
        "speed_px_per_frame": {"high": 1.0, "low": 0.25, "medium": 0.5},
        "start_delay": 120,
        "start_round": 0,
        "start_size": [3, 3, 3, 4, 4, 4, 5, 5, 5, 6],
        "types_per_round": [3, 4, 5, 5, 5, 5, 5, 5, 5, 5],
        "yoshi_delivery": "next_incoming",
        "yoshi_fill": "last_resort",
    },
    "puyo": {
        "beam_depth": 6,
        "beam_fire_links": 0,
        "beam_samples": 3,
        "beam_width": 40,
        "builder_depth": 16,
        "builder_discount": 970,
        "builder_futures": 6,
        "builder_prune": 5000,
        "builder_width": 120,
        "duelist_bury_rows": 5,
        "duelist_crush": 39,
        "duelist_defend": 9,
        "duelist_depth": 16,
        "duelist_fire_links": 14,
        "duelist_futures": 4,
        "duelist_harass": 0,
        "duelist_harass_links": 4,
        "duelist_read_ahead": 9,
        "duelist_threat_growth": 7,
        "duelist_width": 120,
        "early_stop": 0,
        "k3_abandon_after": 8,
        "k3_colours": "fixed",
        "k3_fit": "left",
        "k3_legality": "delta",
        "k3_templates": "",
        "margin_targets": "reference",
        "n_colours": 4,
        "opening_3col_pairs": 2,
        "pairs": 50,
        "reach": "strict",
        "seq": "esports",
        "upi_grace_ms": 2000,
        "upi_ms": 1000,
        "versus_clock": "frames",
        "versus_frames": "nova",
        "visible": 2,
    },
    "cargobot": {},
    "cards": {"cards": 20},
}
WEB_KEYS = {
    "hatris": {"pair_source", "endless", "start_level", "max_spawns"},
    "yoshis_cookie": {"speed", "mode", "start_round", "max_stages", "size"},
    "puyo": {
        "pairs",
        "visible",
        "seq",
        "n_colours",
        "reach",
        "k3_colours",
        "k3_fit",
        "k3_legality",
        "beam_width",
        "beam_depth",
        "beam_samples",
        "builder_width",
        "builder_depth",
        "builder_futures",
        "duelist_width",
        "duelist_depth",
        "duelist_futures",
    },
    "cargobot": set(),
    "cards": {"cards"},
}
GAMES = sorted(DEFAULTS)


@pytest.mark.parametrize("name", GAMES)
def test_default_configs_are_unchanged(name: str) -> None:
    game = get_game(name)
    # JSON text, so a 4.0 that became 4 (or the reverse) shows too
    assert json.dumps(game.default_config(), sort_keys=True) == json.dumps(DEFAULTS[name], sort_keys=True)
    assert game.check_config({}) == DEFAULTS[name]


@pytest.mark.parametrize("name", GAMES)
def test_web_keys_and_their_defaults(name: str) -> None:
    game = get_game(name)
    assert game.web_config_keys() == WEB_KEYS[name]
    assert not any("file" in k or "template" in k for k in game.web_config_keys())  # never a key naming a file
    web = {k: DEFAULTS[name][k] for k in WEB_KEYS[name]}
    assert game.check_config(web, web=True) == DEFAULTS[name]  # every default is inside the web bounds
    for key, spec in config_mod.settings(game.config_schema).items():
        if spec.web_max is None:
            continue
        assert game.check_config({key: spec.web_max}, web=True)[key] == spec.web_max
        assert game.check_config({key: spec.web_max + 1})[key] == spec.web_max + 1
        with pytest.raises(ConfigError, match=f"^{name}: {key} must be an integer in .* on a web page, got "):
            game.check_config({key: spec.web_max + 1}, web=True)


@pytest.mark.parametrize(
    ("name", "raw", "message"),
    [
        ("hatris", {"start_level": 60}, "hatris: start_level must be an integer in 0..59, got 60"),
        ("hatris", {"pair_source": "dice"}, "hatris: pair_source must be one of nes, uniform, got 'dice'"),
        ("hatris", {"cash_in": 0}, "hatris: cash_in must be true or false, got 0"),
        (
            "hatris",
            {"first_frame_counter": 70000},
            "hatris: first_frame_counter must be 'random' or a frame count in 0..65535, got 70000",
        ),
        ("hatris", {"min_run": True}, "hatris: min_run must be one of 2, 3, got True"),
        ("hatris", {"hoard_value": -0.5}, "hatris: hoard_value must be a number >= 0, got -0.5"),
        ("hatris", {"hoard_value": True}, "hatris: hoard_value must be a number >= 0, got True"),
        ("yoshis_cookie", {"expert_types": 6}, "yoshis_cookie: expert_types must be an integer in 2..5, got 6"),
        ("yoshis_cookie", {"speed": "fast"}, "yoshis_cookie: speed must be one of low, medium, high, got 'fast'"),
        ("yoshis_cookie", {"cursor_follows": 1}, "yoshis_cookie: cursor_follows must be true or false, got 1"),
        ("yoshis_cookie", {"size": 1}, "yoshis_cookie: size must be 2-7 (or 0 for the per-stage table), got 1"),
        (
            "yoshis_cookie",
            {"start_size": [3] * 9},
            "yoshis_cookie: start_size must be 10 sizes in 2-7 (stages 1-10), got [3, 3, 3, 3, 3, 3, 3, 3, 3]",
        ),
        (
            "yoshis_cookie",
            {"types_per_round": [6] * 10},
            "yoshis_cookie: types_per_round must be 10 counts in 2-5 (rounds 1-10), got [6, 6, 6, 6, 6, 6, 6, 6, 6, 6]",
        ),
        (
            "yoshis_cookie",
            {"speed_px_per_frame": {"low": 0.3, "medium": 0.5, "high": 1.0}},
            "yoshis_cookie: speed_px_per_frame must be a map of low, medium, high to positive multiples of "
            "0.25 px/frame, "
            "got {'high': 1.0, 'low': 0.3, 'medium': 0.5}",
        ),
        ("yoshis_cookie", {"b_speed": 0}, "yoshis_cookie: b_speed must be a positive multiple of 0.25 px/frame, got 0"),
        ("yoshis_cookie", {"board_file": None}, "yoshis_cookie: board_file must be a path (or empty), got None"),
        ("yoshis_cookie", {"start_round": 11}, "yoshis_cookie: start_round must be 0 or 1..10 in normal mode, got 11"),
        (
            "yoshis_cookie",
            {"mode": "expert", "start_round": 3},
            "yoshis_cookie: start_round must be 0 or 11..99 in expert mode, got 3",
        ),
        ("puyo", {"pairs": 0}, "puyo: pairs must be an integer in 1..100000, got 0"),
        ("puyo", {"reach": "fly"}, "puyo: reach must be one of strict, climb12, got 'fly'"),
        (
            "puyo",
            {"k3_templates": 3},
            "puyo: k3_templates must be a file path (or empty for the shipped templates), got 3",
        ),
        (
            "puyo",
            {"colours": 4},
            "puyo: unknown config key 'colours' (known: beam_depth, beam_fire_links, beam_samples, "
            "beam_width, builder_depth, builder_discount, builder_futures, builder_prune, builder_width, "
            "duelist_bury_rows, "
            "duelist_crush, duelist_defend, duelist_depth, duelist_fire_links, duelist_futures, duelist_harass, "
            "duelist_harass_links, duelist_read_ahead, duelist_threat_growth, duelist_width, early_stop, "
            "k3_abandon_after, k3_colours, k3_fit, k3_legality, k3_templates, margin_targets, n_colours, "
            "opening_3col_pairs, pairs, reach, seq, upi_grace_ms, upi_ms, versus_clock, versus_frames, visible)",
        ),
        ("cargobot", {"level": 1}, "cargobot: unknown config key 'level' (known: none)"),
        ("cards", {"cards": 0}, "cards: cards must be an integer in 1..1000, got 0"),
    ],
)
def test_one_wording_across_games(name: str, raw: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        get_game(name).check_config(raw)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["stats", "puyo", "--pairs", "0"], "error: puyo: pairs must be an integer in 1..100000, got 0"),
        (
            ["stats", "yoshis_cookie", "--size", "9"],
            "error: yoshis_cookie: size must be 2-7 (or 0 for the per-stage table), got 9",
        ),
        (
            ["watch", "yoshis_cookie", "--mode", "expert", "--start-round", "2"],
            "error: yoshis_cookie: start_round must be 0 or 11..99 in expert mode, got 2",
        ),
        (
            ["stats", "hatris", "--start-level", "60"],
            "error: Invalid value for '--start-level': 60 is not in the range",
        ),
    ],
)
def test_bad_config_on_the_command_line_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, [*args, "--quiet"] if args[0] == "stats" else args)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith(message), result.output
    assert "Traceback" not in result.output


def test_a_hatris_episode_checks_its_config_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = config_mod.check

    def counting(*args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(config_mod, "check", counting)
    episode = play_episode("hatris", "searcher", 0, {"max_spawns": 5})  # Rules in new_state and make_bot
    assert episode.result["spawns"] == 5
    assert calls == ["hatris"]


# --------------------------------------------------------------------------- random raw configs


def _near_domains(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """Configs of a few real keys, each with a value near its domain (default, choices, range ends, one past)."""
    near = {}
    for key, spec in config_mod.settings(get_game(name).config_schema).items():
        values = [DEFAULTS[name][key], *spec.choices]
        if spec.range is not None:
            lo, hi = spec.range
            values += [lo, hi, lo - 1, hi + 1]
        if spec.web_max is not None:
            values += [spec.web_max, spec.web_max + 1]
        near[key] = st.sampled_from(values)
    return st.sets(st.sampled_from(sorted(near)), max_size=4).flatmap(
        lambda keys: st.fixed_dictionaries({k: near[k] for k in keys})
    )


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=11) | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4)
    ),
    max_leaves=15,
)
#: random configs per game (drawing nested JSON is most of the cost; each game's every key is also drawn near its
#: domain by ``_near_domains``)
EXAMPLES = 160
#: per game, how many random configs validated and how many were refused
_outcomes: dict[str, Counter[str]] = {name: Counter() for name in GAMES}


@pytest.mark.parametrize("name", GAMES)
def test_random_raw_configs_validate_or_raise_one_line(name: str) -> None:
    game = get_game(name)
    keys = st.sampled_from([*DEFAULTS[name], "bogus", "k3_templates "]) | st.text(max_size=8)
    raws = _near_domains(name) if DEFAULTS[name] else st.just({})
    raws |= st.dictionaries(keys, _json, max_size=5)
    known = ", ".join(DEFAULTS[name])

    @settings(max_examples=EXAMPLES, deadline=None)
    @given(raw=raws, web=st.booleans())
    def run(raw: dict[Any, Any], web: bool) -> None:
        try:
            checked = game.check_config(raw, web=web)
        except ConfigError as exc:
            text = str(exc)
            # one line: what the input adds is capped (a value or key is shown shortened), so the line is at most
            # the list of known keys an unknown key names plus a little
            assert text.startswith(f"{name}: ") and "\n" not in text and len(text) < max(600, 200 + len(known))
            _outcomes[name]["refused"] += 1
            return
        _outcomes[name]["valid"] += 1
        assert set(checked) == set(DEFAULTS[name]) and json.loads(json.dumps(checked)) == checked
        assert not web or set(raw) <= WEB_KEYS[name]
        assert game.check_config(checked) == checked  # a checked config checks again unchanged

    run()
    print(name, dict(_outcomes[name]))
    assert sum(_outcomes[name].values()) >= EXAMPLES and _outcomes[name]["valid"] and _outcomes[name]["refused"]


def test_a_config_read_from_a_file_may_not_name_another_file() -> None:
    """A replay's header is a file a stranger may have written: it must not make the game read /etc/passwd."""
    for game, key in (("puyo", "k3_templates"), ("yoshis_cookie", "board_file")):
        g = get_game(game)
        with pytest.raises(ConfigError, match=f"^{game}: {key} names a file, which only the command line may set$"):
            g.check_config({key: "/etc/passwd"}, files=False)
        assert g.check_config({key: ""}, files=False)[key] == ""  # the default is no file: fine
        assert g.check_config({key: "/etc/passwd"})[key] == "/etc/passwd"  # the command line may


def test_a_replay_naming_a_file_is_refused_before_anything_is_read(tmp_path) -> None:
    from puzzlebots.core.replay import check_replay, read_replay

    path = tmp_path / "r.jsonl"
    header = {
        "type": "header",
        "format": 1,
        "game": "puyo",
        "rules_version": "tsu-1",
        "bot": "krieg3",
        "seed": 1,
        "hash_every": 10,
        "config": {"k3_templates": "/etc/passwd"},
    }
    path.write_text(json.dumps(header) + "\n" + json.dumps({"type": "end", "decisions": 0, "result": {}}) + "\n")
    with pytest.raises(ConfigError, match="k3_templates names a file"):
        check_replay(read_replay(path))
