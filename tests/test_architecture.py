"""The layering the design promises, checked on the source: edges and core know no game, games know no other game
and stand below the command line, no package reaches into another package's private module, and no module
imports itself through others (imports inside functions and under ``TYPE_CHECKING`` count too)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "puzzlebots"
GAMES = sorted(p.name for p in (SRC / "games").iterdir() if (p / "__init__.py").exists())
MODULES = sorted(SRC.rglob("*.py"))


def package_of(path: Path) -> tuple[str, ...]:
    """('games', 'puyo') for a file in a game, ('web',) for the web layer, () for top-level modules."""
    parts = path.relative_to(SRC).parts[:-1]
    return parts[:2] if parts[:1] == ("games",) else parts[:1]


def imported(path: Path) -> list[str]:
    """Absolute dotted names of everything ``path`` imports (relative imports resolved)."""
    here = ("puzzlebots", *path.relative_to(SRC).with_suffix("").parts)
    if path.name == "__init__.py":
        here = here[:-1] + ("__init__",)
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[: len(here) - node.level]) if node.level else ""
            module = ".".join(filter(None, [base, node.module or ""]))
            names += [module] + [f"{module}.{a.name}" for a in node.names]
    return [n for n in names if n.startswith("puzzlebots")]


def owner(name: str) -> tuple[str, ...]:
    parts = name.split(".")[1:]
    return tuple(parts[:2]) if parts[:1] == ["games"] else tuple(parts[:1])


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_layers(path: Path) -> None:
    mine = package_of(path)
    for name in imported(path):
        theirs = owner(name)
        if theirs[:1] == ("games",) and len(theirs) == 2 and theirs[1] in GAMES:
            assert mine[:1] == ("games",), f"{mine or 'puzzlebots'} imports the game module {name}"
            assert mine == theirs, f"game {mine[1]} imports another game: {name}"
        private = [p for p in name.split(".")[1:] if p.startswith("_") and not p.startswith("__")]
        where = path.relative_to(SRC)
        assert not private or theirs == mine, f"{where} imports another package's private module: {name}"


def test_games_stand_below_the_command_line() -> None:
    """A game's own commands use ``command_parts`` (and ``core``); ``cli`` is the layer above every game."""
    above = []
    for path in MODULES:
        if package_of(path)[:1] == ("games",):
            above += [f"{path.relative_to(SRC)} imports {n}" for n in imported(path) if owner(n)[:1] == ("cli",)]
    assert not above, above


def module_name(path: Path) -> str:
    parts = ("puzzlebots", *path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Each module of ``src`` and the modules of ``src`` it imports (a name imported from a module is that module)."""
    modules = {module_name(p): p for p in MODULES}
    graph = {}
    for name, path in modules.items():
        found = set()
        for target in imported(path):
            while target and target not in modules:  # ``pkg.module.attribute`` -> ``pkg.module``
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
        graph[name] = found
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_cycles_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_every_game_has_the_same_shape() -> None:
    required = {"game.py", "config.py", "rules.py", "engine.py", "bots", "kernels", "oracle.py"}
    for game in GAMES:
        have = {p.name for p in (SRC / "games" / game).iterdir()}
        assert required <= have, f"games/{game} lacks {sorted(required - have)}"


def test_no_function_over_150_lines() -> None:
    long = []
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > 150:
                    long.append(f"{path.relative_to(SRC)}:{node.name} ({size} lines)")
    assert not long, long
