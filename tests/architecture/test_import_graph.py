"""The shape of the package, read from its source: the command line on top, the rules and the game
at the bottom, and no circle anywhere.

Every import counts, those inside a function too: a function-level import is how a circle used to
hide (club.py took the CLI's error printer that way, night.py the game's Refused), and it breaks
the same way the day the function is called first.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "narrator"

# the entry points and the subcommands: they may import anything, and nothing imports them
CLI = ("narrator.cli", "narrator.__main__", "narrator.commands", "narrator.voice.cli")
# the rules and the game run in virtual time with no I/O (replay, simulate, the tests' tables)
CORE = ("narrator.flow", "narrator.rules")
NOT_IN_THE_CORE = ("sounddevice", "starlette", "uvicorn", "asyncio", "time", "threading", "narrator.voice",
                   "narrator.companion")


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: its file, and whether it is a package's __init__."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        init = parts[-1] == "__init__"
        found[".".join(parts[:-1] if init else parts)] = (path, init)
    return found


def imports(name: str, path: Path, init: bool) -> list[tuple[str, int]]:
    """(the dotted name imported, line) of every import in the module, at any depth: `from x
    import y` yields x.y, which is x's module y where there is one, else a name in x (a module
    imports its own package before it runs, so `from . import qr` is no import of the package)."""
    here = name.split(".") if init else name.split(".")[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]) if node.level else node.module
            base = base.rstrip(".")
            out += [(f"{base}.{a.name}", node.lineno) for a in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            out.append((node.args[0].value, node.lineno))
    return out


def graph() -> dict[str, dict[str, int]]:
    """The package's modules, each with the package's modules it imports (and the line)."""
    mods = modules()

    def module_of(dotted: str) -> str | None:
        while dotted and dotted not in mods:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    edges = {}
    for name, (path, init) in mods.items():
        out = {}
        for dotted, line in imports(name, path, init):
            target = module_of(dotted) if _within(dotted, ("narrator",)) else None
            if target and target != name:
                out.setdefault(target, line)
        edges[name] = out
    return edges


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan's algorithm)."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(edges):
        if v not in index:
            visit(v)

    def circle(group: set[str]) -> list[str]:
        start = min(group)
        paths, seen = [[start]], {start}
        while paths:  # breadth first: the shortest way back to the start
            path = paths.pop(0)
            for w in sorted(edges[path[-1]]):
                if w == start:
                    return path + [start]
                if w in group and w not in seen:
                    seen.add(w)
                    paths.append(path + [w])
        raise AssertionError(group)

    return [circle(g) for g in groups]


def shown(path: list[str], edges: dict[str, dict[str, int]]) -> str:
    return " -> ".join(f"{a} (line {edges[a][b]})" for a, b in zip(path, path[1:])) + f" -> {path[-1]}"


def test_the_graph_sees_every_kind_of_import():
    edges = graph()
    assert "narrator.flow.night" in edges["narrator.flow.game"]  # from .night import …
    assert "narrator.commands.play" in edges["narrator.cli"]  # from .commands import play
    assert "narrator.language" in edges["narrator.commands.terminal"]  # inside a function
    assert cycles({"a": {"b": 1}, "b": {"c": 2}, "c": {"a": 3}, "d": {"a": 4}}) == [["a", "b", "c", "a"]]


def test_no_module_imports_itself_round_a_circle():
    edges = graph()
    found = cycles(edges)
    assert not found, "import circles:\n" + "\n".join(shown(c, edges) for c in found)


def test_only_the_command_line_imports_the_command_line():
    edges = graph()
    wrong = [f"{a} (line {line}) imports {b}" for a, out in sorted(edges.items()) if not _within(a, CLI)
             for b, line in out.items() if _within(b, CLI)]
    assert not wrong, "\n".join(wrong)


def test_the_rules_and_the_game_import_no_sound_web_or_clock():
    mods = modules()
    wrong = [f"{name} (line {line}) imports {dotted}" for name, (path, init) in mods.items() if _within(name, CORE)
             for dotted, line in imports(name, path, init) if _within(dotted, NOT_IN_THE_CORE)]
    assert not wrong, "\n".join(wrong)
    # and through the package's other modules neither: the core imports nothing of narrator but itself
    outside = [f"{a} imports {b}" for a, out in sorted(graph().items()) if _within(a, CORE)
               for b in out if not _within(b, CORE) and b != "narrator"]
    assert not outside, "\n".join(outside)
