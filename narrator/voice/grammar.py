"""Recogniser grammars built from the command patterns of `voices/<lang>.toml`.

A grammar is the set of sentences that may be heard in one phase: during the day the day
commands, when a seat is asked for the bare seat numbers. Everything is derived from the voice
file, so what can be heard and what `Voice.parse` accepts never drift apart.

Speech outside the grammar must have somewhere to go, or the engine forces it into the nearest
command. Vosk models that know `[unk]` use it; engines and models that do not get a loop of
"filler" words taken from the narrator's own lines in that language (any word that is neither a
number nor part of a command). Whatever the engine returns is parsed strictly afterwards, so a
filler anywhere in the result makes it ordinary talk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from .. import language
from ..language import Voice, expand_pattern

PHASES = ("day", "seat")
SLOT = re.compile(r"\{(\w+)\}")


@dataclass
class Grammar:
    name: str  # "day" or "seat"
    lang: str
    kinds: tuple[str, ...]
    templates: list[str]  # sentences with {seat} slots
    numbers: list[str]  # every number word a slot may hold
    fillers: list[str] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)  # the voice file's own patterns, for JSGF

    @property
    def only(self) -> set[str]:
        return set(self.kinds)

    def phrases(self, whole: bool = True) -> list[str]:
        """Every sentence, numbers spelt as words. `whole=False`: a sentence naming two seats is
        given in two pieces, each naming one ("player {by}", "nominates player {seat}"): Vosk
        strings the words of its phrase list together freely anyway (the strict parse afterwards
        decides), and whole, the Swedish "[spelare] [nummer] {by} nominerar …" alone came to
        373,000 phrases at 20 seats, the Hungarian accusations to 4.3 million (12 s, 0.8 GB)."""
        out: set[str] = set()
        for t in (self.templates if whole else [p for t in self.templates for p in one_seat_pieces(t)]):
            variants = [t]
            while variants and "{" in variants[0]:
                variants = [SLOT.sub(w, v, count=1) for v in variants for w in self.numbers]
            out.update(variants)
        return sorted(out)

    @cached_property
    def max_words(self) -> int:
        """The most words a sentence of this grammar can have (asked at every frame of speech;
        a grammar's sentences never change once it is made)."""
        longest_number = max((len(n.split()) for n in self.numbers), default=1)
        return max((sum(longest_number if SLOT.fullmatch(w) else 1 for w in t.split()) for t in self.templates),
                   default=1)

    def words(self) -> set[str]:
        ws = set(self.numbers) | set(self.fillers)
        for t in self.templates:
            ws.update(w for w in t.split() if not SLOT.fullmatch(w))
        return ws

    def restricted(self, known) -> "Grammar":
        """The grammar without sentences the model cannot say (a word missing from its vocabulary)."""
        ok = lambda w: known(w)  # noqa: E731
        templates = [t for t in self.templates if all(SLOT.fullmatch(w) or ok(w) for w in t.split())]
        # in a pattern an unknown word becomes <VOID>: that alternative can never be heard
        patterns = [re.sub(r"[^\s\[\]()|{}]+", lambda m: m.group(0) if ok(m.group(0)) else "<VOID>", p)
                    for p in self.patterns]
        return Grammar(self.name, self.lang, self.kinds, templates,
                       [n for n in self.numbers if all(ok(w) for w in n.split())],
                       [f for f in self.fillers if ok(f)], patterns)

    def jsgf(self, with_fillers: bool = True) -> str:
        """The grammar in JSGF (PocketSphinx): slots become a <seat> rule instead of 20× the sentences."""
        def alt(items):
            return " | ".join(f"( {i} )" for i in items)

        # the patterns are already JSGF-like ([optional], (a|b)); used as they are, the FSG stays
        # small, where 200+ expanded sentences made PocketSphinx ten times slower
        source = self.patterns or self.templates
        body = [t.replace("{seat}", "<seat>").replace("{by}", "<seat>") for t in source]
        lines = ["#JSGF V1.0;", f"grammar {self.name};"]
        if self.numbers:
            lines.append(f"<seat> = {alt(self.numbers)};")
        lines.append(f"<command> = {alt(body)};")
        if with_fillers and self.fillers:
            lines.append(f"<filler> = {alt(self.fillers)};")
            lines.append("public <utterance> = <command> | <filler>+;")
        else:
            lines.append("public <utterance> = <command>;")
        return "\n".join(lines) + "\n"


def one_seat_pieces(template: str) -> list[str]:
    """A template cut before the word after each seat slot but the last: "{by} nominates {seat}"
    -> "{by}", "nominates {seat}". A template naming one seat (every classic one) stays whole."""
    words = template.split()
    slots = [i for i, w in enumerate(words) if SLOT.fullmatch(w)]
    if len(slots) < 2:
        return [template]
    cut = slots[0] + 1
    return [" ".join(words[:cut]), *one_seat_pieces(" ".join(words[cut:]))]


def _words(text: str) -> list[str]:
    text = text.lower().replace("’", "'").replace("ё", "е")
    return re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text)


def filler_words(voice: Voice, exclude: set[str], limit: int = 300) -> list[str]:
    """Words of the narrator's own lines that are no command word or number, most frequent first."""
    counts: dict[str, int] = {}
    for value in voice.lines.values():
        texts = value.values() if isinstance(value, dict) else [value]
        for text in texts:
            for w in _words(SLOT.sub(" ", text)):
                if w not in exclude and len(w) > 1:
                    counts[w] = counts.get(w, 0) + 1
    return sorted(counts, key=lambda w: (-counts[w], w))[:limit]


def day_kinds(voice: Voice) -> tuple[str, ...]:
    """The commands the day of `voice.variant` knows (a voice loaded for no variant: classic's).
    Read at call time from the game core: a sentence of another rule system ("I nominate player
    five" at a Hungarian table) would be forced onto the grammar and submitted as talk the day
    does not take, while the table's own ("player two accuses player five") was never heard."""
    from ..inputs import DAY_COMMANDS

    if voice.variant is None:
        return tuple(sorted(language.DAY_COMMANDS))
    if voice.variant not in DAY_COMMANDS:
        raise ValueError(f"no day commands for the rule system {voice.variant!r}")
    return tuple(sorted(DAY_COMMANDS[voice.variant]))


def build_grammar(voice: Voice, phase: str = "day", upto: int = 20) -> Grammar:
    if phase not in PHASES:
        raise ValueError(f"unknown grammar {phase!r}; one of {', '.join(PHASES)}")
    kinds = day_kinds(voice) if phase == "day" else ("seat",)
    templates: set[str] = set()
    patterns: list[str] = []
    for kind in kinds:
        for pattern in voice.commands.get(kind, []):
            patterns.append(" ".join(pattern.lower().replace("’", "'").replace("ё", "е").split()))
            templates.update(expand_pattern(pattern.lower().replace("’", "'").replace("ё", "е")))
    numbers = sorted({w for ws in voice.number_words(upto).values() for w in ws})
    command_words = {w for t in templates for w in t.split()} | {w for n in numbers for w in n.split()}
    # every command word of the language is excluded, so a filler can never complete a command
    for kind_patterns in voice.commands.values():
        for p in kind_patterns:
            command_words.update(_words(SLOT.sub(" ", p)))
    for ws in voice.numbers.values():
        for w in ws:
            command_words.update(w.split())
    fillers = filler_words(voice, command_words)
    return Grammar(phase, voice.lang, kinds, sorted(templates), numbers, fillers, patterns)
