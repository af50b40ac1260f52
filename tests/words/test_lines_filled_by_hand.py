"""The lines a page fills by hand hold no placeholder the page does not fill.

Most lines go through the voice (narrator/language.py), which puts in a Hungarian seat's article
({seat_article}) and chooses a plural form. Three fillers do without it: the game report
(narrator/report/page.py, `Page.w`: `esc(template).format(**args)`) and the phone and host pages,
which fill their [phone] words in the browser with their own regex. A translator who gives one of
their lines a placeholder they do not supply (an «{seat_article}» as every other Hungarian line
has, a {seat} where only {n} is given) breaks it: the report stops with a KeyError, a phone shows
«{seat_article} 7. hely». The keys and the names each filler supplies are read from the fillers'
code, so a new call is checked as soon as it is written; the message names the filler's file and
line, the line to change (or the filler to give the value)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from narrator.companion import words as companion_words
from narrator.language import load_voice
from narrator.report import page
from narrator.report.page import report_words

LANGS = ["en", "ru", "de", "sv", "hu"]
ROOT = Path(page.__file__).resolve().parents[2]
STATIC = Path(companion_words.__file__).resolve().parent / "static"


class Fill:
    """One call of a filler: the keys it fills (exact, or every key with a prefix) and the names it supplies."""

    def __init__(self, where: str, exact=(), prefixes=(), names=()):
        self.where, self.exact, self.prefixes, self.names = where, set(exact), tuple(prefixes), set(names)

    def keys(self, words: dict) -> list[str]:
        return sorted(k for k in words if k in self.exact or k.startswith(self.prefixes) and self.prefixes)

    def __repr__(self) -> str:
        return f"{self.where}: {sorted(self.exact)} {list(self.prefixes)} <- {sorted(self.names)}"


def _rel(path: Path) -> str:
    return str(path.resolve().relative_to(ROOT))


# ---------------------------------------------------------------- the report: Page.w in page.py

def report_fills() -> list[Fill]:
    path = Path(page.__file__)
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}

    def among(node, name: str) -> list[str]:
        """The values `name` can have where `node` is: those of an `if name in ("a", "b"):` around it."""
        while node in parents:
            node, child = parents[node], node
            if not (isinstance(node, ast.If) and child in node.body):
                continue
            for test in node.test.values if isinstance(node.test, ast.BoolOp) and isinstance(node.test.op, ast.And) else [node.test]:
                if (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == name
                        and isinstance(test.ops[0], ast.In) and isinstance(test.comparators[0], ast.Tuple)):
                    return [e.value for e in test.comparators[0].elts]
        return []

    def assigned(node, name: str):
        """The one value a local `name = …` of the function around `node` gives it."""
        while node in parents and not isinstance(node, ast.FunctionDef):
            node = parents[node]
        values = [n.value for n in ast.walk(node) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
        return values[0] if len(values) == 1 else None

    def constants(expr) -> list[str]:
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return [expr.value]
        if isinstance(expr, ast.IfExp) and constants(expr.body) and constants(expr.orelse):
            return constants(expr.body) + constants(expr.orelse)
        return []

    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "w"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):
            continue
        exact, prefixes = [], []

        def key(arg) -> None:
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                exact.append(arg.value)
            elif isinstance(arg, ast.IfExp):
                key(arg.body), key(arg.orelse)
            elif isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Add) and constants(arg.left):
                prefixes.extend(constants(arg.left))
            elif isinstance(arg, ast.Name) and among(node, arg.id):
                exact.extend(among(node, arg.id))
            elif (isinstance(arg, ast.BinOp) and isinstance(arg.left, ast.Name) and among(node, arg.left.id)
                  and isinstance(arg.right, ast.Constant)):
                exact.extend(v + arg.right.value for v in among(node, arg.left.id))
            elif isinstance(arg, ast.Name) and assigned(node, arg.id) is not None:
                key(assigned(node, arg.id))
            elif (isinstance(arg, ast.BinOp) and isinstance(arg.left, ast.Name) and arg.left.id == "pre"
                  and isinstance(arg.right, ast.Constant) and 'pre = "when_" if within else ""' in source):
                exact.extend((arg.right.value, "when_" + arg.right.value))  # period_name: a heading, or within a sentence
            else:
                raise AssertionError(f"{_rel(path)}:{node.lineno}: a key this test cannot read "
                                     f"({ast.unparse(arg)}): teach tests/words/test_lines_filled_by_hand.py which keys it fills")

        key(node.args[0])
        out.append(Fill(f"{_rel(path)}:{node.lineno} (filled by Page.w: esc(template).format(**args))",
                        exact, prefixes, [k.arg for k in node.keywords]))
    return out


# ---------------------------------------------------------------- the pages: w() in phone.html and host.html

_CALL = re.compile(r"(?<![\w.$])w\(")
_STRING = re.compile(r'"([^"\\]*)"')


def _call_args(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose "(" is at text[start - 1]."""
    depth, args, cur, i, quote = 0, [], "", start, None
    while True:
        c = text[i]
        if quote:
            quote = None if c == quote and text[i - 1] != "\\" else quote
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return [a.strip() for a in args + [cur]]
            depth -= 1
        elif c == "," and depth == 0:
            args.append(cur)
            cur, i = "", i + 1
            continue
        cur += c
        i += 1


def page_fills(name: str) -> list[Fill]:
    path = STATIC / name
    text = path.read_text(encoding="utf-8")
    line_of = lambda pos: text.count("\n", 0, pos) + 1  # noqa: E731
    filler = next(m for m in re.finditer(r"var w = function", text))
    how = f"filled by its own w() at {_rel(path)}:{line_of(filler.start())}"
    # the server's page_words puts one word under another's key: the page fills that word there
    under = _words_under_other_keys()
    out = [Fill(f"{_rel(path)}:{line_of(m.start())} (data-w, {how})", [m.group(1), *under.get(m.group(1), [])])
           for m in re.finditer(r'data-w="(\w+)"', text)]
    for m in _CALL.finditer(text):
        args = _call_args(text, m.end())
        first, where = args[0], f"{_rel(path)}:{line_of(m.start())} ({how})"
        names = re.findall(r"[{,]\s*(\w+)\s*:", args[1]) if len(args) > 1 else []
        if first == "el.dataset.w":
            continue  # the data-w elements above
        if first == "c":  # a yes/no ballot's buttons, "yes" and "no"
            assert 'ask === "yes_no"' in text[m.start() - 120:m.start()], f"{where}: w(c) is no longer the yes/no buttons"
            out.append(Fill(where, ["yes", "no"], (), names))
            continue
        strings = [s for s in _STRING.findall(first) if not re.search(r"===\s*" + re.escape(f'"{s}"'), first)]
        assert strings and not re.search(r"[^\s\w\"?:+.&=|!]", first), (
            f"{where}: a key this test cannot read ({first}): teach tests/words/test_lines_filled_by_hand.py which keys it fills")
        prefixes = [s for s in strings if re.search(re.escape(f'"{s}"') + r"\s*\+", first)]
        exact = [s for s in strings if s not in prefixes]
        if first == '"host_confirm_" + b.dataset.act':
            # the buttons that ask first are the CONFIRM list's, not every host_confirm_ line
            listed = re.search(r"var CONFIRM = \[([^\]]*)\]", text)
            exact, prefixes = ["host_confirm_" + a for a in _STRING.findall(listed.group(1))], []
        out.append(Fill(where, exact, prefixes, names))
    return out


def _words_under_other_keys() -> dict[str, list[str]]:
    """`words["host_nominations"], … = words["host_accused"], …` in words.page_words (narrator/companion): key → the keys put there."""
    tree = ast.parse(Path(companion_words.__file__).read_text(encoding="utf-8"))
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "page_words")
    under: dict[str, list[str]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            targets = node.targets[0].elts if isinstance(node.targets[0], ast.Tuple) else [node.targets[0]]
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            for t, v in zip(targets, values):
                if isinstance(t, ast.Subscript) and isinstance(v, ast.Subscript):
                    under.setdefault(t.slice.value, []).append(v.slice.value)
    return under


# ---------------------------------------------------------------- the check

def placeholders(template: str) -> set[str]:
    return {re.split(r"[.\[!:]", f)[0] for _, f, _, _ in string.Formatter().parse(template) if f is not None}


def problems(words: dict, fills: list[Fill], section: str, lang: str) -> list[str]:
    out = []
    for fill in fills:
        for key in fill.keys(words):
            template = words[key]
            if not isinstance(template, str):
                out.append(f"voices/{lang}.toml [{section}] {key} has plural forms, which {fill.where} cannot "
                           f"choose: give it one form, or fill it through the voice")
                continue
            extra = placeholders(template) - fill.names
            if extra:
                given = ", ".join("{%s}" % n for n in sorted(fill.names)) or "nothing"
                out.append(f"voices/{lang}.toml [{section}] {key} = {template!r} has "
                           f"{', '.join('{%s}' % n for n in sorted(extra))}, but {fill.where} supplies {given}: "
                           f"word the line without it, or make the filler supply it (or fill it through the voice)")
    return out


def test_the_fillers_are_read():
    """The test reads what it must: a slip in its reading would pass every line unchecked."""
    report = report_fills()
    assert any("shot_aimed" in f.exact and f.names == {"by", "seat"} for f in report)
    assert any("role_" in f.prefixes for f in report) and any("round_" in f.prefixes and f.names == {"seat"} for f in report)
    phone, host = page_fills("phone.html"), page_fills("host.html")
    assert any("seat_role" in f.exact and f.names == {"seat", "role"} for f in phone)
    assert any("outcome_" in f.prefixes for f in phone) and any({"yes", "no"} <= f.exact for f in phone)
    assert any(f.exact == {"host_confirm_disqualify", "host_confirm_defeat", "host_confirm_leave"} and f.names == {"seat"} for f in host)
    assert any({"host_nominations", "host_accused"} <= f.exact for f in host)
    assert len(report) > 50 and len(phone) > 25 and len(host) > 40


def test_a_placeholder_the_filler_does_not_supply_is_named_with_the_filler():
    fills = [Fill("narrator/report/page.py:190", ["shot_survived"], (), ["seat"])]
    found = problems({"shot_survived": "{seat_article} {seat}. játékos túlélte"}, fills, "report", "hu")
    assert len(found) == 1 and "{seat_article}" in found[0] and "narrator/report/page.py:190" in found[0]
    assert not problems({"shot_survived": "{seat}. játékos túlélte"}, fills, "report", "hu")


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_s_lines_hold_only_what_page_w_supplies(lang):
    assert not problems(report_words(lang), report_fills(), "report", lang), "\n".join(
        problems(report_words(lang), report_fills(), "report", lang))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["phone.html", "host.html"])
def test_the_pages_lines_hold_only_what_their_w_supplies(lang, name):
    # the page's words are every English [phone] line with the language's own over them (narrator/companion/words.py, page_words)
    words = {**load_voice("en").phone, **load_voice(lang).phone}
    found = problems(words, page_fills(name), "phone", lang)
    assert not found, "\n".join(found)
