"""Replays at their caps: `replay --no-show` of the largest replay the caps allow, and the page's replay list with it.

Targets (issue 31, acceptance 4): re-running it peaks under 200 MB and takes under 10 s; the page's replay list
answers in under 1 s with that file in the folder.

The largest replay the caps allow: ``MAX_ACTIONS`` legal actions of a Puyo game (a greedy placer keeps the
game alive), a state hash after every action, and each action line padded with spaces until the file is just
under the byte cap (``jsonio.MAX_BYTES``). It is written to a temporary folder. The re-run is a child process
(its peak resident set from ``os.wait4``), next to the re-run of a ten-action replay (what the imports cost).
Run: python benchmarks/bench_replay.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from puzzlebots.command_parts.terminal import print_fitted
from puzzlebots.core.jsonio import MAX_BYTES
from puzzlebots.core.replay import FORMAT, MAX_ACTIONS, MAX_LINE_BYTES
from puzzlebots.core.runner import resolve
from puzzlebots.web.session import Session

GAME = "puyo"
CONFIG = {"pairs": MAX_ACTIONS, "n_colours": 3}


def greedy_game(actions: int) -> tuple[dict[str, object], list[list[int]], list[str], dict[str, object]]:
    """The config, ``actions`` legal encoded actions, the hash after each and the result: each pair goes where
    it leaves the fewest puyos on the field (and the game alive)."""
    game = resolve(GAME)
    config = game.check_config(CONFIG)
    state = game.new_state(0, config)
    encoded, hashes = [], []
    while len(encoded) < actions and not state.is_terminal():
        best = None
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            key = (after.is_terminal(), after.field.count())
            if best is None or key < best[0]:
                best = (key, action)
        assert best is not None
        state.apply(best[1])
        encoded.append(game.encode_action(best[1]))
        hashes.append(state.state_hash())
    return dict(config), encoded, hashes, dict(state.result())


def write_padded(path: Path, actions: int) -> int:
    """The largest replay the caps allow with ``actions`` actions; its number of actions."""
    game = resolve(GAME)
    config, encoded, hashes, result = greedy_game(actions)
    header = {
        "type": "header",
        "format": FORMAT,
        "game": GAME,
        "rules_version": game.rules_version,
        "config": config,
        "seed": 0,
        "bot": "greedy",
        "hash_every": 1,
    }
    first = (
        json.dumps(header, sort_keys=True)
        + "\n"
        + json.dumps({"n": 0, "h": resolve(GAME).new_state(0, game.check_config(config)).state_hash()})
        + "\n"
    )
    hash_lines = [json.dumps({"n": i, "h": h}) + "\n" for i, h in enumerate(hashes, start=1)]
    end = json.dumps({"type": "end", "decisions": len(encoded), "result": result}) + "\n"
    plain = [json.dumps({"a": a}) for a in encoded]
    fixed = len(first) + sum(map(len, hash_lines)) + len(end) + sum(len(p) + 1 for p in plain)
    pad = min((MAX_BYTES - fixed) // max(1, len(plain)), MAX_LINE_BYTES - 64)
    with open(path, "w") as fh:
        fh.write(first)
        for line, hashed in zip(plain, hash_lines, strict=True):
            fh.write(line[:-1] + " " * pad + "}\n")
            fh.write(hashed)
        fh.write(end)
    assert path.stat().st_size <= MAX_BYTES
    return len(encoded)


def rerun(path: Path) -> tuple[float, float, float, str]:
    """``puzzlebots replay PATH --no-show`` in a child: wall seconds, CPU seconds (user and system: what a
    shared machine's load does not inflate much), peak resident MB, first line of its output."""
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "puzzlebots", "replay", str(path), "--no-show"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"replay failed: {output}")
    first = output.strip().splitlines()[0] if output.strip() else ""
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, first


def main(quick: bool = False) -> None:
    actions = 200 if quick else MAX_ACTIONS
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        small, large = root / "small.jsonl", root / "largest.jsonl"
        t0 = time.perf_counter()
        played = write_padded(large, actions)
        made = time.perf_counter() - t0
        write_padded(small, 10)
        base_s, base_cpu, base_mb, _ = rerun(small)
        seconds, cpu, peak_mb, said = rerun(large)
        session = Session(root)
        t0 = time.perf_counter()
        listed = json.loads(session.reply('{"op": "replays"}'))
        listing = time.perf_counter() - t0
        entry = next(f for f in listed["files"] if f["name"] == large.name)
        assert entry.get("length") == played, entry
    table = Table(
        title=f"the largest replay the caps allow: {played:,} {GAME} actions, a hash after each, "
        f"{large.name} padded to {MAX_BYTES / 2**20:.0f} MiB (written in {made:.0f} s)"
    )
    for col in ("measure", "value", "target"):
        table.add_column(col)
    table.add_row("replay --no-show: wall time (CPU time)", f"{seconds:.2f} s ({cpu:.2f} s)", "< 10 s")
    table.add_row("replay --no-show: peak memory", f"{peak_mb:.0f} MB", "< 200 MB")
    table.add_row(
        "a 10-action replay: wall (CPU) time, peak",
        f"{base_s:.2f} s ({base_cpu:.2f} s), {base_mb:.0f} MB",
        "(start-up)",
    )
    table.add_row("page's replay list with it", f"{listing * 1000:.1f} ms", "< 1 s")
    table.caption = said
    print_fitted(Console(), table)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    main(ap.parse_args().quick)
