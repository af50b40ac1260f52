"""The manual cannot drift from the program: its generated pages are fresh, it builds strictly with
every page in the navigation, each command it shows parses, and each line it quotes is one the
program says (voices/*.toml). The README stays a page a newcomer reads in five minutes."""

from __future__ import annotations

import importlib.util
import json
import re
import shlex
import subprocess
import sys
import tomllib
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def _gen_docs():
    spec = importlib.util.spec_from_file_location("gen_docs", ROOT / "scripts" / "gen_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _nav_pages(nav) -> list[str]:
    pages = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        pages.extend(_nav_pages(value) if isinstance(value, list) else [value])
    return pages


def _mkdocs_config() -> dict:
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with mkdocs (.ci/requirements-ci.txt)")

    return yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


def _pages() -> list[Path]:
    """The manual's pages: docs/snippets/ holds what pages include, no page of its own."""
    return [p for p in sorted(DOCS.rglob("*.md")) if p.relative_to(DOCS).parts[0] != "snippets"]


def _hand_written_pages() -> list[Path]:
    generated = set(_gen_docs().GENERATED_PAGES)
    return [p for p in _pages() if p.relative_to(DOCS).as_posix() not in generated]


# ------------------------------------------------------------------ generated pages
def test_every_generated_page_is_what_the_program_says_now():
    stale = [str(path.relative_to(ROOT)) for path, text in _gen_docs().pages().items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"out of date (run python3 scripts/gen_docs.py): {stale}"


def test_the_config_reference_names_every_key_of_every_rule_system():
    from narrator.config import ADAPTER_SECTIONS
    from narrator.rules.variants import VARIANTS

    page = (DOCS / "reference" / "config.md").read_text(encoding="utf-8")
    for variant in VARIANTS.values():
        for key, option in {**variant.rules, **variant.timers}.items():
            assert f"| `{key}` |" in page and option.source.split(":")[0] in page, (variant.name, key)
    for section, options in ADAPTER_SECTIONS.items():
        assert f"### `[{section}]`" in page
        assert all(f"| `{key}` |" in page for key in options), section


def test_the_command_reference_names_every_flag():
    from narrator.cli import build_parser

    page = (DOCS / "reference" / "commands.md").read_text(encoding="utf-8")
    gen = _gen_docs()

    def walk(name, parser):
        assert f"`{name}`" in page, name
        for action in parser._actions:  # noqa: SLF001
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}`" in page, (name, flag)
        for child, _, sub in gen._sub_actions(parser):  # noqa: SLF001
            walk(f"{name} {child}", sub)

    for child, _, sub in gen._sub_actions(build_parser()):  # noqa: SLF001
        walk(f"narrator {child}", sub)


# ------------------------------------------------------------------ the build
def test_every_page_of_the_manual_is_in_its_navigation():
    nav = set(_nav_pages(_mkdocs_config()["nav"]))
    pages = {p.relative_to(DOCS).as_posix() for p in _pages()}
    assert pages - nav == set(), "pages outside the navigation"
    assert nav - pages == set(), "navigation names pages that do not exist"


def test_every_page_the_code_points_to_is_in_the_manual():
    """A comment (of the code or of a test) that sends the next engineer to a page of docs/ for a
    figure or a reason: the page is there (pages move as the manual grows; the pointers must move with them)."""
    named = {}
    for path in sorted([*(ROOT / "narrator").rglob("*"), *(ROOT / "tests").rglob("*.py")]):
        if path.suffix in (".py", ".html", ".toml"):
            for page in re.findall(r"docs/[\w./-]+\.(?:md|json)", path.read_text(encoding="utf-8")):
                named.setdefault(page, path.relative_to(ROOT).as_posix())
    missing = {page: where for page, where in named.items() if not (ROOT / page).exists()}
    assert named and not missing, missing


@pytest.mark.e2e
def test_the_manual_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is a test dependency (.ci/requirements-ci.txt)")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "site" / "reference" / "config" / "index.html").exists()


# ------------------------------------------------------------------ examples in the manual
FENCE = re.compile(r"^[ \t]*```(\w*)\n(.*?)^[ \t]*```", re.S | re.M)


def _shown_commands(text: str) -> list[str]:
    """Every `narrator …` command line in the page's sh blocks (and after a `$ ` in its text blocks)."""
    commands = []
    for lang, body in FENCE.findall(text):
        if lang not in ("sh", "bash", "console", "text"):
            continue
        for line in body.splitlines():
            if lang == "text" and not line.startswith("$ "):
                continue
            line = line.split(" #", 1)[0].strip().removeprefix("$ ").removeprefix(".venv/bin/")
            line = re.split(r" [>|] ", line)[0]  # the shell's redirection is no part of the command
            if line.startswith("narrator ") and "&&" not in line:
                commands.append(line)
    return commands


def test_every_command_the_manual_shows_is_one_the_program_takes():
    from narrator.cli import build_parser

    shown = [(page, line) for page in [*_hand_written_pages(), ROOT / "README.md"]
             for line in _shown_commands(page.read_text(encoding="utf-8"))]
    assert len(shown) > 20
    for page, line in shown:
        try:
            build_parser().parse_args(shlex.split(line)[1:])
        except SystemExit:
            pytest.fail(f"{page.relative_to(ROOT)}: `{line}` is not a command narrator takes")


def _words(text: str) -> list[str]:
    return re.findall(r"\{\w+\}|\w+", text.lower())


@lru_cache(maxsize=1)
def _voice_lines() -> tuple[tuple[str, ...], ...]:
    """Every line of every voice file, as words, with each placeholder one word standing for any."""
    lines = []

    def collect(value):
        if isinstance(value, str):
            lines.append(tuple(_words(value)))
        elif isinstance(value, dict):
            for v in value.values():
                collect(v)
        elif isinstance(value, list):
            for v in value:
                collect(v)

    for path in sorted((ROOT / "voices").glob("*.toml")):
        collect(tomllib.loads(path.read_text(encoding="utf-8")))
    return tuple(lines)


def _fits(quote: list[str], line: tuple[str, ...]) -> bool:
    """Whether `quote` is a run of words of `line` filled in: a placeholder stands for one to twelve
    words ("player 4 (Bo)", a path), the quote may start and end anywhere in the line, and at least
    a third of its words that are no number are the line's own."""
    n, m = len(quote), len(line)
    NO = -1

    @lru_cache(maxsize=None)
    def best(i: int, j: int) -> int:
        """The most of quote[i:] matched word for word, from line[j] on (NO: it does not fit)."""
        if i == n:
            return 0
        if j == m:
            return NO
        if line[j].startswith("{"):
            tries = [best(i + k, j + 1) for k in range(1, min(12, n - i) + 1)]
            return max(tries)
        if quote[i] != line[j]:
            return NO
        rest = best(i + 1, j + 1)
        return NO if rest == NO else rest + (not quote[i].isdigit())

    words = sum(not w.isdigit() for w in quote)
    found = max((best(0, j) for j in range(m)), default=NO)
    # the quote may also begin inside a placeholder's words (a name, a path) before the line's own
    found = max([found, *(best(k, j) for k in range(1, min(4, n)) for j in range(m) if line[j].startswith("{"))])
    return found != NO and found >= min(2, words) and 3 * found >= words


def _is_said(piece: str) -> bool:
    words = _words(piece)
    if not words:
        return True
    # only lines that hold at least half of the quote's words can hold the quote (the others may
    # be a placeholder's: a seat, a name, a path)
    distinct = {w for w in words if not w.isdigit()}
    return any(_fits(words, line) for line in _voice_lines() if 2 * len(distinct & set(line)) >= len(distinct))


QUOTE = re.compile(r'"([^"\n]+)"|«([^»\n]+)»')


def _quotes(text: str) -> list[str]:
    """The quoted lines of a page's prose: code blocks and code spans are not prose."""
    text = FENCE.sub("", text)
    text = re.sub(r"^\s*--8<--.*$", "", text, flags=re.M)  # a generated snippet, included here
    # a command quoted inside a line is part of the line; any other code span is not prose
    text = re.sub(r"`([^`\n\"«»]*)`", r"\1", text)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\s*\n\s*", " ", text)
    return [a or b for a, b in QUOTE.findall(text)]


def test_every_line_the_manual_quotes_is_one_the_program_says():
    unsaid = []
    quoted = 0
    for page in [*_hand_written_pages(), ROOT / "README.md"]:
        for quote in _quotes(page.read_text(encoding="utf-8")):
            quoted += 1
            if not all(_is_said(piece) for piece in quote.split("…")):
                unsaid.append(f"{page.relative_to(ROOT)}: {quote!r}")
    assert quoted > 50
    assert not unsaid, "quoted, but no voice file says it:\n" + "\n".join(unsaid)


def test_a_line_the_program_does_not_say_is_caught():
    assert _is_said("The morning is good. Nobody was killed tonight.")
    assert _is_said("Player 4 (Bo), you have 40 seconds.") is _is_said("Player 4, you have 40 seconds.") is True
    assert not _is_said("The morning is splendid.")


# ------------------------------------------------------------------ the README
def test_the_readme_is_short_and_keeps_its_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    assert len(lines) <= 200
    prose = [line for line in lines if not line.startswith(("|", "    ", "http"))]
    assert max(map(len, prose)) <= 200
    for command in ("scripts/install.sh && .venv/bin/narrator play", ".venv/bin/python -m pytest -q",
                    '.venv/bin/python -m pytest -q -m "not e2e"', "mkdocs serve"):
        assert command in readme
    assert "Measured on this 2-core machine" in readme  # the suite's own figures
    for target in re.findall(r"\]\(([^)#]+)", readme):
        if "://" not in target:
            assert (ROOT / target).exists(), target


def test_the_listen_example_is_what_narrator_listen_prints():
    from narrator.language import load_voice
    from narrator.voice.cli import command_json

    page = (DOCS / "how-to" / "speakers-and-microphones.md").read_text(encoding="utf-8")
    said, printed = re.search(r"A spoken \*([^*]+)\* prints `([^`]+)`", page).groups()
    assert json.dumps(command_json(load_voice("en").parse(said.lower()))) == printed
