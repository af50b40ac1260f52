"""Every voice besides English: every line renders, every command kind understands its own sentences."""

from __future__ import annotations

import re

import pytest

from narrator.language import DAY_COMMANDS, Command, expand_pattern, load_voice, voices_dir

LANGS = ["sv", "hu", "de", "ru"]
SAMPLE = {
    "seat": 7, "seats": [3, 7], "day": 2, "minutes": 10, "by": 3, "speaker": 3,
    "role": "@role_mafia", "step": "@step_mafia_kills", "manner": "@manner_1",
    "reason": "x", "don": 2, "sheriff": 1, "language": "Magyar", "time": 30,
    "menu": ["@manner_1", "@manner_2"], "number": 1, "text": "x", "later": 9, "current": 7, "roles": "1 don, 2 mafia",
    "total": 4,
}
SLOT = re.compile(r"\{(\w+)\}")

# one sentence per language in its own nomination form, as a player says it at the table
NOMINATIONS = {
    "sv": ["Jag nominerar sjuan", "Jag nominerar spelare nummer sju", "nominerar spelare 7"],
    "hu": ["Jelölöm a hetes játékost", "Jelölöm a hetest", "A hetedik játékost jelölöm", "jelölöm a 7. játékost"],
    "de": ["Ich nominiere Spieler sieben", "Ich nominiere die Sieben", "Ich nominiere Spieler Nummer 7"],
    "ru": ["Выставляю игрока номер семь", "Я выставляю седьмого"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_every_line_renders_with_sample_arguments(lang):
    v = load_voice(lang)
    for line in v.lines:
        for n in (1, 2, 5, 21):
            text = v.render(line, {**SAMPLE, "n": n})
            assert text.strip() and "{" not in text and "}" not in text, f"{lang}: {line}"


@pytest.mark.parametrize("lang", LANGS)
def test_roles_steps_and_manners_fit_their_sentences(lang):
    v = load_voice(lang)
    for line in v.lines:
        if line.startswith("role_"):
            assert v.render("your_role", {"seat": 7, "role": "@" + line})
        if line.startswith("step_"):
            assert v.render("awaiting_night_step", {"step": "@" + line})
        if line.startswith("manner_"):
            assert v.render("died_manner", {"seat": 7, "manner": "@" + line})


def _sentences(v, pattern: str) -> list[str]:
    """The pattern's sentences with a word for 7 in {seat} and a word for 3 in {by}."""
    out = []
    for i, sentence in enumerate(expand_pattern(pattern.lower().replace("ё", "е"))):
        words = {"seat": v.numbers[7], "by": v.numbers[3]}
        out.append(SLOT.sub(lambda m: words[m.group(1)][i % len(words[m.group(1)])], sentence))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_command_kind_parses_its_own_sentences(lang):
    v = load_voice(lang)
    en = load_voice("en")
    assert set(v.commands) == set(en.commands)
    for kind, patterns in v.commands.items():
        # the recogniser's grammar (numbers up to 1 keep it small): each sentence comes back as its command
        phrases = v.phrases(kind, upto=1)
        assert phrases, f"{lang}: {kind}"
        for p in phrases[:300]:
            got = v.parse(p, only={kind})
            assert isinstance(got, Command) and got.kind == kind, f"{lang}: {p!r} -> {got}"
        # and with distinct numbers every slot lands where it belongs
        for pattern in patterns:
            slots = set(SLOT.findall(pattern))
            expected = Command(kind, 7 if "seat" in slots else None, 3 if "by" in slots else None)
            for s in _sentences(v, pattern):
                assert v.parse(s, only={kind}) == expected, f"{lang}: {s!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_day_commands_do_not_shadow_each_other(lang):
    v = load_voice(lang)
    for kind in DAY_COMMANDS:
        for pattern in v.commands.get(kind, []):
            for s in _sentences(v, pattern):
                assert v.parse(s).kind == kind, f"{lang}: {s!r}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_bare_number_is_no_day_command_but_is_a_seat(lang):
    v = load_voice(lang)
    for n, words in v.numbers.items():
        for w in words:
            assert v.parse(w) is None, f"{lang}: {w}"
            assert v.parse(w, only={"seat"}) == Command("seat", n), f"{lang}: {w}"


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_one_to_twenty_are_single_distinct_words(lang):
    v = load_voice(lang)
    assert sorted(v.numbers) == list(range(1, 21))
    words = [w for ws in v.numbers.values() for w in ws]
    assert len(words) == len(set(words))
    assert all(re.fullmatch(r"[\w']+", w) for w in words)


@pytest.mark.parametrize("lang,sentence", [(lang, s) for lang, ss in NOMINATIONS.items() for s in ss])
def test_a_nomination_in_the_language_gives_seat_seven(lang, sentence):
    assert load_voice(lang).parse(sentence) == Command("nominate", 7)


@pytest.mark.parametrize("lang,line", [
    ("ru", "reject_need_nominator"), ("sv", "reject_need_nominator"),
    ("de", "reject_need_nominator"), ("hu", "reject_need_nominator"),
])
def test_the_example_the_narrator_gives_is_understood(lang, line):
    v = load_voice(lang)
    example = v.render(line).split(":", 1)[1]
    example = re.sub(r"^\W*(for example|till exempel|zum beispiel|például|например)\W*", "", example.strip(), flags=re.I)
    got = v.parse(example, only={"nominate_by"})
    assert isinstance(got, Command) and got.kind == "nominate_by" and got.seat == 7 and got.by == 3, example


@pytest.mark.parametrize("lang", LANGS)
def test_speech_voice_and_name(lang):
    v = load_voice(lang)
    assert v.speech.get("espeak_voice") == lang
    assert v.name and v.name != lang


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_a_line_paced_for_the_ear_says_the_words_of_the_written_line(lang):
    # [spoken] may only add pauses: the table reads what it hears
    v = load_voice(lang)

    def words(text: str) -> list[str]:
        return re.findall(r"[^\W_]+|\{\w+\}", text.lower())

    assert v.spoken, f"{lang}: the hand vote's chant has no spoken pacing"
    for line, spoken in v.spoken.items():
        assert line in v.lines, f"{lang}: [spoken] {line} paces no line"
        assert words(spoken) == words(v.lines[line]) and spoken != v.lines[line], f"{lang}: {line}"
        # and the written line has no full stop before a lower-case word, which only a voice needs
        assert not any(m.group(1).islower() for m in re.finditer(r"\w\. (\w)", v.lines[line])), f"{lang}: {line}"


def test_hungarian_names_a_seat_hely_in_every_line_it_says_or_prints():
    """One word for one thing: every Hungarian line, phone page, console note and error calls a
    seat «hely» («1. hely», «a helyed»); a spoken card-deal line still said «széked» after the
    phones had moved to «hely»."""
    import tomllib

    with open(voices_dir() / "hu.toml", "rb") as fh:
        data = tomllib.load(fh)

    def texts(node):
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for v in node.values():
                yield from texts(v)
        elif isinstance(node, list):
            for v in node:
                yield from texts(v)

    assert not [t for t in texts(data) if "szék" in t.lower()]
