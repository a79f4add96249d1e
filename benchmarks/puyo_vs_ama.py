"""One of our Puyo bots against ama (citrus610/ama, C++), the strongest public Puyo engine (issue 33, item 2).

ama is not part of the project and is never imported: give a checkout of ``citrus610/ama``. Its sources and our
UPI driver around them (``benchmarks/ama_upi/driver.cpp``, our code) are compiled with ``-O2`` into a cache
folder outside the tree (``--build-dir``, default ``$XDG_CACHE_HOME/puzzlebots/ama-upi``), reused while nothing
it is built from changed. Before the match the driver's colours, columns and rotations are checked against our
engine (every placement of random positions dropped by both: the same board and chain score). Then
``puzzlebots puyo match --bots BOT,upi:DRIVER`` plays on the frame clock, sides swapped, the same ``--ms`` for
both, and its table is printed, followed by ama's think time per move. A C++20 compiler (g++ or clang++) and a
CPU with SSE4.2 are needed (ama's field code is written with its intrinsics); PEXT is used where BMI2 is there.

    python benchmarks/puyo_vs_ama.py --ama DIR [--bot duelist] [--games 200] [--seed 100000] [--ms 30000]
                                     [--jobs 1] [--json FILE] [--width 250 --depth 16] [--build-dir DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from puzzlebots.core.errors import PuzzlebotsError

#: our bot by default: the versus AI (issue 33), the strongest on the frame clock
DEFAULT_BOT = "duelist"
DRIVER_DIR = Path(__file__).resolve().parent / "ama_upi"
#: ama's files the build needs, checked before any work (its sources are every .cpp of SOURCE_DIRS)
NEEDED = (
    "ai/ai.h",
    "ai/ai.cpp",
    "ai/gaze.cpp",
    "ai/search/search.cpp",
    "ai/search/beam/beam.cpp",
    "ai/search/dfs/attack.cpp",
    "core/core.h",
    "core/field.cpp",
    "lib/nlohmann/json.hpp",
    "config.json",
)
SOURCE_DIRS = ("core", "ai", "ai/search", "ai/search/beam", "ai/search/dfs")
HEADER_DIRS = (*SOURCE_DIRS, "lib/nlohmann", "lib/rapidhash")
BASE_FLAGS = ("-std=c++20", "-O2", "-DNDEBUG", "-pthread", "-msse4.2", "-mpopcnt")
#: positions of the driver's round trip against our engine
ROUND_TRIP_MOVES = 300


def cpu_flags() -> set[str]:
    """The CPU's feature flags (``/proc/cpuinfo``); empty where it cannot be read."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def find_compiler(given: str | None) -> str:
    """The C++ compiler: ``given`` (a name on PATH or a path), else g++ or clang++ from PATH."""
    for name in [given] if given else ["g++", "clang++"]:
        found = shutil.which(name)
        if found:
            return found
    what = f"--cxx {given!r} is not" if given else "no C++ compiler (g++ or clang++) is"
    raise PuzzlebotsError(f"{what} on PATH: one is needed to build ama")


def check_checkout(ama: Path) -> None:
    """Every file the build needs is a regular file (not a symlink) in ``ama``."""
    if not ama.is_dir() or ama.is_symlink():
        raise PuzzlebotsError(f"--ama {ama}: not a folder (give a checkout of github.com/citrus610/ama)")
    for name in NEEDED:
        path = ama / name
        if path.is_symlink() or not path.is_file():
            raise PuzzlebotsError(f"--ama {ama}: no {name} there (give a checkout of github.com/citrus610/ama)")


def flags_for(cpu: set[str]) -> list[str]:
    """Compiler flags for this CPU: ama's intrinsics need SSE4.2; PEXT (BMI2) is ama's option for speed."""
    if cpu and "sse4_2" not in cpu:
        raise PuzzlebotsError("this CPU has no SSE4.2, which ama's field code is written with")
    return [*BASE_FLAGS, *(["-mbmi2", "-DPEXT"] if "bmi2" in cpu else [])]


def sources(ama: Path) -> list[Path]:
    return sorted(p for d in SOURCE_DIRS for p in (ama / d).glob("*.cpp"))


def digest_of(parts: list[bytes]) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(hashlib.sha256(part).digest())
    return digest.hexdigest()[:16]


def build(ama: Path, cxx: str, flags: list[str], cache: Path) -> Path:
    """The driver binary, compiled (one object at a time, niced) unless ``cache`` holds this build already.

    An object is named by a digest of what it is built from (compiler version, flags, its source and every
    header), the binary by the digest of its objects (ama's ``config.json`` is read when it starts): an edit
    rebuilds only what it touches, and a stopped build keeps the objects it finished."""
    version = subprocess.run([cxx, "--version"], capture_output=True, text=True, check=False).stdout
    headers = sorted(p for d in HEADER_DIRS for p in (ama / d).glob("*.h*") if p.is_file())
    common = [version.encode(), " ".join(flags).encode(), (DRIVER_DIR / "compat.h").read_bytes()]
    common += [p.name.encode() + b"\0" + p.read_bytes() for p in headers]
    units = [DRIVER_DIR / "driver.cpp", *sources(ama)]
    objects = cache / "objects"
    objects.mkdir(parents=True, exist_ok=True)
    compile_flags = [*flags, "-include", str(DRIVER_DIR / "compat.h"), "-I", str(ama)]
    done = []
    for i, unit in enumerate(units, 1):
        out = objects / (
            digest_of([*common, str(unit.relative_to(unit.parents[1])).encode(), unit.read_bytes()]) + ".o"
        )
        if not out.is_file():
            print(f"ama driver: compiling {i}/{len(units)} {unit.name}", flush=True)
            part = out.with_suffix(".part")
            run([cxx, "-c", *compile_flags, str(unit), "-o", str(part)], f"compiling {unit}")
            part.replace(out)
        done.append(out)
    folder = cache / digest_of([p.name.encode() for p in done])
    driver = folder / "driver"
    if driver.is_file():
        print(f"ama driver: up to date ({driver})", flush=True)
        return driver
    folder.mkdir(exist_ok=True)
    part = folder / "driver.part"
    run([cxx, "-pthread", *map(str, done), "-o", str(part)], "linking the driver")
    part.replace(driver)
    print(f"ama driver: built {driver}", flush=True)
    return driver


def run(argv: list[str], what: str) -> None:
    proc = subprocess.run(["nice", "-n", "10", *argv], capture_output=True, text=True, check=False)
    if proc.returncode:
        first = next((ln for ln in proc.stderr.splitlines() if "error" in ln), proc.stderr.strip()[:200])
        raise PuzzlebotsError(f"{what} failed: {first}")


def round_trip(driver: Path, config: Path, seed: int = 0) -> int:
    """Drop the current pair of random positions at every reachable placement with our engine and with the
    driver (ama's ``drop_pair`` and ``pop``): the same board and chain score each time, or ``PuzzlebotsError``.
    Returns the number of placements compared."""
    import numpy as np

    from puzzlebots.games.puyo.engine import Field, action_of
    from puzzlebots.games.puyo.upi import pfen, queue_text

    rng = random.Random(seed)
    garbage_rng = np.random.default_rng(seed)
    proc = subprocess.Popen(
        [str(driver), "--config", str(config)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdin is not None and proc.stdout is not None
    field, compared = Field(), 0
    try:
        while compared < ROUND_TRIP_MOVES:
            pair = (rng.randint(1, 4), rng.randint(1, 4))
            if field.heights[2] >= 10 or not field.placements(pair):
                field = Field()
            if rng.random() < 0.1:
                field.drop_garbage(rng.randint(1, 8), garbage_rng)
                if field.heights[2] >= 11:
                    field = Field()
            queue = queue_text([pair, pair])
            text = f"position {pfen(field)} {queue} 0 0 0 0 0 ////// {queue} 0 0 0 0 0"
            for index in sorted(field.placements(pair)):
                x, r = action_of(index)
                proc.stdin.write(f"{text}\ndrop {x} {r}\n")
                proc.stdin.flush()
                answer = proc.stdout.readline().split()
                ours = field.copy()
                chain = ours.play(pair, index)
                if answer != ["info", "field", pfen(ours), "chain", str(chain.score)]:
                    raise PuzzlebotsError(
                        f"the driver disagrees with our engine on {text} drop {x} {r}: {' '.join(answer)!r}, "
                        f"ours field {pfen(ours)} chain {chain.score}"
                    )
                compared += 1
            field.play(pair, rng.choice(sorted(field.placements(pair))))
    finally:
        proc.kill()
        proc.wait()
    return compared


def think_times(log: Path) -> str:
    """ama's think time per move from the driver's log (one line of milliseconds per move)."""
    times = sorted(float(t) for t in log.read_text().split()) if log.is_file() else []
    if not times:
        return "ama think time: no move logged"
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return (
        f"ama think time per move (wall, {len(times)} moves): mean {statistics.fmean(times):.0f} ms, "
        f"median {statistics.median(times):.0f} ms, 95th percentile {p95:.0f} ms, max {times[-1]:.0f} ms"
    )


def default_cache() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "puzzlebots" / "ama-upi"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ama", type=Path, required=True, help="a checkout of github.com/citrus610/ama")
    parser.add_argument("--bot", default=DEFAULT_BOT, help=f"our bot (default {DEFAULT_BOT})")
    parser.add_argument("--games", type=int, default=200, help="games, an even number (default 200)")
    parser.add_argument("--seed", type=int, default=100_000, help="first seed (default 100000)")
    parser.add_argument(
        "--ms",
        type=int,
        default=30_000,
        help="think time per move for both (ama has no time control: set it above its slowest move)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--json", type=Path, default=None, help="the match's result file (resumable)")
    parser.add_argument("--reach", choices=("strict", "climb12"), default="strict", help="the reach rule")
    parser.add_argument("--width", type=int, default=250, help="ama's beam width (default its own, 250)")
    parser.add_argument("--depth", type=int, default=16, help="ama's beam depth (default its own, 16)")
    parser.add_argument("--cxx", default=None, help="the C++ compiler (default g++, else clang++, from PATH)")
    parser.add_argument("--build-dir", type=Path, default=None, help="where builds are cached")
    args = parser.parse_args(argv)
    try:  # every option first, then what the machine must have (a compiler, SSE4.2)
        if args.games < 2 or args.games % 2:
            raise PuzzlebotsError(f"--games takes an even number of at least 2, got {args.games}")
        if not 1 <= args.ms <= 600_000 or not 1 <= args.jobs <= 64 or args.seed < 0:
            raise PuzzlebotsError("--ms takes 1..600000, --jobs 1..64 and --seed a whole number from 0")
        if not 1 <= args.width <= 10_000 or not 1 <= args.depth <= 64:
            raise PuzzlebotsError("--width takes 1..10000 and --depth 1..64")
        from puzzlebots.core.registry import get_game

        if args.bot.startswith("upi:") or "," in args.bot:
            raise PuzzlebotsError(f"--bot takes one of our bots, got {args.bot!r}")
        get_game("puyo").bot_info(args.bot)
        cache = (args.build_dir or default_cache()).resolve()
        ama = args.ama.resolve()
        if "," in str(cache) or "," in str(ama):
            raise PuzzlebotsError("the --ama and --build-dir paths cannot hold a comma (match --bots splits on it)")
        check_checkout(args.ama)
        cxx = find_compiler(args.cxx)
        flags = flags_for(cpu_flags())
    except PuzzlebotsError as exc:
        parser.exit(2, f"error: {exc}\n")
    try:
        driver = build(ama, cxx, flags, cache)
        print(
            f"ama driver: {round_trip(driver, ama / 'config.json')} placements dropped alike by it and by our engine",
            flush=True,
        )
    except (PuzzlebotsError, OSError) as exc:
        parser.exit(2, f"error: {exc}\n")
    print(f"compiler {cxx}, flags {' '.join(flags)}", flush=True)
    with tempfile.TemporaryDirectory(prefix="puyo-vs-ama-") as tmp:
        log = Path(tmp) / "think.log"
        # the log goes by the environment, so that the bot's name (the command) is the same in every run and a
        # --json file resumes
        engine = shlex.join(
            [
                str(driver),
                "--config",
                str(ama / "config.json"),
                "--reach",
                args.reach,
                "--width",
                str(args.width),
                "--depth",
                str(args.depth),
            ]
        )
        command = [
            sys.executable,
            "-m",
            "puzzlebots",
            "puyo",
            "match",
            "--bots",
            f"{args.bot},upi:{engine}",
            "--games",
            str(args.games),
            "--seed",
            str(args.seed),
            "--ms",
            str(args.ms),
            "--jobs",
            str(args.jobs),
            "--reach",
            args.reach,
            *(["--json", str(args.json)] if args.json else []),
        ]
        code = subprocess.run(command, check=False, env={**os.environ, "PUZZLEBOTS_AMA_LOG": str(log)}).returncode
        print(think_times(log), flush=True)
    sys.exit(code)


if __name__ == "__main__":
    main()
