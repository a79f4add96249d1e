"""KRIEG3 chain templates: the text format, its parser and the checks a template must pass.

KRIEG3 read its predefined chains, with predefined colours, from ``ai3_patterns.hll``; ours live in
``data/templates.txt`` of the puyo package (format in docs/puyo.md)::

    template GTR core          # a name
    links 3                    # how many links filling the trigger fires
    colours 1=R 2=G 3=B a=R    # the colour of every class symbol (R G B Y P = colours 1..5)
    rows                       # the grid, top row first; one symbol per column, separated by spaces
    T . .
    1 2 3
    1 1 2 3 3
    2 2 3 a a
    end

Symbols: ``.`` no cell, ``T`` the trigger (class 1's colour, filled last), ``1``-``9`` link classes,
``a``-``z`` filler classes. Rows may be shorter than the widest row (missing cells are ``.``).
On load every template is checked: no floating cell, the trigger on top of its column, stable without the
trigger, and filling the trigger fires exactly ``links`` links on an empty field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import numpy as np

from puzzlebots.core.errors import InputError
from puzzlebots.core.jsonio import name_of, read_text, show

from ..kernels.field import column_heights, resolve
from ..rules import COLOUR_LETTERS, ROWS, VISIBLE_ROWS, WIDTH

TEMPLATE_FILE = "data/templates.txt"
#: link classes 1-9 and filler classes a-z (ASCII only: ``str.isdigit`` would also take '²')
CLASS_SYMBOLS = "123456789abcdefghijklmnopqrstuvwxyz"
MAX_NAME = 60


@dataclass(frozen=True)
class Template:
    """A chain: cells ``(dx, dy, colour)`` relative to its bottom-left corner, and its trigger cell."""

    name: str
    links: int
    cells: tuple[tuple[int, int, int], ...]  # includes the trigger
    trigger: tuple[int, int]
    width: int
    height: int

    def recoloured(self, perm: dict[int, int]) -> Template:
        """The same chain with colour c replaced by ``perm[c]`` (the ``permute`` colour option)."""
        cells = tuple((dx, dy, perm[c]) for dx, dy, c in self.cells)
        return Template(self.name, self.links, cells, self.trigger, self.width, self.height)

    def colours(self) -> set[int]:
        return {c for _, _, c in self.cells}


def _fail(where: str, message: str) -> InputError:
    return InputError(f"{where}: {message}")


def parse_templates(text: str, source: str = "<templates>") -> list[Template]:
    """Parse and check a template file; ``InputError`` naming the file and line on any problem."""
    templates: list[Template] = []
    block: dict | None = None
    in_rows = False
    lines = text.splitlines()
    for number, raw in enumerate(lines, 1):
        where = f"{source}:{number}"
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if in_rows:
            assert block is not None
            if line == "end":
                templates.append(_build(block, where))
                block = None
                in_rows = False
            else:
                block["rows"].append((line.split(), where))
            continue
        if word == "template":
            if block is not None:
                raise _fail(where, f"template {show(block['name'])} has no rows ... end block")
            if not rest or len(rest) > MAX_NAME:
                raise _fail(where, f"a template needs a name of 1 to {MAX_NAME} characters")
            block = {"name": rest, "links": None, "colours": None, "rows": [], "where": where}
        elif block is None:
            raise _fail(where, f"expected 'template NAME', got {show(line)}")
        elif word == "links":
            if re.fullmatch(r"[0-9]{1,3}", rest) is None or int(rest) < 1:
                raise _fail(where, f"links must be a whole number from 1 to 999, got {show(rest)}")
            block["links"] = int(rest)
        elif word == "colours":
            block["colours"] = _parse_colours(rest, where)
        elif word == "rows":
            in_rows = True
        else:
            raise _fail(where, f"unknown directive {show(word)} (template, links, colours, rows, end)")
    if block is not None:
        raise _fail(f"{source}:{len(lines)}", f"template {show(block['name'])} is not closed by 'end'")
    if not templates:
        raise InputError(f"{source}: no templates")
    return templates


def _parse_colours(text: str, where: str) -> dict[str, int]:
    colours: dict[str, int] = {}
    for item in text.split():
        symbol, sep, letter = item.partition("=")
        if not sep or len(symbol) != 1 or symbol not in CLASS_SYMBOLS:
            raise _fail(where, f"bad colour entry {show(item)} (use CLASS=LETTER, e.g. 1=R)")
        if len(letter) != 1 or letter not in COLOUR_LETTERS[1:]:
            raise _fail(where, f"bad colour {show(letter)} in {show(item)} (colours are {COLOUR_LETTERS[1:]})")
        colours[symbol] = COLOUR_LETTERS.index(letter)
    return colours


def _build(block: dict, where: str) -> Template:
    name = block["name"]
    if block["links"] is None:
        raise _fail(block["where"], f"template {show(name)} has no 'links' line")
    if block["colours"] is None:
        raise _fail(block["where"], f"template {show(name)} has no 'colours' line")
    rows = block["rows"]
    if not rows:
        raise _fail(where, f"template {show(name)} has no rows")
    height = len(rows)
    width = max(len(symbols) for symbols, _ in rows)
    if width > WIDTH or height > VISIBLE_ROWS:
        raise _fail(where, f"template {show(name)} is {width}x{height}; at most {WIDTH}x{VISIBLE_ROWS}")
    colours = block["colours"]
    cells: list[tuple[int, int, int]] = []
    trigger: tuple[int, int] | None = None
    for i, (symbols, row_where) in enumerate(rows):
        dy = height - 1 - i
        for dx, symbol in enumerate(symbols):
            if symbol == ".":
                continue
            key = "1" if symbol == "T" else symbol
            if len(symbol) != 1 or not (symbol == "T" or symbol in CLASS_SYMBOLS):
                raise _fail(row_where, f"unknown symbol {show(symbol)} (use . T 1-9 a-z)")
            if key not in colours:
                raise _fail(row_where, f"class {show(key)} has no colour in the 'colours' line")
            if symbol == "T":
                if trigger is not None:
                    raise _fail(row_where, f"template {show(name)} has more than one trigger T")
                trigger = (dx, dy)
            cells.append((dx, dy, colours[key]))
    if trigger is None:
        raise _fail(where, f"template {show(name)} has no trigger T")
    occupied = {(dx, dy) for dx, dy, _ in cells}
    for dx, dy in occupied:
        if dy > 0 and (dx, dy - 1) not in occupied:
            raise _fail(where, f"template {show(name)}: cell at column {dx + 1}, row {dy + 1} floats")
    if (trigger[0], trigger[1] + 1) in occupied:
        raise _fail(where, f"template {show(name)}: the trigger T must be the top cell of its column")
    if all(dx != 0 for dx, _ in occupied):
        raise _fail(where, f"template {show(name)}: its first column is empty")
    template = Template(name, block["links"], tuple(cells), trigger, width, height)
    fired = _simulate(template, with_trigger=False)
    if fired:
        raise _fail(where, f"template {show(name)} pops {fired} link(s) before its trigger is filled")
    fired = _simulate(template, with_trigger=True)
    if fired != template.links:
        raise _fail(where, f"template {show(name)} says links {template.links} but its trigger fires {fired}")
    return template


def _simulate(template: Template, with_trigger: bool) -> int:
    """Links fired by the template alone on an empty field (with or without its trigger)."""
    cells = np.zeros((WIDTH, ROWS), dtype=np.uint8)
    for dx, dy, colour in template.cells:
        if with_trigger or (dx, dy) != template.trigger:
            cells[dx, dy] = colour
    heights = np.zeros(WIDTH, dtype=np.int64)
    column_heights(cells, heights)
    stats = np.zeros(3, dtype=np.int64)
    resolve(cells, heights, stats)
    return int(stats[0])


def load_templates(path: str | Path | None = None) -> list[Template]:
    """The shipped templates, or those of the file at ``path``."""
    if path is None or str(path) == "":
        text = files("puzzlebots.games.puyo").joinpath(TEMPLATE_FILE).read_text(encoding="utf-8")
        return parse_templates(text, TEMPLATE_FILE)
    return parse_templates(read_text(path, "template file"), name_of(path))
