"""The companion renders the moment the rules publish (narrator/flow/moment.py) and knows no rule
system: no variant's name, no day state's name, no attribute only a day procedure has, in its code
(comments and docstrings that cite a seed are free to name them). And no module of it is a
catch-all: each is under ~500 lines, the web server under 700.

testing.py is left out: it is the tests' driver of whole games (a classic vote, a Swedish hand
vote), which must name the rules it plays.
"""

from __future__ import annotations

import ast
from pathlib import Path

from narrator.flow.day_classic import ClassicGame
from narrator.flow.day_grundregeln import GrundregelnGame
from narrator.flow.day_hungariq import HungariqGame
from narrator.flow.day_sverige import SverigeGame
from narrator.flow.game import BASE_STATES, BaseGame
from narrator.rules.variants import VARIANTS

COMPANION = Path(__file__).resolve().parents[2] / "narrator" / "companion"
DAYS = (ClassicGame, GrundregelnGame, HungariqGame, SverigeGame)
LEFT_OUT = ("testing.py",)


def _code_files() -> list[Path]:
    return [p for p in sorted(COMPANION.glob("*.py")) if p.name not in LEFT_OUT]


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def _day_attributes() -> set[str]:
    """What a day procedure sets on the game that the shared game does not have."""
    names = set()
    for day in DAYS:
        tree = ast.parse(Path(__import__(day.__module__, fromlist=["x"]).__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
    return {n for n in names if not hasattr(BaseGame, n)} - _base_attributes()


def _base_attributes() -> set[str]:
    import narrator.flow.game as game

    tree = ast.parse(Path(game.__file__).read_text(encoding="utf-8"))
    return {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name) and node.value.id == "self"}


def test_the_companion_names_no_variant_and_no_day_state():
    states = {s for day in DAYS for s in day.DAY_STATES} | (set(BASE_STATES) - {"setup", "night", "over"})
    names = set(VARIANTS) | states
    wrong = []
    for path in _code_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                if node.value in names or node.value.removeprefix("state_") in names:
                    wrong.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert not wrong, "the companion names the rules (have the moment say it):\n" + "\n".join(wrong)


def _is_the_game(node: ast.AST) -> bool:
    """`g`, `game`, `self.game`, `self.live.game`: the companion's names for the game."""
    if isinstance(node, ast.Name):
        return node.id in ("g", "game")
    return isinstance(node, ast.Attribute) and node.attr == "game"


def test_the_companion_reads_no_attribute_only_a_day_procedure_has():
    day_only = _day_attributes()
    assert {"votes", "extension_used", "answers", "decider"} <= day_only  # the test sees them
    wrong = []
    for path in _code_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in day_only and _is_the_game(node.value):
                wrong.append(f"{path.name}:{node.lineno}: .{node.attr}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr") \
                    and len(node.args) > 1 and _is_the_game(node.args[0]) and isinstance(node.args[1], ast.Constant) and node.args[1].value in day_only:
                wrong.append(f"{path.name}:{node.lineno}: {node.func.id}(…, {node.args[1].value!r})")
    assert not wrong, "the companion reads a day procedure's own state (have the moment say it):\n" + "\n".join(wrong)


def test_no_companion_module_is_a_catch_all():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in COMPANION.glob("*.py")}
    limits = {"server.py": 700}
    over = {name: n for name, n in sizes.items() if n > limits.get(name, 500)}
    assert not over, over
