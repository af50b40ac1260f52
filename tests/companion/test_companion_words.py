"""The phone and host pages speak the table's language: every [phone] string exists in every voice
with the same placeholders, every state of every rule system has a name, and a Russian or a
Hungarian table's pages and frames come in its own words."""

from __future__ import annotations

import asyncio
import json
import re

import httpx
import pytest

from narrator.companion.server import build_app
from narrator.companion.testing import Table, until
from narrator.config import parse_config
from narrator.flow.day_classic import ClassicGame
from narrator.flow.day_grundregeln import GrundregelnGame
from narrator.flow.day_hungariq import HungariqGame
from narrator.flow.day_sverige import SverigeGame
from narrator.flow.game import BASE_STATES
from narrator.language import LANGUAGES, load_voice
from narrator.rules.variants import VARIANTS

SLOT = re.compile(r"\{(\w+)\}")
GAMES = (ClassicGame, SverigeGame, HungariqGame, GrundregelnGame)


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_every_phone_string_exists_in_every_language_with_the_same_placeholders(lang):
    english, other = load_voice("en").phone, load_voice(lang).phone
    assert sorted(other) == sorted(english)
    for key, text in english.items():
        # {button_article} is the article Hungarian puts before {button}, filled from it
        ours = sorted({slot.removesuffix("_article") for slot in SLOT.findall(other[key])})
        assert ours == sorted(set(SLOT.findall(text))), f"{lang}: phone.{key}"
        assert other[key].strip(), f"{lang}: phone.{key} is empty"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_named_form_of_a_line_is_that_line_with_the_same_placeholders(lang):
    """[phone] named_<line> words a narrator's line for the phones when a seat in it has a name."""
    voice = load_voice(lang)
    named = {k[len("named_"):]: v for k, v in voice.phone.items() if k.startswith("named_")}
    assert named, "the English possessive needs them; every language words them"
    for line, text in named.items():
        assert line in voice.lines, f"{lang}: phone.named_{line} names no line"
        assert sorted(SLOT.findall(text)) == sorted(SLOT.findall(str(voice.lines[line]))), f"{lang}: phone.named_{line}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_state_and_night_step_of_every_variant_has_a_name(lang):
    voice = load_voice(lang)
    states = set(BASE_STATES).union(*(g.DAY_STATES for g in GAMES))
    assert {s for s in states if "state_" + s not in voice.phone} == set()
    steps = {s.name for v in VARIANTS.values() for s in v.night_zero + v.night}
    assert {s for s in steps if "step_" + s not in voice.lines} == set()


def words_in(page: str) -> dict:
    return json.loads(re.search(r'<script id="words" type="application/json">(.*?)</script>', page, re.S).group(1))


async def pages_and_night(cfg: str):
    """The phone page, the host page and the first night screen of a table."""
    async with Table(parse_config(cfg)) as t:
        base = f"http://127.0.0.1:{t.companion.port}"
        async with httpx.AsyncClient() as client:
            phone = (await client.get(base + "/")).text
            host = (await client.get(base + "/host")).text
        phones = await t.join_all()
        t.deal()
        await until(lambda: phones[5].screen["step"] is not None)
        await until(lambda: phones[5].role is not None)
        return phone, host, phones[5].screen


def test_a_russian_table_gets_russian_pages_and_frames():
    cfg = 'variant = "classic"\nlanguage = "ru"\n[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
    phone, host, screen = asyncio.run(pages_and_night(cfg))
    assert '<html lang="ru">' in phone and '<html lang="ru">' in host
    assert words_in(phone)["reveal_hold"] == "Удерживайте, чтобы увидеть свою роль"
    assert words_in(host)["host_pin"] == "PIN ведущего"
    assert screen["phase"] == "Ночь: ждём Дона. Все нажимают любой номер."
    assert "__WORDS__" not in phone + host and "Hold to see" not in phone



def test_a_russian_phone_waits_for_the_mafia_meeting_in_the_genitive():
    # «ждём» takes what is awaited in the genitive when it is an action: «ждём знакомства мафии»
    async def mafia_meeting():
        cfg = 'variant = "classic"\nlanguage = "ru"\n[dealing]\nroles = { 1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff" }\n'
        async with Table(parse_config(cfg)) as t:
            phones = await t.join_all()
            t.deal()
            await until(lambda: phones[5].screen["step"] == "don_meets")
            t.live.fire()
            await until(lambda: phones[5].screen["step"] == "mafia_meets")
            return phones[5].screen

    assert asyncio.run(mafia_meeting())["phase"] == "Ночь: ждём знакомства мафии. Все нажимают любой номер."
    voice = load_voice("ru")
    night = voice.phone["night"].format(step=voice.render("step_don_checks"))
    assert night == "Ночь: ждём проверки Дона. Все нажимают любой номер."
    assert voice.render("awaiting_night_step", {"step": "@step_mafia_shoots"}) == "Выстрела мафии (выбор или timeout)"

def test_a_hungarian_table_gets_hungarian_pages_and_frames():
    cfg = 'variant = "hungariq"\nlanguage = "hu"\nseats = 10\n[dealing]\nroles = { 1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector" }\n'
    phone, host, screen = asyncio.run(pages_and_night(cfg))
    assert '<html lang="hu">' in phone
    # the phones say «hely» as every other Hungarian line does (the private label, the keypad, the
    # console: «1. hely»), never a «szék» of their own
    assert words_in(phone)["seat"] == "{seat}. hely"
    assert not [k for k, v in words_in(phone).items() if "szék" in v.lower()]
    assert words_in(host)["host_start"] == "Nulladik éjszaka indítása most"
    step = load_voice("hu").render("step_inspector_meets", {})
    assert screen["phase"] == f"Éjszaka: {step}. Mindenki koppintson egy számra."


def test_the_page_words_cannot_close_the_script_they_live_in():
    async def main():
        async with Table(parse_config('variant = "classic"\nlanguage = "en"\n')) as t:
            words = t.live.voice.phone
            kept = words["no_role"]
            words["no_role"] = "</script><b>x"  # a careless translation must stay text
            try:
                app = build_app(t.companion.hub)
            finally:
                words["no_role"] = kept
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as client:
                return (await client.get("/")).text

    page = asyncio.run(main())
    assert page.count("</script>") == 2  # the words' own and the program's
    assert words_in(page)["no_role"] == "</script><b>x"


# the console's own words for ending a speech and the clock: nobody can type them on the host screen
CONSOLE_WORDS = re.compile(r"\b(?:timeout|thank you|спасибо|danke|tack|köszönöm)\b", re.I)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_host_screen_waits_in_its_own_buttons_words_not_the_consoles(lang):
    """«Ожидание: конца речи игрока 3 (или «Закончить речь»)», not «(спасибо или timeout)»."""
    phone = load_voice(lang).phone
    waits = {k: v for k, v in phone.items() if k.startswith("host_awaiting_")}
    assert set(waits) == {"host_awaiting_speech", "host_awaiting_votes", "host_awaiting_night_step",
                          "host_awaiting_identify", "host_awaiting_timeout", "host_awaiting_discussion",
                          "host_awaiting_extension", "host_awaiting_hands", "host_awaiting_hands_yes",
                          "host_awaiting_hands_several", "host_awaiting_hands_pointing",
                          "host_awaiting_hands_decider"}
    assert not {k: v for k, v in waits.items() if CONSOLE_WORDS.search(v)}
    assert phone["host_end_speech"] in waits["host_awaiting_speech"]  # the button the host can press
    # a discussion nobody holds the floor in (seed 003, seed 001's debate) ends with its own button
    assert phone["host_end_discussion"] in waits["host_awaiting_discussion"]
    assert waits["host_awaiting_timeout"] in waits["host_awaiting_discussion"]
    # seed 000 Tid: asked whether anyone wants the extension, the time runs, or somebody asks
    assert waits["host_awaiting_timeout"] in waits["host_awaiting_extension"]


DEALS = {
    "classic": '1 = "don", 2 = "mafia", 3 = "mafia", 4 = "sheriff"',
    "sverige": '1 = "mafia", 2 = "mafia", 3 = "doctor", 4 = "sheriff"',
    "hungariq": '1 = "protected_mafia", 2 = "mafia", 3 = "mafia", 4 = "inspector"',
    "grundregeln": '1 = "mafia", 2 = "mafia", 3 = "mafia"',
}


def host_frames(variant: str, lang: str) -> tuple[dict, dict]:
    """The host screen's frame and words on the first day, after the deal and night zero."""
    async def main():
        cfg = (f'variant = "{variant}"\nlanguage = "{lang}"\nseats = 10\n[players]\n1 = "Ann"\n'
               f'[dealing]\nroles = {{ {DEALS[variant]} }}\n')
        async with Table(parse_config(cfg)) as t:
            await t.join_all()
            await t.to_first_day()
            await until(lambda: t.companion.hub.host_frame()["view"]["day"] == 1)
            return t.companion.hub.host_frame(), t.companion.hub.page_words()

    return asyncio.run(main())


@pytest.mark.parametrize("variant,controls", [
    # seed 004 §4, §5-7: the first speaker holds the floor; he may nominate, nothing is nominated
    # yet to withdraw; the referee's fouls and penalties, a leave by day
    ("classic", ["end_speech", "nominate", "foul", "disqualify", "defeat", "leave"]),
    # seed 000: the free day — anyone nominates (the screen names the nominator too), nothing is
    # nominated yet to withdraw, and nobody holds the floor
    ("sverige", ["nominate"]),
    ("hungariq", ["nominate"]),  # seed 001: «Vádat emelek XY ellen» while the day's clock runs
    ("grundregeln", ["end_speech"]),  # seed 003: the discussion, ended for the pointing
])
def test_the_server_tells_the_host_screen_which_buttons_the_rules_take_now(variant, controls):
    frame, _ = host_frames(variant, "en")
    assert frame["controls"] == ["pause", *controls, "reissue"]


def test_a_hungarian_host_waits_for_the_speech_with_the_players_name_and_its_button():
    frame, _ = host_frames("classic", "hu")
    # after «Mire vár», inside its sentence: the seat with its article, in small letters
    assert frame["awaiting"] == "az 1. játékos (Ann) felszólalásának vége (vagy: Felszólalás vége)"


def test_a_hungariq_host_says_vad_alatt_as_the_phones_do():
    # seed 001 «a vádlott»: the host's row and button say what the phones say, never «Jelölés»
    frame, words = host_frames("hungariq", "hu")
    assert words["host_nominations"] == "Vád alatt" and words["day_accused"] == "Vád alatt: {seats}"
    assert words["host_nominate"] == "Vádemelés"
    assert frame["awaiting"] == "az idő lejárta"  # the accusations run on the clock


def test_a_german_host_ends_the_discussion_with_a_button_that_says_so():
    # seed 003: nobody holds the floor in the discussion; its end opens the pointing
    frame, _ = host_frames("grundregeln", "de")
    assert frame["end_speech_label"] == "Diskussion beenden"
    assert frame["awaiting"] == "das Ende der Zeit (oder „Diskussion beenden“)"
    frame, _ = host_frames("classic", "de")  # a speech: its speaker holds the floor
    assert frame["end_speech_label"] == "Rede beenden"
