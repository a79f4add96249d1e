"""Both readings of the program syntax: the quirky Ruby parser/dispatch and the strict register parser."""

from __future__ import annotations

import pytest

from puzzlebots.core.errors import InputError
from puzzlebots.games.cargobot.language import (
    Token,
    decode_token,
    format_registers,
    format_script,
    parse_registers,
    parse_script,
    register_count,
    registers_to_lists,
    registers_to_script,
)


def test_readme_example() -> None:
    assert parse_script("R prog_4 L_red claw call3 prog_2 claw prog_1 R_any call2") == [
        ["R", "R_any", "call2"],
        ["claw"],
        [],
        ["L_red", "claw", "call3"],
    ]


def test_parser_quirks() -> None:
    assert parse_script("a-b,c;prog_2;x") == [["a", "b", "c"], ["x"]]
    assert parse_script("R prog_10 L") == [["R", "L"]]  # only the first digit is read
    assert parse_script("prog_3 R prog_0 L") == [[], [], ["R", "L"]]  # prog_0: the last subroutine
    assert parse_script("xprog_2y R") == [[], ["R"]]


@pytest.mark.parametrize(
    ("token", "decoded"),
    [
        ("R", Token("R")),
        ("L_red", Token("L", "red")),
        ("L_", Token("L")),
        ("xL_red", Token("L", "red")),
        ("claw_Red", Token("R", "ed")),
        ("call2_Red", Token("R", "ed")),
        ("call10", Token("call", "0", 1)),
        ("call0", Token("call", "", 0)),
        ("claw_any", Token("claw", "any")),
        ("r", Token("nop")),
        ("call3_none", Token("call", "none", 3)),
    ],
)
def test_ruby_dispatch(token: str, decoded: Token) -> None:
    assert decode_token(token) == decoded


def test_script_roundtrip() -> None:
    program = [["R", "call2"], [], ["claw_red", "L"]]
    assert parse_script(format_script(program)) == program


def test_register_forms_agree() -> None:
    text = "claw R_none L_any call1 prog_2 claw_blue"
    program = parse_registers(text)
    assert program == ((("pickup", None), ("right", "none"), ("left", "any"), ("f1", None)), (("pickup", "blue"),))
    assert format_registers(program) == text
    assert parse_registers(str(registers_to_lists(program)).replace("None", "null").replace("'", '"')) == program
    saved = parse_registers("(pickup,)(right,none)(left,multi)(f1,)(,)\n(pickup,blue)")
    assert saved[0][4] == (None, None)
    assert format_registers(saved) == text
    assert register_count(program) == 5
    assert registers_to_script(program) == [["claw", "R_none", "L_any", "call1"], ["claw_blue"]]


@pytest.mark.parametrize(
    "text",
    ["claw jump", "R_purple", "call9x", '[[["fly", null]]]', '[[["right", "pink"]]]', "[1, 2]", "[[[", "(right,)(x"],
)
def test_register_errors(text: str) -> None:
    with pytest.raises(InputError):
        parse_registers(text)
