"""Each variant speaks as its own host: masks only in sports mafia, one wake-up per morning, win
lines that name what happened, and every spoken duration is the timer that runs — in every
language."""

from __future__ import annotations

import random
import re
import string

import pytest

from conftest import Table
from narrator.flow.days import Game
from narrator.flow.effects import Say, Tell, Timer
from narrator.flow.events import Deal
from narrator.language import LANGUAGES, VARIANT_NAMES, load_voice
from narrator.rules.dealing import deal
from narrator.rules.variants import VARIANTS
from narrator.simulate import RandomPlayer, defaults

MASKS = re.compile(r"mask|маск|maszk", re.I)
# seconds and minutes in each language: a line that names a length must take it from its timer
UNITS = {"en": r"\b(second|minute)s?\b", "ru": r"секунд|минут", "sv": r"\b(sekund|minut)", "hu": r"másodperc|\bperc",
         "de": r"Sekunde|Minute"}
NOT_A_LENGTH = {("en", "tie_twice_vote_ends")}  # "tied a second time"


def fields(template) -> set[str]:
    texts = template.values() if isinstance(template, dict) else [template]
    return {f for t in texts for _, f, _, _ in string.Formatter().parse(t) if f}


def play(variant_name: str, seed: int, seats: int, timers: dict | None = None, roles: dict | None = None):
    """A random game: its batches of effects, in order."""
    variant = VARIANTS[variant_name]
    rules, d_timers = defaults(variant)
    d_timers.update(timers or {})
    counts = variant.roles_for(seats, roles)
    rng = random.Random(seed)
    g = Game(variant, rules, d_timers, seats, roles=counts)
    batches = [g.start(), g.apply(Deal(tuple(sorted(deal(counts, seats, rng).items()))))]
    player = RandomPlayer(rng, illegal_rate=0.0, skill=0.5)
    while g.state != "over" and len(batches) < 5000:
        batches.append(g.apply(player.legal(g)))
    g.close()
    return batches


OPTIONAL = {"classic": {"putana": 1, "doctor": 1, "maniac": 1, "policeman": 1}, "sverige": {"avenger": 1, "freemason": 2, "sheriff": 0},
            "hungariq": {"vogon": 1, "bodyguard": 1, "sarika": 1, "kamikaze_citizen": 1, "grocer": 1}, "grundregeln": {}}
SEATS = {"classic": 14, "sverige": 12, "hungariq": 12, "grundregeln": 8}


@pytest.fixture(scope="module")
def games():
    """A few games of every variant, with its optional roles, and with odd timer lengths."""
    out = {}
    for name, variant in VARIANTS.items():
        odd = {k: o.minimum + 7 if o.minimum else 17 for k, o in variant.timers.items()}
        out[name] = [play(name, seed, SEATS[name], roles=OPTIONAL[name] if seed % 2 else None,
                          timers=odd if seed % 3 == 0 else None) for seed in range(12)]
    return out


# ------------------------------------------------------------------ the data
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_words_the_same_lines_for_each_variant(lang):
    en, voice = load_voice("en"), load_voice(lang)
    assert set(voice.variant_lines) == set(en.variant_lines) <= set(VARIANT_NAMES)
    for variant, lines in en.variant_lines.items():
        assert set(voice.variant_lines[variant]) == set(lines), f"{lang} {variant}"
        for line, template in voice.variant_lines[variant].items():
            assert line in voice.lines, f"{lang} {variant}: {line} replaces no shared line"
            assert fields(template) == fields(voice.lines[line]), f"{lang} {variant}: {line}"
            assert type(template) is type(load_voice(lang).lines[line]), f"{lang} {variant}: {line}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_words_the_same_console_lines_for_each_variant(lang):
    def own(voice_lang):
        return {v: {k: t for k, t in load_voice(voice_lang, v).console.items() if t != load_voice(voice_lang).console.get(k)}
                for v in VARIANT_NAMES}
    en, voice, shared = own("en"), own(lang), load_voice(lang).console
    for variant in VARIANT_NAMES:
        assert set(voice[variant]) == set(en[variant]), f"{lang} {variant}"
        for line, template in voice[variant].items():
            if line in shared:  # a line worded this rule system's way takes what the shared one takes
                assert fields(template) == fields(shared[line]), f"{lang} {variant}: {line}"


# seed 004 §4.4: classic votes with a fist on the table; the other rule systems raise a hand
HANDS = {"en": r"\bhands?\b", "ru": r"рук[иу]", "de": r"Hände|Hand\b|Handzeichen", "sv": r"händer|hand(en)?\b|handuppr",
         "hu": r"kez|kéz"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_classic_scorer_is_asked_for_votes_and_the_others_for_hands(lang):
    keys = ("hands_for", "hands_awaited", "hands_awaited_several", "hands_all_in", "hands_whose",
            "status_hands", "status_hands_waiting", "help_hands")
    for key in keys:
        classic = load_voice(lang, "classic").console[key]
        assert not re.search(HANDS[lang], classic, re.I), f"{lang} classic {key}: {classic}"
    for variant in ("sverige", "hungariq", "grundregeln"):
        assert re.search(HANDS[lang], load_voice(lang, variant).console["hands_for"], re.I), f"{lang} {variant}"


@pytest.mark.parametrize("variant", [v for v in VARIANT_NAMES if v != "classic"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_line_of_a_variant_but_classic_mentions_masks(lang, variant):
    # seeds 000, 001, 003: the players close their eyes; masks belong to sports mafia (002, 004)
    voice = load_voice(lang, variant)
    for line, template in voice.lines.items():
        for text in (template.values() if isinstance(template, dict) else [template]):
            assert not MASKS.search(text), f"{lang} {variant}: {line}: {text}"


def test_classic_keeps_its_masks():
    assert MASKS.search(load_voice("ru", "classic").render("night_zero_falls"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_line_that_names_a_length_takes_it_from_its_timer(lang):
    voice = load_voice(lang)
    for variant in (None, *VARIANT_NAMES):
        for line, template in load_voice(lang, variant).lines.items():
            if line.startswith("duration_") or (lang, line) in NOT_A_LENGTH:
                continue
            for text in (template.values() if isinstance(template, dict) else [template]):
                if re.search(UNITS[lang], text, re.I):
                    assert "{time}" in text, f"{lang} {variant}: {line}: {text}"
    assert voice.duration(60) and voice.duration(120) != voice.duration(60)


# ------------------------------------------------------------------ what the games say
@pytest.mark.parametrize("variant", [v for v in VARIANT_NAMES if v != "classic"])
def test_no_game_of_a_variant_but_classic_mentions_masks_in_any_language(games, variant):
    says = [e for b in games[variant] for e in b if isinstance(e, (Say, Tell))]
    for lang in LANGUAGES:
        voice = load_voice(lang, variant)
        for e in says:
            assert not MASKS.search(voice.render(e.line, e.args)), f"{lang}: {e}"


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_spoken_duration_is_the_timer_that_runs_in_every_language(games, variant):
    seen = 0
    for batch in (b for game in games[variant] for b in game):
        for i, e in enumerate(batch):
            if isinstance(e, Say) and "time" in e.args:
                timer = next(t for t in batch[i:] if isinstance(t, Timer))
                assert timer.seconds == e.args["time"], e
                for lang in LANGUAGES:
                    voice = load_voice(lang, variant)
                    assert voice.duration(timer.seconds) in voice.render(e.line, e.args), (lang, e)
                seen += 1
            if isinstance(e, Timer) and e.cue:
                assert 0 < e.cue < e.seconds
    assert seen or variant in ("hungariq", "grundregeln")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_ten_second_tie_speech_is_announced_as_ten_seconds(lang):
    # with tie_speech = 10 the narrator must not say «тридцать секунд»
    voice = load_voice(lang, "classic")
    text = voice.render("tie_speech_turn", {"seat": 4, "time": 10})
    assert voice.duration(10) in text and "30" not in text and "тридцать" not in text
    assert "10" in voice.render("time_left", {"time": 10})


def test_the_classic_speech_ends_with_ten_seconds_spoken_by_default():
    t = Table()
    timer = t.timers()[-1]
    assert timer.name == "speech" and timer.cue == 10
    assert load_voice("ru", "classic").render(timer.cue_line().line, timer.cue_line().args) == "10 секунд."
    assert Table(speech_warning=0).timers()[-1].cue == 0


def test_the_swedish_free_day_says_one_minute_left():
    t = Table(deal="1=mafia 2=mafia 3=doctor", variant="sverige", seats=8)
    timer = t.timers()[-1]
    assert timer.name == "first_day" and timer.cue == 60
    assert load_voice("sv", "sverige").render("time_left", timer.cue_line().args) == "En minut kvar."
    t.do("say 1 nominates 5", "timeout", "timeout", "timeout")
    assert t.timers()[-1].name == "nominee_speech" and t.timers()[-1].cue == 0


# ------------------------------------------------------------------ mornings and endings
@pytest.mark.parametrize("lang", LANGUAGES)
def test_hungariq_wakes_the_town_once_a_morning(games, lang):
    # seed 001: «Eljön a reggel, amikor mindenki … ébred» — once; the day then opens for accusations
    wake = re.compile(r"wake|просып|vaknar|felébred|wachen", re.I)
    voice = load_voice(lang, "hungariq")
    assert not wake.search(voice.render("day_open"))
    for batches in games["hungariq"]:
        lines = [e.line for b in batches for e in b if isinstance(e, Say)]
        for i, line in enumerate(lines):
            if line == "city_wakes":
                assert "city_wakes" not in lines[i + 1:i + 4]


def test_hungariq_no_morning_in_the_endgame():
    t = Table(deal="1=inspector 2=protected_mafia", variant="hungariq", seats=6)
    for seat in (3, 5):
        t.do(f"say I accuse player {seat}")
        for s in list(t.game.alive):
            t.do(f"tap {s} yes")
        t.do("timeout", "say thank you")
        for s in list(t.game.alive):
            t.do(f"tap {s} yes")
        if seat == 3:
            t.do("tap 1 5", "tap 2 4")
    said = t.said()
    endgame = said.index("endgame")
    assert said[endgame - 2:endgame + 2] == ["executed", "night_falls", "endgame", "day_open"] or \
        said[endgame - 1:endgame + 2] == ["executed", "endgame", "day_open"]
    assert "city_wakes" not in said[endgame - 2:]


def test_the_win_line_says_how_the_last_mafioso_died():
    # a kamikaze took the last mafioso: not "every mafioso is executed"
    t = Table(deal="1=inspector 2=protected_mafia 3=kamikaze_citizen", variant="hungariq", seats=6,
              roles={"kamikaze_citizen": 1})
    t.do("say I accuse player 3")
    for s in list(t.game.alive):
        t.do(f"tap {s} yes")
    t.do("timeout", "say thank you")
    for s in list(t.game.alive):
        t.do(f"tap {s} yes")
    t.do("tap 3 2")                                  # the dying kamikaze takes the mafioso
    assert t.game.winner == "town" and "citizens_win_dead" in t.said() and "citizens_win" not in t.said()


def test_the_putana_is_told_her_visit_not_a_vote():
    t = Table(deal="1=sheriff 2=don 3=mafia 4=mafia 6=mafia 5=putana", seats=13, roles={"putana": 1})
    t.do("say I'm submitting player number 9")
    t.finish_day_speeches()
    batch = t.do("tap 5 8")
    assert [(x.seat, x.line) for x in t.told(batch)] == [(5, "choice_taken")]
    for lang in LANGUAGES:                            # "you chose", never "your vote"
        text = load_voice(lang, "classic").render("choice_taken", {"seat": 8})
        assert not re.search(r"vote|голос|röst|szavaz|Stimme", text, re.I), text
