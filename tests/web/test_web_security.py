"""The server sends no file outside its static folder, the games' page folders and the replay folder, and
answers malformed messages with an error (the connection keeps working). (Hostile input beyond these, and
``serve`` itself: test_web_hostile.)"""

from __future__ import annotations

import asyncio
import http.client
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, WSMsgType
from serving import HANG_GUARD  # every wait below ends at its answer; the guard is for a hang

from puzzlebots.web.files import safe_file
from puzzlebots.web.session import Session

STATIC = Path(__file__).resolve().parents[2] / "src" / "puzzlebots" / "web" / "static"


def raw_get(port: int, path: str) -> tuple[int, bytes]:
    """GET with the path sent exactly as written (no client-side normalisation of ``..``)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=HANG_GUARD)
    conn.putrequest("GET", path, skip_accept_encoding=True)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body


def test_static_files_and_index_are_served(live_server: Any) -> None:
    status, body = raw_get(live_server.port, "/")
    assert status == 200 and b"puzzlebots" in body
    status, body = raw_get(live_server.port, "/static/app.js")
    assert status == 200 and b"websocket" in body.lower()


def test_a_games_page_files_are_served(live_server: Any) -> None:
    status, body = raw_get(live_server.port, "/games/puyo/view.js")
    assert status == 200 and b"export function setup" in body
    status, body = raw_get(live_server.port, "/games/cargobot/view.css")
    assert status == 200 and b".crate" in body


def test_replay_folder_file_is_served(live_server: Any, replays_dir: Path) -> None:
    (replays_dir / "mine.jsonl").write_text('{"type": "header"}\n')
    status, body = raw_get(live_server.port, "/replays/mine.jsonl")
    assert status == 200 and body == b'{"type": "header"}\n'


ESCAPES = [
    "/static/../server.py",
    "/static/../../core/errors.py",
    "/static/%2e%2e/server.py",
    "/static/%2E%2E%2Fserver.py",
    "/static/..%2fserver.py",
    "/static/..%5cserver.py",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/%2F%2Fetc%2Fpasswd",
    "/static/./app.js/../../server.py",
    "/static/%00app.js",
    "/static/.hidden",
    "/../../../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/replays/../secret.jsonl",
    "/replays/%2e%2e/secret.jsonl",
    "/replays/%2e%2e%2fsecret.jsonl",
    "/replays/..%2Fsecret.jsonl",
    "/replays//etc/passwd",
    "/replays/%2Fetc%2Fpasswd",
    "/replays/",
    "/static/",
    "/games/puyo/../game.py",
    "/games/puyo/%2e%2e/game.py",
    "/games/puyo/%2e%2e%2fgame.py",
    "/games/puyo/..%2fview.py",
    "/games/puyo/%2fetc%2fpasswd",
    "/games/puyo/",
    "/games/puyo/.hidden",
    "/games/../web/server.py",
    "/games/%2e%2e/static/app.js",
    "/games/yoshis_cookie/engine.py",  # the game's folder is not served, only its web/ folder
    "/games/no-such-game/view.js",
    "/games/puyo",
]


@pytest.mark.parametrize("path", ESCAPES)
def test_paths_outside_the_served_folders_are_refused(live_server: Any, path: str) -> None:
    status, body = raw_get(live_server.port, path)
    assert status in (400, 403, 404)
    assert b"top secret" not in body and b"root:" not in body and b"aiohttp" not in body


def test_safe_file_rules(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text("x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.jsonl").write_text("y")
    (tmp_path / "link.jsonl").symlink_to("/etc/hostname")
    assert safe_file(tmp_path, "a.jsonl") == (tmp_path / "a.jsonl").resolve()
    assert safe_file(tmp_path, "sub/b.jsonl") == (tmp_path / "sub" / "b.jsonl").resolve()
    for bad in [
        "",
        "/etc/passwd",
        "../a.jsonl",
        "sub/../a.jsonl",
        "sub\\..\\a.jsonl",
        "sub",
        "link.jsonl",
        "a\x00",
        "x" * 5000,
    ]:
        assert safe_file(tmp_path, bad) is None, bad


MALFORMED: list[Any] = [
    "not json at all",
    "[1, 2, 3]",
    '"just a string"',
    "{}",
    '{"op": 5}',
    '{"op": "no-such-op"}',
    '{"op": "watch"}',
    '{"op": "watch", "game": "no-such-game", "bot": "x"}',
    '{"op": "step"}',
    '{"op": "step", "n": "many"}',
    '{"op": "step", "n": 100000}',
    '{"op": "replay", "name": "../secret.jsonl"}',
    '{"op": "replay", "name": "/etc/passwd"}',
    '{"op": "replay", "name": "%2e%2e/secret.jsonl"}',
    '{"op": "replay", "name": "missing.jsonl"}',
    '{"op": "replay", "name": "broken.jsonl"}',
    '{"op": "game"}',
    '{"op": "game", "game": "puyo"}',
    '{"op": "game", "game": "puyo", "call": "key", "key": "left"}',
    '{"op": "game", "game": "puyo", "call": "versus", "bot": 3}',
    '{"op": "game", "game": "puyo", "call": "cargo_run"}',
    '{"op": "game", "game": "hatris", "call": "key"}',
    '{"op": "game", "game": "no-such-game", "call": "run"}',
    '{"op": "game", "game": "cargobot", "call": "run", "level": 1, "program": null}',
    '{"op": "game", "game": "cargobot", "call": "level", "level": "../../etc/passwd"}',
]


def test_malformed_websocket_messages_get_errors_not_a_crash(live_server: Any, replays_dir: Path) -> None:
    (replays_dir / "broken.jsonl").write_text("{not json\n")

    async def talk() -> list[dict[str, Any]]:
        answers = []
        async with ClientSession() as http, http.ws_connect(f"{live_server.url}/ws") as ws:
            for text in MALFORMED:
                await ws.send_str(text)
                answers.append(json.loads((await ws.receive(timeout=HANG_GUARD)).data))
            await ws.send_bytes(b"\x00\x01")
            answers.append(json.loads((await ws.receive(timeout=HANG_GUARD)).data))
            await ws.send_str(json.dumps({"op": "games"}))
            last = await ws.receive(timeout=HANG_GUARD)
            assert last.type == WSMsgType.TEXT
            answers.append(json.loads(last.data))
        return answers

    answers = asyncio.run(talk())
    errors, still_working = answers[:-1], answers[-1]
    for text, answer in zip([*MALFORMED, "<binary>"], errors, strict=True):
        assert answer["type"] == "error", text
        assert answer["message"] and "\n" not in answer["message"], text
        assert "top secret" not in answer["message"]
    assert still_working["type"] == "games"


def test_session_handles_non_dict_and_bad_types_directly() -> None:
    session = Session(None)
    for msg in [None, 3, [], {"op": None}, {"op": "replays", "extra": object()}]:
        answer = session.handle(msg)
        assert answer["type"] in ("error", "replays")
    assert session.handle({"op": "replays"}) == {"type": "replays", "replays": [], "files": []}
