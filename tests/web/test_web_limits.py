"""A real ``puzzlebots serve``: a message no page's game survives is answered
with an error, malformed or duplicate ``Host`` headers are a 400 without a traceback, half-open requests are
dropped, and the replay list names a bad file by its name only and reads only the ends of each file."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import TOY_GAME, ServerProcess

from puzzlebots.core.replay import write_replay
from puzzlebots.core.runner import play_episode
from puzzlebots.web.session import Session

#: how long a test waits for the server to close what it should close: a hang, not a slow machine, fails it
PATIENCE = 60.0
HALF_OPEN = 20


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    replays = tmp_path_factory.mktemp("replays")
    proc = ServerProcess("--replays", str(replays), game=TOY_GAME)
    yield proc
    proc.stop()


def address(server: ServerProcess) -> tuple[str, int]:
    host, _, port = server.url.removeprefix("http://").rpartition(":")
    return host, int(port)


def raw_request(server: ServerProcess, head: bytes) -> bytes:
    """The status line the server answers to the request ``head`` (sent whole, on a socket of its own)."""
    with socket.create_connection(address(server), timeout=PATIENCE) as sock:
        sock.sendall(head)
        answer = b""
        while b"\r\n" not in answer and (chunk := sock.recv(4096)):
            answer += chunk
    return answer.split(b"\r\n")[0]


@pytest.mark.parametrize(
    "text",
    [
        '{"op": "step", "n": ' + "9" * 5000 + "}",
        "[" + "1" * 5000 + "]",
        '{"op": "seek", "step": -' + "9" * 4500 + "}",
        "\ud800",
        '"\\ud800"',
    ],
)
def test_session_reply_never_raises(text: str) -> None:
    session = Session()
    session.reply('{"op": "games"}')
    answer = json.loads(session.reply(text))
    assert answer["type"] == "error" and "\n" not in answer["message"]


def test_a_number_too_long_to_read_gets_an_error_and_the_game_lives_on(server: ServerProcess) -> None:
    """The page's game (the toy game, one step in) is still there after the message that used to kill its
    worker: the next step is its second."""

    async def talk() -> list[dict[str, Any]]:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            answers = []
            for message in [
                json.dumps({"op": "watch", "game": "cards", "bot": "random", "seed": 1}),
                '{"op": "step", "n": 1}',
                '{"op": "step", "n": ' + "9" * 5000 + "}",
                '{"op": "step", "n": 1}',
            ]:
                await ws.send_str(message)
                answers.append(json.loads((await ws.receive(timeout=PATIENCE)).data))
            return answers

    watch, first, refusal, second = asyncio.run(talk())
    assert (watch["type"], watch["step"], first["step"]) == ("frame", 0, 1)
    assert refusal["type"] == "error" and "too long to read" in refusal["message"], refusal
    assert (second["type"], second["step"]) == ("frame", 2)


OPS = ["step", "seek", "watch", "replay", "replays", "games", "game", "nope"]
KEYS = ["n", "step", "seed", "name", "game", "bot", "config", "call", "animate"]
NUMBERS = st.text("0123456789", min_size=1, max_size=6000).map(lambda digits: digits.lstrip("0") or "0")
VALUES = st.one_of(
    NUMBERS,
    NUMBERS.map(lambda n: "-" + n),
    NUMBERS.map(lambda n: n + ".5e" + n[:4]),
    st.sampled_from(["null", "true", "[]", "{}", '"x"', "NaN", "1e999"]),
)


@st.composite
def messages(draw: st.DrawFn) -> str:
    """A message with a known op and keys whose values are numbers of any length, or other JSON; or any text."""
    if draw(st.booleans()):
        return draw(st.text(max_size=200))
    fields = [f'"op": "{draw(st.sampled_from(OPS))}"']
    fields += [f'"{key}": {draw(VALUES)}' for key in draw(st.lists(st.sampled_from(KEYS), max_size=3))]
    return "{" + ", ".join(fields) + "}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages())
def test_session_reply_answers_any_message_with_one_json_object(text: str) -> None:
    answer = json.loads(Session().reply(text))
    assert isinstance(answer, dict) and answer["type"] in ("error", "games", "replays", "frame")
    if answer["type"] == "error":
        assert "\n" not in answer["message"] and len(answer["message"]) <= 300


@pytest.mark.parametrize("host", [b"[", b"[::1", b"127.0.0.1:99999", b"[::1]x"])
def test_a_malformed_host_is_a_bad_request(server: ServerProcess, host: bytes) -> None:
    status = raw_request(server, b"GET / HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
    assert status.split(b" ")[1] == b"400", status


def test_a_duplicate_host_is_refused_in_one_log_line(tmp_path: Path) -> None:
    proc = ServerProcess()
    try:
        status = raw_request(proc, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
        malformed = raw_request(proc, b"GET / HTTP/1.1\r\nHost: [\r\nConnection: close\r\n\r\n")
    finally:
        proc.stop()
    assert status.split(b" ")[1] == b"400" and malformed.split(b" ")[1] == b"400"
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "refused a malformed request: Duplicate 'Host' header found." in proc.stderr


def test_half_open_requests_are_dropped(server: ServerProcess) -> None:
    """Connections that send nothing, or a request head they never finish, are closed by the server."""
    sockets = []
    for i in range(HALF_OPEN):
        sock = socket.create_connection(address(server), timeout=PATIENCE)
        if i % 2:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        sockets.append(sock)
    closed = 0
    for sock in sockets:
        with sock:
            try:
                closed += sock.recv(4096) == b""  # the server's end of the connection
            except ConnectionResetError:
                closed += 1
            except TimeoutError:
                pass
    assert closed == HALF_OPEN
    assert raw_request(server, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").endswith(b"200 OK")


def test_the_replay_list_names_a_bad_file_by_its_name_and_reads_only_its_ends(tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    folder.mkdir()
    episode = play_episode("hatris", "random", 3, record=True, max_actions=40)
    write_replay(folder / "good.jsonl", episode, "1", 10)
    lines = (folder / "good.jsonl").read_text().splitlines()
    lines[5] = "not json"  # the middle of the file: opening it refuses it, the list reads only its ends
    (folder / "middle.jsonl").write_text("\n".join(lines) + "\n")
    (folder / "broken.jsonl").write_text('{"type": "header"}\n')
    session = Session(folder)
    files = {f["name"]: f for f in json.loads(session.reply('{"op": "replays"}'))["files"]}
    assert files["good.jsonl"]["length"] == files["middle.jsonl"]["length"] == len(episode.actions)
    error = files["broken.jsonl"]["error"]
    assert "broken.jsonl" in error and str(tmp_path) not in error and "/" not in error
    opened = json.loads(session.reply(json.dumps({"op": "replay", "name": "middle.jsonl"})))
    assert opened["type"] == "error" and "middle.jsonl line 6" in opened["message"]
    assert str(tmp_path) not in opened["message"]
