"""Hypothesis: every file format a user hands over (replay, levels, templates, weights, board, checkpoint) either
loads or raises one ``InputError``/``ConfigError`` with a one-line message, whatever the bytes.

Each example starts from a real, valid file of the format and breaks it: random bytes, invalid UTF-8 spliced in,
truncation, deep nesting, values of the wrong type, huge or non-finite numbers, removed fields.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from puzzlebots.cli import cli
from puzzlebots.cli.output import load_weights
from puzzlebots.core.errors import ConfigError, InputError
from puzzlebots.core.registry import get_game
from puzzlebots.core.replay import check_replay, read_replay, write_replay
from puzzlebots.core.runner import play_episode
from puzzlebots.core.tuning import TrainSettings, load_checkpoint
from puzzlebots.games.cargobot.levels import load_levels
from puzzlebots.games.puyo.bots.templates import load_templates
from puzzlebots.games.yoshis_cookie.boards import load_board_file

FUZZ = settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
HATRIS = get_game("hatris")
TRAIN = ["--games-per-eval", "1", "--max-actions", "3", "--jobs", "1", "--quiet", "--generations", "2"]
#: each method's own options (the other method's are refused)
METHOD_OPTIONS = {"hill": ["--variants", "2", "--rounds", "1"], "cma": ["--popsize", "4"]}

# ----------------------------------------------------------------- hostile values and mutations

HUGE_NUMBERS = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1" * 5000, "9" * 101, "1e-400", "-0", "1.5"]
ODD_TEXT = ["", "²", "٣", "\u2028", "\x00", "\ud800", "a\nb", "..", "/", "any", "none", "1-1"]
huge_ints = st.builds(lambda k, sign: sign * 10**k, st.integers(15, 450), st.sampled_from([1, -1]))
long_text = st.builds(lambda n: "x" * n, st.integers(100, 6000))

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | huge_ints
    | st.floats()
    | st.sampled_from(ODD_TEXT)
    | long_text
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def paths(doc: Any, here: tuple = ()) -> list[tuple]:
    """Every place in a JSON document, as a key path."""
    out = [here]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*here, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, (*here, i))
    return out


def edit(doc: Any, path: tuple, fn: Callable[[Any], Any] | None) -> Any:
    """A copy of ``doc`` with the node at ``path`` replaced by ``fn(node)``, or removed when ``fn`` is None."""
    if not path:
        return fn(doc) if fn else None
    doc = json.loads(json.dumps(doc))
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if fn is None:
        del parent[path[-1]]
    else:
        parent[path[-1]] = fn(parent[path[-1]])
    return doc


@st.composite
def broken_json(draw: st.DrawFn, doc: Any) -> bytes:
    """``doc`` with up to three structural edits, serialised, then maybe damaged as bytes."""
    for _ in range(draw(st.integers(0, 3))):
        where = draw(st.sampled_from(paths(doc)))
        kind = draw(st.sampled_from(["replace", "remove", "nest"]))
        if kind == "replace":
            value = draw(junk)
            doc = edit(doc, where, lambda _old, v=value: v)
        elif kind == "remove" and where:
            doc = edit(doc, where, None)
        elif kind == "nest":
            depth = draw(st.integers(1, 100) | st.just(100_000))
            doc = edit(
                doc, where, lambda old, d=depth: json.loads("[" * d + json.dumps(old) + "]" * d) if d < 500 else old
            )
            if depth >= 500:  # too deep to build as Python data: splice it into the text
                text = json.dumps(doc)
                return ("[" * depth + text + "]" * depth).encode()
    text = json.dumps(doc)
    if draw(st.integers(0, 3)) == 0:
        number = re.search(r"(?:(?<=\[)|(?<=: )|(?<=, ))-?\d+(?:\.\d+)?", text)  # a number value, not in a key
        if number:
            text = text[: number.start()] + draw(st.sampled_from(HUGE_NUMBERS)) + text[number.end() :]
    return damage(draw, text.encode("utf-8", "surrogatepass"))


def damage(draw: st.DrawFn, data: bytes) -> bytes:
    kind = draw(st.sampled_from(["none", "none", "none", "truncate", "splice", "random"]))
    if kind == "truncate":
        return data[: draw(st.integers(0, max(0, len(data) - 1)))]
    if kind == "splice":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.sampled_from([b"\xff", b"\xc3(", b"\xed\xa0\x80", b"\x00", b"\x80\x80"])) + data[at:]
    if kind == "random":
        return draw(st.binary(max_size=300))
    return data


@st.composite
def broken_text(draw: st.DrawFn, text: str) -> bytes:
    """A line-based text file with lines removed, repeated or rewritten with odd tokens, then maybe damaged."""
    lines = text.splitlines()
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(lines) - 1)) if lines else 0
        kind = draw(st.sampled_from(["remove", "repeat", "token", "word"]))
        if not lines:
            break
        if kind == "remove":
            del lines[i]
        elif kind == "repeat":
            lines.insert(i, lines[i])
        elif kind == "token":
            words = lines[i].split() or [""]
            j = draw(st.integers(0, len(words) - 1))
            words[j] = draw(st.sampled_from(ODD_TEXT + HUGE_NUMBERS) | st.text(max_size=6))
            lines[i] = " ".join(words)
        else:
            lines[i] = draw(st.sampled_from(["template", "links", "colours", "rows", "end", "T", ""]))
    return damage(draw, "\n".join(lines).encode("utf-8", "surrogatepass"))


def loads_or_one_line_error(load: Callable[[], Any]) -> None:
    """It loads, or it is refused with one InputError/ConfigError line (anything else fails the test)."""
    try:
        load()
    except (InputError, ConfigError) as exc:
        message = str(exc)
        assert message and len(message.splitlines()) == 1, message
        event(f"refused: {type(exc).__name__}")
    else:
        event("loaded")


@pytest.fixture(scope="module")
def where(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


# ----------------------------------------------------------------- the six formats


@pytest.fixture(scope="module")
def replay_doc(where: Path) -> list[Any]:
    episode = play_episode(HATRIS, "searcher", 3, record=True, hash_every=2, max_actions=6)
    path = where / "valid.jsonl"
    write_replay(path, episode, HATRIS.rules_version, 2)
    return [json.loads(line) for line in path.read_text().splitlines()]


@st.composite
def broken_replay(draw: st.DrawFn, rows: list[Any]) -> bytes:
    """Break one or two lines of a replay (each line is its own JSON document), or the file as a whole."""
    lines = [json.dumps(r) for r in rows]
    for i in draw(st.sets(st.integers(0, len(rows) - 1), min_size=1, max_size=2)):
        lines[i] = draw(broken_json(rows[i])).decode("utf-8", "surrogateescape")
    return damage(draw, "\n".join(lines).encode("utf-8", "surrogateescape"))


@FUZZ
@given(data=st.data())
def test_fuzz_replay(where: Path, replay_doc: list[Any], data: st.DataObject):
    path = where / "r.jsonl"
    path.write_bytes(data.draw(broken_replay(replay_doc)))
    loads_or_one_line_error(lambda: check_replay(read_replay(path)))


@FUZZ
@given(data=st.data())
def test_fuzz_levels(where: Path, data: st.DataObject):
    from importlib.resources import files

    doc = json.loads(files("puzzlebots.games.cargobot").joinpath("data/levels.json").read_text())[2:5]
    path = where / "levels.json"
    path.write_bytes(data.draw(broken_json(doc)))
    loads_or_one_line_error(lambda: load_levels(path))


TEMPLATES = """template L 2-chain
links 2
colours 1=R 2=G
rows
T . .
1 2 .
1 1 .
2 2 2
end

template Sandwich
links 3
colours 1=R 2=G 3=B a=Y
rows
. 2 . . .
. 1 3 a .
T 1 2 3 .
2 1 2 3 3
end
"""


@FUZZ
@given(data=st.data())
def test_fuzz_templates(where: Path, data: st.DataObject):
    path = where / "t.txt"
    path.write_bytes(data.draw(broken_text(TEMPLATES)))
    loads_or_one_line_error(lambda: load_templates(path))


@FUZZ
@given(data=st.data())
def test_fuzz_weights(where: Path, data: st.DataObject):
    names = list(HATRIS.bot_info("searcher").weight_names)
    doc = {"game": "hatris", "bot": "searcher", "names": names, "weights": HATRIS.default_weights("searcher")}
    path = where / "w.json"
    path.write_bytes(data.draw(broken_json(doc)))
    loads_or_one_line_error(lambda: load_weights(path, HATRIS, "searcher"))


@FUZZ
@given(data=st.data())
def test_fuzz_board_file(where: Path, data: st.DataObject):
    doc = {"1-1": ["HHF", "FDH", "DFD"], "2-3": ["HFDK", "FDKH", "DKHF", "KHFS"]}
    path = where / "b.json"
    path.write_bytes(data.draw(broken_json(doc)))
    loads_or_one_line_error(lambda: load_board_file(str(path)))


@pytest.fixture(scope="module", params=["hill", "cma"])
def checkpoint(request: pytest.FixtureRequest, where: Path) -> tuple[dict[str, Any], TrainSettings]:
    """A real checkpoint of two generations and the settings that resume it."""
    out = where / f"{request.param}.json"
    args = ["train", "hatris", "--out", str(out), *TRAIN, "--method", request.param, *METHOD_OPTIONS[request.param]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    doc = json.loads(Path(f"{out}.ckpt").read_text())
    s = doc["settings"]
    return doc, TrainSettings(**s)


@FUZZ
@given(data=st.data())
def test_fuzz_checkpoint(where: Path, checkpoint: tuple[dict[str, Any], TrainSettings], data: st.DataObject):
    doc, train_settings = checkpoint
    path = where / "w.json.ckpt"
    path.write_bytes(data.draw(broken_json(doc)))
    n = len(HATRIS.bot_info("searcher").weight_names)
    loads_or_one_line_error(lambda: load_checkpoint(path, train_settings, n))
