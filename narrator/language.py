"""Narration lines and command sentences of one language, loaded from `voices/<lang>.toml`.

The voice files are data written by people who speak the language; this module only renders
lines (with plural forms) and turns a heard sentence into a command. The same command patterns
are expanded into the recogniser's grammar, so what can be heard and what can be parsed never
drift apart.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "ru", "sv", "hu", "de")
# the rule systems whose hosts may word a line their own way ([lines.<variant>] in a voice file)
VARIANT_NAMES = ("classic", "sverige", "hungariq", "grundregeln")
# what a speaker may say during the day; a bare seat number only counts when a seat is asked for
DAY_COMMANDS = frozenset({"nominate", "revoke", "cancel", "end_speech"})


# A seat number has at most this many digits: longer ones are no seat at any table, and int()
# refuses numbers of more than 4,300 digits with a ValueError nobody would understand.
MAX_SEAT_DIGITS = 4


def seat_number(token: str) -> int | None:
    """A seat number written in decimal digits of any script (3, ٣, ３), or None.

    Superscripts and other "digits" that are no decimal digits (³ is AltGr+3 on a German
    keyboard), signs, spaces and overlong numbers are None, never an exception.
    """
    if not isinstance(token, str) or not 0 < len(token) <= MAX_SEAT_DIGITS or not token.isdecimal():
        return None
    return int(token)


def voices_dir() -> Path:
    env = os.environ.get("NARRATOR_VOICES")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent.parent / "voices"


def plural_category(lang: str, n: int) -> str:
    """CLDR cardinal plural category for integer n (only the categories these languages use)."""
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


PLURAL_CATEGORIES = {"ru": ("one", "few", "many")}

_HU_VOWELS = set("aáeéiíoóöőuúüű")


def _hu_number_starts_with_vowel(n: int) -> bool:
    """Whether the Hungarian reading of n opens with a vowel: egy (1), öt (5), ötven (50–59),
    ötszáz (500–599), ezer (1000–1999), egymillió… Száz (100) and tíz (10) carry no "egy"."""
    if n >= 1_000_000:
        return _hu_number_starts_with_vowel(n // 1_000_000)
    if n >= 1000:
        return n < 2000 or _hu_number_starts_with_vowel(n // 1000)
    if n >= 100:
        return n >= 200 and _hu_number_starts_with_vowel(n // 100)
    if n >= 10:
        return n // 10 == 5
    return n in (1, 5)


def hu_article(value: str) -> str:
    """The Hungarian definite article before `value` as it is read out: "az" before a vowel
    (az 1., az 5., az 50., az ezer…, az adat), "a" before a consonant (a 2., a 10., a 20., a fájl)."""
    text = str(value).strip().lower()
    digits = re.match(r"\d+", text)
    if digits:
        return "az" if _hu_number_starts_with_vowel(int(digits.group())) else "a"
    first = next((c for c in text if c.isalpha()), "")
    return "az" if first in _HU_VOWELS else "a"


# {seat_article} in a template is the article the value of {seat} takes in that language; only
# languages whose article changes with the word after it have one. One that opens a template opens
# a sentence and gets its capital ("A 7. játékos már szavazott."), wherever the template is filled.
ARTICLES = {"hu": hu_article}
ARTICLE_SUFFIX = "_article"
_OPENING_ARTICLE = re.compile(r"\{\w+" + ARTICLE_SUFFIX + r"\}")


def plural_categories(lang: str) -> tuple[str, ...]:
    return PLURAL_CATEGORIES.get(lang, ("one", "other"))


@dataclass(frozen=True)
class Command:
    """A sentence understood as a game command: kind is nominate, revoke, end_speech, cancel or seat."""

    kind: str
    seat: int | None = None
    by: int | None = None


@dataclass(frozen=True)
class Malformed:
    """A sentence that starts like a command but is not one: answered, never guessed."""

    kind: str
    text: str


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# a number standing alone in a spoken line: "7", not the 7 of "7:30", "1,5" or "A7"
_WHOLE_NUMBER = re.compile(r"(?<![\w.,:])\d+(?!\w|[.,:]\d)")


def _normalise(text: str) -> str:
    text = text.lower().replace("’", "'").replace("ё", "е")
    text = re.sub(r"[^\w' ]+", " ", text)
    return " ".join(text.split())


def expand_pattern(pattern: str) -> list[str]:
    """All sentences a pattern stands for: `[x]` is optional, `(a|b)` a choice; slots stay as {name}."""
    def parse_seq(s: str, i: int, stop: str) -> tuple[list[str], int]:
        outs = [""]
        while i < len(s) and s[i] not in stop:
            c = s[i]
            if c in "[(":
                close = "]" if c == "[" else ")"
                alts, i = parse_alts(s, i + 1, close)
                if c == "[":
                    alts = alts + [""]
                outs = [o + a for o in outs for a in alts]
                i += 1
            else:
                outs = [o + c for o in outs]
                i += 1
        return outs, i

    def parse_alts(s: str, i: int, close: str) -> tuple[list[str], int]:
        alts: list[str] = []
        while True:
            seq, i = parse_seq(s, i, "|" + close)
            alts.extend(seq)
            if i >= len(s) or s[i] == close:
                return alts, i
            i += 1

    seqs, _ = parse_seq(pattern, 0, "")
    return sorted({" ".join(x.split()) for x in seqs})


class Voice:
    """One language: lines to say, numbers and command sentences to understand."""

    def __init__(self, lang: str, data: dict, source: Path, variant: str | None = None):
        self.lang = lang
        self.source = source
        self.variant = variant
        self.name = data.get("name", lang)
        lines = dict(data.get("lines", {}))
        # [lines.<variant>]: the words a variant's own host uses instead of the shared ones
        self.variant_lines: dict[str, dict] = {k: lines.pop(k) for k in VARIANT_NAMES if k in lines}
        self.lines: dict[str, str | dict[str, str]] = {**lines, **self.variant_lines.get(variant or "", {})}
        # [spoken]: a line paced for the ear where that is not how it reads ("räcka. upp. sin
        # hand. NU!" is a chant; written, its full stops are stray). A variant that words the line
        # its own way has its own pacing, so the shared one is not used for it.
        own = self.variant_lines.get(variant or "", {})
        self.spoken: dict[str, str | dict[str, str]] = {k: v for k, v in data.get("spoken", {}).items() if k not in own}
        self.numbers: dict[int, list[str]] = {
            int(k): [_normalise(w) for w in v] for k, v in data.get("numbers", {}).items()
        }
        self.commands: dict[str, list[str]] = data.get("commands", {})
        self.hints: dict[str, list[str]] = data.get("command_hints", {})
        self.speech: dict = data.get("speech", {})
        # [speech] said_tens, said_hundreds: the voice says every number of a spoken line in words
        # (units from [numbers], tens and hundreds from these), as the engine misreads digits:
        # espeak-ng 1.51 says Russian "7" as «сейм», "27" as «двадцать сейм», "25" as «двадцать
        # пьять»; the screens keep the digits
        self.said_tens: dict[int, str] = {int(k): v for k, v in self.speech.get("said_tens", {}).items()}
        self.said_hundreds: dict[int, str] = {int(k): v for k, v in self.speech.get("said_hundreds", {}).items()}
        self._units: dict[int, str] = {int(k): v[0] for k, v in data.get("numbers", {}).items() if v}
        # [speech] said_feminine: before a noun of another gender (feminine_after: «рука», «минута»,
        # «ночь») a number's last word agrees: «одна рука», «две минуты», «двадцать одна секунда»
        self.said_feminine: dict[int, str] = {int(k): v for k, v in self.speech.get("said_feminine", {}).items()}
        after = self.speech.get("feminine_after", [])
        self._feminine = re.compile(" (?:" + "|".join(map(re.escape, after)) + ")") if after else None
        # what the phone and host pages show: plain templates with {placeholders}, no plurals
        self.phone: dict[str, str] = data.get("phone", {})
        # what the console prints for whoever types at it (never spoken): the notes on a typed
        # line, the status, the help, the journal's whereabouts
        console = dict(data.get("console", {}))
        # [console.<variant>]: where a rule system names a thing its own way (hungariq's accused)
        own_console = {k: console.pop(k) for k in VARIANT_NAMES if k in console}
        self.console: dict[str, str | dict[str, str]] = {**console, **own_console.get(variant or "", {})}
        # what the command line prints around a game (a crash, a resume, the speaker, the
        # microphone) and what a config error says: printed, never spoken
        self.cli: dict[str, str | dict[str, str]] = data.get("cli", {})
        self.config_errors: dict[str, str | dict[str, str]] = data.get("config_errors", {})
        # the letters a typed answer may begin with in this language ("j" for ja, "д" for да)
        self.answers: dict[str, list[str]] = {k: [str(x).lower() for x in v] for k, v in data.get("answers", {}).items()}
        # the winner as this variant's host names him ("The evil side wins." in grundregeln, where
        # classic says "The mafia wins."): [winner], and [winner.<variant>] where a host words it his way
        winners = dict(data.get("winner", {}))
        own_winners = {k: winners.pop(k) for k in VARIANT_NAMES if k in winners}
        self.winners: dict[str, str] = {**winners, **own_winners.get(variant or "", {})}
        self._word_to_number = {w: n for n, ws in self.numbers.items() for w in ws}
        self._matchers = self._compile()

    # -- speaking ---------------------------------------------------------------------------
    def render(self, line: str, args: dict | None = None, spoken: bool = False, inside: bool = False) -> str:
        """A line as it is written, or with `spoken` as the voice says it. `inside`: the line goes
        on a sentence already begun ("waiting for: the mafia's victim"), so it opens with no capital."""
        args = args or {}
        template = self.lines.get(line)
        if template is None:
            raise KeyError(f"{self.source}: no line {line!r}")
        if spoken:
            template = self.spoken.get(line, template)
        text = self.fill(template, args, capital=not inside)
        if spoken and self.said_tens:
            said = _WHOLE_NUMBER.sub(self._in_words, text)
            # a line that opens with its number ("2 дня и 2 ночи…") still opens a sentence
            text = said[0].upper() + said[1:] if text[:1].isdigit() and not inside else said
        return text

    def _in_words(self, m: re.Match) -> str:
        """A number of a spoken line as the voice says it, its last word agreeing with a feminine
        noun after it; one the words do not reach (a thousand or more) stays as it is."""
        feminine = self._feminine is not None and self._feminine.match(m.string, m.end()) is not None
        return self.said_in_words(int(m[0]), feminine) or m[0]

    def said_in_words(self, n: int, feminine: bool = False) -> str | None:
        """`n` in this language's words ("двадцать одна" for 21 hands), or None past its words."""
        hundreds, rest = divmod(n, 100)
        tens, units = divmod(rest, 10) if rest >= 20 else (0, rest)
        if not 0 < n < 1000 or (hundreds and hundreds * 100 not in self.said_hundreds) \
                or (tens and tens * 10 not in self.said_tens) or (units and units not in self._units):
            return None
        words = [self.said_hundreds[hundreds * 100]] if hundreds else []
        words += [self.said_tens[tens * 10]] if tens else []
        if units:
            words.append(self.said_feminine.get(units, self._units[units]) if feminine else self._units[units])
        return " ".join(words)

    def console_text(self, name: str, args: dict | None = None) -> str:
        """A [console] line of this language; text from people in `args` is put in as it is."""
        return self.printed("console", name, args)

    def cli_text(self, name: str, args: dict | None = None) -> str:
        """A [cli] line: what the command line says around a game, in the table's language."""
        return self.printed("cli", name, args)

    def config_text(self, name: str, args: dict | None = None) -> str:
        """A [config_errors] line: what is wrong with a value of the config."""
        return self.printed("config_errors", name, args)

    def has_printed(self, section: str, name: str) -> bool:
        """Whether this voice has the line `name` in its printed section `section`."""
        return name in self._printed_sections()[section]

    def printed(self, section: str, name: str, args: dict | None = None) -> str:
        """A line of a printed section ([console], [cli], [config_errors]): never spoken, so a
        typed line or a path in `args` is put in as it is."""
        return self._printed(self._printed_sections()[section], section, name, args)

    def _printed_sections(self) -> dict[str, dict]:
        return {"console": self.console, "cli": self.cli, "config_errors": self.config_errors}

    def winner(self, winner: str | None) -> str:
        """The winner named as the narrator of this variant names him, for the console and the
        status: one name for the side that won, whichever way the win came about."""
        return self.winners.get(str(winner), str(winner or ""))

    def _printed(self, table: dict, section: str, name: str, args: dict | None) -> str:
        template = table.get(name)
        if template is None:
            raise KeyError(f"{self.source}: no {section} line {name!r}")
        args = args or {}
        template = self._form(template, args)
        # a typed line or a path is never read as a reference to another line ("@welcome")
        values = {k: v if isinstance(v, str) else self._format_value(v) for k, v in args.items()}
        return template.format(**self._with_articles(template, values))

    def _form(self, template: str | dict[str, str], args: dict) -> str:
        """The template itself, or of its plural forms the one `args["n"]` takes in this language."""
        return template[plural_category(self.lang, int(args["n"]))] if isinstance(template, dict) else template

    def fill(self, template, args: dict, capital: bool = True) -> str:
        """A template of this language (a line's, or a screen's own words for it) filled as a line
        is: seats, roles and times worded as the narrator words them, a plural form chosen by
        `args["n"]`. `capital`: a sentence that opens with a name gets its capital letter."""
        template = self._form(template, args)
        values = {k: self.duration(v) if k == "time" else self.menu(v) if k == "menu" else self._format_value(v)
                  for k, v in args.items()}
        text = template.format(**self._with_articles(template, values))
        if capital and template.startswith("{") and text[:1].islower():
            text = text[0].upper() + text[1:]  # a sentence that opens with a role or step name
        return text

    def words(self, template: str, args: dict) -> str:
        """A screen's own words (a [phone] string) filled with `args` as they are — no line read
        into a value, no plural form — and the article each {name_article} takes: "A 7. játékos
        szavazata:" on the host screen, as the narrator's lines open with it."""
        text = template.format(**self._with_articles(template, args))
        if _OPENING_ARTICLE.match(template) and text[:1].islower():
            text = text[0].upper() + text[1:]
        return text

    def slots(self, template: str) -> set[str]:
        """The values a caller gives to fill `template`: its {placeholders} but the articles this
        voice puts in itself. The Hungarian «Kivégezzük {seat_article} {seat}. játékost?» takes a
        seat alone, as the English "Execute player {seat}?" does."""
        names = set(_PLACEHOLDER.findall(template))
        return {k for k in names if not (k.endswith(ARTICLE_SUFFIX) and k[: -len(ARTICLE_SUFFIX)] in names)}

    def articles_of(self, args: dict) -> dict[str, str]:
        """{name_article} for each of `args`, where this language has articles: for whoever puts
        other text where the values go (a seat's mark, to follow it with its player's name) and
        must keep the article the number takes ("az 1. játékos (Ann)", not "a 1.")."""
        article = ARTICLES.get(self.lang)
        if article is None:
            return {}
        return {k + ARTICLE_SUFFIX: article(self._format_value(v)) for k, v in args.items()}

    def _with_articles(self, template: str, values: dict[str, str]) -> dict[str, str]:
        """`values` and, for each {name_article} of the template, the article that the value of
        {name}, as it is written in the line, takes in this language."""
        wanted = [k for k in _PLACEHOLDER.findall(template) if k.endswith(ARTICLE_SUFFIX) and k not in values]
        if not wanted:
            return values
        article = ARTICLES.get(self.lang)
        if article is None:
            raise KeyError(f"{self.source}: {self.lang} has no article to put in {{{wanted[0]}}}")
        return {**values, **{k: article(values[k[: -len(ARTICLE_SUFFIX)]]) for k in wanted}}

    def duration(self, seconds: int) -> str:
        """A timer's length as spoken: whole minutes in minutes, anything else in seconds."""
        seconds = int(seconds)
        if seconds == 60:
            return self.render("duration_minute")
        if seconds % 60 == 0:
            return self.render("duration_minutes", {"n": seconds // 60})
        return self.render("duration_seconds", {"n": seconds})

    def menu(self, items: list) -> str:
        """A numbered list read out, e.g. the manners of death: "1: …; 2: …"."""
        return "; ".join(self.render("menu_item", {"number": i, "text": item}) for i, item in enumerate(items, start=1))

    def _format_value(self, value) -> str:
        if isinstance(value, (list, tuple)):
            return self.join([self._format_value(v) for v in value])
        if isinstance(value, str) and value.startswith("@") and value[1:] in self.lines:
            # a reference to another line, e.g. a role or team name; anything else is shown as it is
            return self.render(value[1:])
        return str(value)

    def join(self, items: list[str]) -> str:
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        last = self.lines.get("and", "and")
        return ", ".join(items[:-1]) + f" {last} " + items[-1]

    # -- listening --------------------------------------------------------------------------
    def number_words(self, upto: int = 20) -> dict[int, list[str]]:
        return {n: ws for n, ws in self.numbers.items() if n <= upto}

    def phrases(self, kind: str, upto: int = 20) -> list[str]:
        """Every full sentence of a command kind, numbers spelt as words: the recogniser's grammar."""
        out: list[str] = []
        for pattern in self.commands.get(kind, []):
            for sentence in expand_pattern(_normalise_pattern(pattern)):
                slots = _PLACEHOLDER.findall(sentence)
                variants = [sentence]
                for slot in slots:
                    variants = [
                        v.replace("{" + slot + "}", w, 1)
                        for v in variants
                        for n, ws in self.number_words(upto).items()
                        for w in ws
                    ]
                out.extend(variants)
        return sorted(set(out))

    def _compile(self):
        matchers = []
        number = r"(\d+|[\w']+)"
        for kind, patterns in self.commands.items():
            for pattern in patterns:
                for sentence in expand_pattern(_normalise_pattern(pattern)):
                    slots = _PLACEHOLDER.findall(sentence)
                    rx = re.escape(sentence)
                    for slot in slots:
                        rx = rx.replace(re.escape("{" + slot + "}"), f"(?P<{slot}>{number})", 1)
                    matchers.append((kind, re.compile("^" + rx + "$"), slots))
        # longer sentences first, so "pass" inside a longer command never wins
        matchers.sort(key=lambda m: -len(m[1].pattern))
        return matchers

    def to_number(self, token: str) -> int | None:
        n = seat_number(token)
        return n if n is not None else self._word_to_number.get(token)

    def parse(self, text: str, only: set[str] | None = None) -> Command | Malformed | None:
        """A heard sentence as a Command, a Malformed attempt at one, or None for ordinary talk."""
        norm = _normalise(text)
        if not norm:
            return None
        if only is None:
            only = DAY_COMMANDS
        found = self._command_match(norm, only)
        if found is not None:
            kind, _, values = found
            return Command(kind, seat=values.get("seat"), by=values.get("by"))
        for kind, words in self.hints.items():
            if kind not in only:
                continue
            if any(re.search(r"(^|\s)" + re.escape(_normalise(w)), norm) for w in words):
                return Malformed(kind, text)
        return None

    def with_seat(self, text: str, seat: int, only: set[str] | None = None) -> str | None:
        """The command sentence `text`, naming one seat, with that seat said as `seat` (in digits,
        which every language's patterns take): "i nominate player three" -> "i nominate player 7".
        None when `text` is not such a sentence."""
        norm = _normalise(text)
        found = self._command_match(norm, DAY_COMMANDS if only is None else only)
        if found is None or set(found[2]) != {"seat"}:
            return None
        m = found[1]
        return norm[:m.start("seat")] + str(seat) + norm[m.end("seat"):]

    def _command_match(self, norm: str, only) -> tuple[str, re.Match, dict[str, int]] | None:
        """The command pattern a normalised sentence is: its kind, the match, and the number in
        each slot (the first pattern, longest first, whose slots all hold numbers)."""
        for kind, rx, slots in self._matchers:
            if kind not in only:
                continue
            m = rx.match(norm)
            if not m:
                continue
            values = {slot: self.to_number(m.group(slot)) for slot in slots}
            if None not in values.values():
                return kind, m, values
        return None


def _normalise_pattern(pattern: str) -> str:
    # keep the pattern syntax characters while normalising the words around them
    out = pattern.lower().replace("’", "'").replace("ё", "е")
    return out


@cache
def _voice_data(path: Path) -> dict:
    with path.open("rb") as fh:
        return tomllib.load(fh)


@cache
def load_voice(lang: str, variant: str | None = None) -> Voice:
    """The language's lines, as the host of `variant` says them (None: the shared lines only)."""
    path = voices_dir() / f"{lang}.toml"
    if not path.exists():
        raise FileNotFoundError(f"no voice file for language {lang!r}: {path}")
    return Voice(lang, _voice_data(path), path, variant)
