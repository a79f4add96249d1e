"""The web server: what a hostile page or client sends cannot read files, drive the socket from
another site, stall the server or crash a session, and ``serve`` reports bad arguments in one line.

The socket tests run the real ``puzzlebots serve`` in a process of its own and talk to it with aiohttp; the
fuzz tests drive ``Session`` directly (it is what each worker process runs).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession, ClientWebSocketResponse, WSMsgType, WSServerHandshakeError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import HANG_GUARD, ServerProcess, is_alive, serve_command, serve_env, waiting_for_input

from puzzlebots.core.protocols import WebControls
from puzzlebots.core.registry import game_names, get_game
from puzzlebots.core.replay import write_replay
from puzzlebots.core.runner import play_episode
from puzzlebots.web.session import MAX_NESTING, Session

#: seconds: the server's --time-budget in the test of the budget (its first answer, the game made, takes far less)
BUDGET = 2
#: the other tests' server: a budget no answer reaches on a busy machine (a worker's first answer waits for its
#: imports), so that each of them fails only for its own reason
PATIENT = 3600
#: a request that runs until it is stopped: one decision of a bot that never decides (tests/web/slowgame.py)
LONG = [{"op": "watch", "game": "slow", "bot": "ponder", "seed": 2}, {"op": "step", "n": 1}]


async def ask(ws: ClientWebSocketResponse, msg: Any, timeout: float = HANG_GUARD) -> dict[str, Any]:
    """Send ``msg`` and wait for the answer (``timeout``: a guard against a hang, not a budget)."""
    await ws.send_str(msg if isinstance(msg, str) else json.dumps(msg))
    reply = await ws.receive(timeout=timeout)
    assert reply.type == WSMsgType.TEXT, reply
    answer: dict[str, Any] = json.loads(reply.data)
    return answer


def is_one_line_error(answer: dict[str, Any]) -> bool:
    message = answer.get("message")
    return answer.get("type") == "error" and isinstance(message, str) and bool(message) and "\n" not in message


@pytest.fixture(scope="module")
def running_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    replays = tmp_path_factory.mktemp("hostile-replays")
    proc = ServerProcess("--replays", str(replays), "--time-budget", str(PATIENT), "--max-sessions", "2")
    yield proc
    proc.stop()


@pytest.fixture
def server(running_server: ServerProcess) -> ServerProcess:
    """The module's server once the pages of the tests before have gone (a page's place is free once its worker
    is: on a busy machine that can come well after its socket closed)."""
    assert running_server.wait_for_workers(0) == []
    return running_server


# --------------------------------------------------------------------------- item 1: no file through a config


def test_file_naming_config_keys_are_refused_from_the_socket(server: ServerProcess, tmp_path: Path) -> None:
    fifo = tmp_path / "board.fifo"
    os.mkfifo(fifo)
    secrets = [line for line in Path("/etc/passwd").read_text().splitlines() if line][:1]
    secrets += [f"{k}={v}" for k, v in os.environ.items() if k in ("PATH", "HOME")]
    cases = [
        ("puyo", "krieg3", {"k3_templates": "/etc/passwd"}, "k3_templates"),
        ("puyo", "krieg3", {"k3_templates": "/proc/self/environ"}, "k3_templates"),
        ("yoshis_cookie", "greedy", {"board_file": "/etc/passwd"}, "board_file"),
        ("yoshis_cookie", "greedy", {"board_file": "/no/such/file"}, "board_file"),
        ("yoshis_cookie", "greedy", {"board_file": str(fifo)}, "board_file"),
        ("puyo", "krieg", {"no_such_key": 1}, "no_such_key"),
    ]

    async def talk() -> None:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            for game, bot, config, key in cases:
                msg = {"op": "watch", "game": game, "bot": bot, "seed": 1, "config": config}
                answer = await ask(ws, msg)  # a FIFO would block: the worker would be stopped at the budget
                assert is_one_line_error(answer), msg
                assert key in answer["message"], answer  # the refusal, not the budget's "took longer than"
                assert not any(secret in json.dumps(answer) for secret in secrets), answer
            frame = await ask(ws, {"op": "watch", "game": "puyo", "bot": "krieg", "seed": 1, "config": {}})
            assert frame["type"] == "frame" and frame["step"] == 0

    asyncio.run(talk())


def test_session_refuses_file_naming_keys() -> None:
    session = Session(None)
    for game, key in [("puyo", "k3_templates"), ("yoshis_cookie", "board_file")]:
        bot = get_game(game).bots()[0].name
        answer = session.handle({"op": "watch", "game": game, "bot": bot, "config": {key: "/etc/passwd"}})
        assert is_one_line_error(answer) and key in answer["message"]


# --------------------------------------------------------------------------- item 2: only our own pages


def test_foreign_origin_is_refused_at_the_handshake(server: ServerProcess) -> None:
    port = server.url.rsplit(":", 1)[1]

    async def handshake(headers: dict[str, str]) -> int:
        async with ClientSession() as http:
            try:
                async with http.ws_connect(f"{server.url}/ws", headers=headers) as ws:
                    assert (await ask(ws, {"op": "replays"}))["type"] == "replays"
                assert server.wait_for_workers(0) == []  # its place is free for the next handshake
                return 101
            except WSServerHandshakeError as exc:
                return exc.status

    async def talk() -> None:
        assert await handshake({"Origin": "http://evil.example"}) == 403
        assert await handshake({"Origin": "null"}) == 403
        assert await handshake({"Origin": f"http://localhost.evil.example:{port}"}) == 403
        # DNS rebinding: a foreign name resolving to 127.0.0.1, whose page is then "same origin"
        evil = f"evil.example:{port}"
        assert await handshake({"Host": evil, "Origin": f"http://{evil}"}) == 403
        assert await handshake({"Origin": server.url}) == 101  # the server's own page
        assert await handshake({"Host": f"localhost:{port}", "Origin": f"http://localhost:{port}"}) == 101
        assert await handshake({}) == 101  # a client that is not a browser sends no Origin
        async with ClientSession() as http:
            async with http.get(f"{server.url}/api/games", headers={"Host": evil}) as response:
                assert response.status == 403

    asyncio.run(talk())


# --------------------------------------------------------------------------- item 3: nothing stalls the server


def test_worst_case_config_from_the_socket_is_refused(server: ServerProcess) -> None:
    worst = {"beam_width": 10000, "beam_depth": 50, "beam_samples": 100}

    async def talk() -> None:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            answer = await ask(ws, {"op": "watch", "game": "puyo", "bot": "beam", "seed": 2, "config": worst})
            assert is_one_line_error(answer) and "longer than" not in answer["message"], answer  # refused, not run
            assert is_one_line_error(await ask(ws, {"op": "step", "n": 1}))  # nothing was started

    asyncio.run(talk())


def test_a_long_request_stalls_no_one(server: ServerProcess) -> None:
    """While one page's worker thinks (for an hour: no answer can come, however slow the machine), the games list,
    and another page's messages, are answered."""

    async def talk() -> None:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            assert (await ask(ws, LONG[0]))["type"] == "frame"
            await ws.send_str(json.dumps(LONG[1]))
            pending = asyncio.create_task(ws.receive())  # the step's answer, which cannot come within the hour
            for _ in range(3):
                async with http.get(f"{server.url}/api/games") as response:
                    names = {g["name"] for g in await response.json()}
                assert {"puyo", "cargobot"} <= names
            async with http.ws_connect(f"{server.url}/ws") as other:
                games = await ask(other, {"op": "games"})
                assert games["type"] == "games", games
                assert (await ask(other, {"op": "replays"}))["type"] == "replays"
            assert not pending.done()  # all answered while the first page's worker was still thinking
            pending.cancel()

    asyncio.run(talk())
    assert server.wait_for_workers(0) == []  # the page left: its worker was stopped


def test_a_long_request_is_stopped_at_the_budget() -> None:
    """A server of ``BUDGET`` seconds per answer; the page's worker is left to finish its imports first (it waits
    for a message), so the budget meets the requests alone, however busy the machine."""
    server = ServerProcess("--time-budget", str(BUDGET))

    async def talk() -> None:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            (worker,) = server.wait_for_workers(1)
            assert waiting_for_input(worker)
            assert (await ask(ws, LONG[0]))["type"] == "frame"
            started = time.monotonic()
            answer = await ask(ws, LONG[1])  # the budget's error, when it comes
            assert is_one_line_error(answer) and f"longer than {BUDGET} s" in answer["message"], answer
            assert time.monotonic() - started >= BUDGET  # stopped at the budget, not before (load only adds)
            assert is_one_line_error(await ask(ws, {"op": "step"}))  # the game was stopped ...
            assert (await ask(ws, {"op": "games"}))["type"] == "games"  # ... and the page goes on

    try:
        asyncio.run(talk())
        assert server.wait_for_workers(0) == []
    finally:
        server.stop()


def test_a_client_leaving_mid_request_leaves_no_busy_worker(server: ServerProcess) -> None:
    """With a budget no test reaches, a busy worker that goes away can only have been stopped by its page leaving."""

    async def talk() -> list[int]:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            assert (await ask(ws, LONG[0]))["type"] == "frame"
            await ws.send_str(json.dumps(LONG[1]))
            return server.wait_for_workers(1)  # thinking: it will not answer within the hour

    busy = asyncio.run(talk())
    assert len(busy) == 1
    assert server.wait_for_workers(0) == [] and not is_alive(busy[0])


def test_too_many_pages_get_a_clear_refusal(server: ServerProcess) -> None:
    async def talk() -> None:
        async with ClientSession() as http:
            first = await http.ws_connect(f"{server.url}/ws")
            second = await http.ws_connect(f"{server.url}/ws")
            assert (await ask(second, {"op": "replays"}))["type"] == "replays"
            async with http.ws_connect(f"{server.url}/ws") as third:
                refusal = await third.receive(timeout=HANG_GUARD)
                assert is_one_line_error(json.loads(refusal.data))
                assert "2 pages open" in json.loads(refusal.data)["message"]
                closing = await third.receive(timeout=HANG_GUARD)
                assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED) and third.close_code == 1013
            await first.close()
            assert len(server.wait_for_workers(1)) == 1
            async with http.ws_connect(f"{server.url}/ws") as fourth:  # a closed page frees its place
                assert (await ask(fourth, {"op": "replays"}))["type"] == "replays"
            await second.close()

    asyncio.run(talk())


async def busy_server(proc: ServerProcess) -> tuple[ClientSession, ClientWebSocketResponse, list[int]]:
    """A websocket on ``proc`` whose worker is busy with the long request."""
    http = ClientSession()
    ws = await http.ws_connect(f"{proc.url}/ws")
    assert (await ask(ws, LONG[0]))["type"] == "frame"
    await ws.send_str(json.dumps(LONG[1]))
    workers = proc.wait_for_workers(1)
    assert len(workers) == 1
    return http, ws, workers


#: pages open when the server is stopped, and how many of them are busy with the never-ending request
PAGES, BUSY = 8, 4
#: how long a stopped server may take to exit before the test fails: a hang, far above the second a stop takes
STOP_PATIENCE = 30.0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_server_and_every_worker_whatever_they_do(sig: signal.Signals) -> None:
    """With every page open and half of them busy on the CPU (their workers are the load),
    the signal ends the server and all its workers, with exit code 0 and no traceback. The time it takes is
    printed (pytest -s), not asserted: it is the figure for the report, and a loaded machine is no failure."""
    proc = ServerProcess()

    async def talk() -> tuple[float, list[int]]:
        async with ClientSession() as http:
            pages = [await http.ws_connect(f"{proc.url}/ws") for _ in range(PAGES)]
            for ws in pages:
                assert (await ask(ws, {"op": "replays"}))["type"] == "replays"
            for ws in pages[:BUSY]:
                assert (await ask(ws, LONG[0]))["type"] == "frame"
                await ws.send_str(json.dumps(LONG[1]))
            workers = proc.wait_for_workers(PAGES)
            assert len(workers) == PAGES
            start = time.monotonic()
            proc.process.send_signal(sig)
            while proc.process.poll() is None and time.monotonic() - start < STOP_PATIENCE:
                await asyncio.sleep(0.01)
            took = time.monotonic() - start
            for ws in pages:
                await ws.close()
            return took, workers

    try:
        took, workers = asyncio.run(talk())
    finally:
        proc.stop()
    print(f"{sig.name}: the server and its {PAGES} workers ({BUSY} busy) stopped in {took:.2f} s")
    assert proc.process.returncode == 0, (took, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert not any(is_alive(pid) for pid in workers)


def test_workers_die_with_a_killed_server() -> None:
    proc = ServerProcess()

    async def talk() -> list[int]:
        http, ws, workers = await busy_server(proc)
        proc.process.kill()  # kill -9: the server cannot clean up, the kernel kills the workers
        proc.process.wait(HANG_GUARD)
        await http.close()
        return workers

    try:
        workers = asyncio.run(talk())
    finally:
        proc.stop()
    deadline = time.monotonic() + HANG_GUARD  # the kernel's death signal ends them; the guard is for a hang
    while any(is_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(is_alive(pid) for pid in workers)


# --------------------------------------------------------------------------- item 4: nested JSON


def test_deeply_nested_json_gets_an_error_and_the_connection_goes_on(server: ServerProcess) -> None:
    deep = MAX_NESTING + 1
    messages = [
        "[" * 120_000,
        "[" * 120_000 + "]" * 120_000,
        '{"op": "watch", "game": "puyo", "bot": "krieg", "config": ' + "[" * deep + "]" * deep + "}",
    ]

    async def talk() -> None:
        async with ClientSession() as http, http.ws_connect(f"{server.url}/ws") as ws:
            for text in messages:
                answer = await ask(ws, text)
                assert is_one_line_error(answer) and "nest" in answer["message"], answer
                assert (await ask(ws, {"op": "games"}))["type"] == "games"

    asyncio.run(talk())


def test_nested_json_directly() -> None:
    session = Session(None)
    for text in ["[" * 120_000, "{" * 50_000, '{"a":' * 5000]:
        answer = json.loads(session.reply(text))
        assert is_one_line_error(answer)
    assert json.loads(session.reply('{"op": "replays"}')) == {"type": "replays", "replays": [], "files": []}
    deepest = MAX_NESTING - 1  # inside the message object itself
    allowed = '{"op": "replays", "x": ' + "[" * deepest + "]" * deepest + "}"
    assert json.loads(session.reply(allowed))["type"] == "replays"


# --------------------------------------------------------------------------- item 5: serve's arguments


def run_serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(serve_command(*args), capture_output=True, text=True, env=serve_env(), timeout=120)


def assert_one_error_line(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.stdout + result.stderr


def test_serve_on_a_taken_port_is_one_error_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_serve("--port", str(port))
    assert_one_error_line(result)
    assert str(port) in result.stderr and "in use" in result.stderr


def test_serve_on_an_unknown_host_is_one_error_line() -> None:
    result = run_serve("--host", "no.such.host.invalid", "--port", "0")
    assert_one_error_line(result)
    assert "no.such.host.invalid" in result.stderr


def test_serve_bad_options_are_one_error_line() -> None:
    for args in [("--port", "70000"), ("--time-budget", "0"), ("--max-sessions", "x"), ("--no-such-option",)]:
        assert_one_error_line(run_serve(*args))


def test_serve_binds_loopback_unless_told() -> None:
    default = ServerProcess()
    default.stop()
    assert default.url.startswith("http://127.0.0.1:")
    assert default.process.returncode == 0
    everywhere = ServerProcess("--host", "0.0.0.0")
    everywhere.stop()
    assert everywhere.url.startswith("http://0.0.0.0:")
    assert "warning: binding 0.0.0.0: the page is reachable from other machines" in everywhere.stderr
    assert "warning" not in default.stderr


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_serve_help(flag: str) -> None:
    result = run_serve(flag)
    assert result.returncode == 0, result
    assert "Usage:" in result.stdout and "--time-budget" in result.stdout and "--max-sessions" in result.stdout


# --------------------------------------------------------------------------- fuzz: every op against Session

EXAMPLES = 120  # per op; the statistics (pytest --hypothesis-show-statistics) show how many ran

ODD_STRINGS = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "a\nb",
        "\ud800",
        "../../etc/passwd",
        "/etc/passwd",
        "/proc/self/environ",
        "NaN",
        "{}",
        "%2e%2e/secret.jsonl",
        "Cargo 101\n",
    ]
) | st.integers(1000, 20_000).map(lambda n: "x" * n)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63)
    | st.integers(max_value=-(2**63))
    | st.floats()
    | st.text(max_size=30)
    | ODD_STRINGS
)
JUNK = st.recursive(
    SCALARS,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
    max_leaves=12,
)
GAMES = st.sampled_from(game_names()) | JUNK
BOTS = st.sampled_from(sorted({b.name for g in game_names() for b in get_game(g).bots()})) | JUNK
SEEDS = st.integers(min_value=-(2**70), max_value=2**70) | JUNK
CONFIG_KEYS = st.sampled_from(sorted({k for g in game_names() for k in get_game(g).default_config()}))
CONFIGS = st.dictionaries(CONFIG_KEYS | st.text(max_size=8), JUNK, max_size=4) | JUNK
STEPS = st.integers(min_value=-5, max_value=600) | st.integers() | JUNK
KEYS = st.sampled_from(["left", "right", "cw", "ccw", "drop", "up", "LEFT"]) | JUNK
LEVELS = st.sampled_from(["Cargo 101", "Transporter", "Re-Curses", "no such level"]) | JUNK
PROGRAMS = st.sampled_from(["claw R claw", "R claw", "claw_red R", "prog_9 claw", "fly away", ""]) | st.text() | JUNK
#: (game, call) of every game's page controls: Puyo's versus and key, Cargo-Bot's levels, level and run
GAME_CALLS = sorted(
    (g, call) for g in game_names() if isinstance(game := get_game(g), WebControls) for call in game.web_ops()
)
CALLS = st.sampled_from(sorted({call for _, call in GAME_CALLS})) | JUNK
REPLAY_NAMES = st.sampled_from(["good.jsonl", "broken.jsonl", "fifo.jsonl", "notes.txt", "../secret.jsonl"]) | JUNK

#: the fields each op reads, with values that are often right and often not
FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "games": {},
    "watch": {"game": GAMES, "bot": BOTS, "seed": SEEDS, "config": CONFIGS},
    "step": {"n": STEPS},
    "replays": {},
    "replay": {"name": REPLAY_NAMES},
    "game": {
        "game": GAMES,
        "call": CALLS,
        "bot": st.sampled_from(["krieg", "krieg3"]) | BOTS,
        "seed": SEEDS,
        "key": KEYS,
        "level": LEVELS,
        "program": PROGRAMS,
    },
}
#: the answer type of each op when the message is right
ANSWERS = {"games": "games", "watch": "frame", "step": "frame", "replays": "replays", "replay": "frame", "game": "game"}


GAME_BOTS = sorted((g, b.name) for g in game_names() for b in get_game(g).bots())


def messages(op: str) -> st.SearchStrategy[dict[str, Any]]:
    """``{"op": op, ...}`` with any of its fields (right, wrong or missing) and junk fields besides; for
    ``watch`` also a game with one of its own bots, and for ``game`` a game with one of its own calls, so that
    right messages are among them."""
    junk = {"extra": JUNK, "": JUNK, "op2": JUNK}
    anything = st.fixed_dictionaries({"op": st.just(op)}, optional={**FIELDS[op], **junk})
    if op == "game":
        own_call = st.sampled_from(GAME_CALLS).flatmap(
            lambda pair: st.fixed_dictionaries(
                {"op": st.just(op), "game": st.just(pair[0]), "call": st.just(pair[1])},
                optional={k: v for k, v in {**FIELDS[op], **junk}.items() if k not in ("game", "call")},
            )
        )
        return anything | own_call
    if op != "watch":
        return anything
    own_bot = st.sampled_from(GAME_BOTS).flatmap(
        lambda pair: st.fixed_dictionaries(
            {"op": st.just(op), "game": st.just(pair[0]), "bot": st.just(pair[1])},
            optional={"seed": SEEDS, "config": st.just({}) | CONFIGS, **junk},
        )
    )
    return anything | own_bot


@pytest.fixture(scope="module")
def fuzz_replays(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz-replays")
    episode = play_episode("puyo", "krieg3", 3, {"pairs": 8}, record=True)
    write_replay(folder / "good.jsonl", episode, get_game("puyo").rules_version, 2)
    (folder / "broken.jsonl").write_text('{"type": "header", "game": 5}\n[[[\n')
    (folder / "notes.txt").write_text("not a replay\n")
    os.mkfifo(folder / "fifo.jsonl")
    (folder.parent / "secret.jsonl").write_text("top secret\n")
    return folder


def prepared(op: str, replays: Path) -> Session:
    """A session with something to step or to press keys in, for the ops that need one."""
    session = Session(replays)
    if op == "step":
        assert session.handle({"op": "watch", "game": "puyo", "bot": "krieg3", "seed": 1})["type"] == "frame"
    if op == "game":  # a Puyo game against an AI to press keys in
        assert session.handle({"op": "game", "game": "puyo", "call": "versus", "bot": "krieg"})["type"] == "game"
    return session


def check_answer(op: str, answer: Any) -> None:
    assert isinstance(answer, dict)
    json.dumps(answer)  # a worker sends it as JSON
    if answer["type"] == "error":
        assert is_one_line_error(answer), answer
        assert not answer["message"].startswith("internal error"), answer
        assert "top secret" not in answer["message"]
    else:
        assert answer["type"] == ANSWERS[op], answer


@pytest.mark.parametrize("op", sorted(FIELDS))
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_each_op(op: str, fuzz_replays: Path, data: st.DataObject) -> None:
    msg = data.draw(messages(op), label="message")
    check_answer(op, prepared(op, fuzz_replays).handle(msg))


@settings(max_examples=2 * EXAMPLES, deadline=None)
@given(text=st.text() | st.builds(json.dumps, JUNK) | st.builds(lambda n: "[" * n, st.integers(0, 5000)))
def test_fuzz_raw_text(text: str) -> None:
    answer = json.loads(Session(None).reply(text))
    if answer["type"] == "error":  # (a generated text is now and then a right message)
        assert is_one_line_error(answer) and not answer["message"].startswith("internal error"), answer
    else:
        assert answer["type"] in ANSWERS.values(), answer
