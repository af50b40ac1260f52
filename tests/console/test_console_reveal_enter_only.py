"""The hot seat shows a role on Enter alone: `quit`, a seat number or a word typed at "take the
screen alone" is answered and shows nothing (issue 39's newcomer typed `quit` there and read his
role). What is typed where the role is shown hides it, as Enter does."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from narrator.console import reveal_roles
from narrator.inputs import shown
from narrator.language import load_voice

LANGS = ("en", "ru", "de", "sv", "hu")


def _reveal(lang: str, typed: list[str]) -> str:
    out = io.StringIO()
    answers = iter(typed)

    def ask(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    with pytest.raises(KeyboardInterrupt):  # the end of input stops the reveal
        reveal_roles({1: "don", 2: "mafia", 3: "sheriff"}, load_voice(lang), Console(file=out, width=400), ask=ask)
    return out.getvalue()


def _role_line(voice, seat: int, role: str) -> str:
    own = f"your_role_{role}"
    return voice.render(own, {"seat": seat}) if own in voice.lines else voice.render("your_role", {"seat": seat, "role": "@role_" + role})


@pytest.mark.parametrize("lang", LANGS)
def test_a_word_typed_at_the_hot_seat_reveals_nothing_and_is_answered(lang):
    voice = load_voice(lang)
    text = _reveal(lang, ["quit", "5", "  ", "", "hide it"])  # two words; then Enter (spaces are none)
    role = _role_line(voice, 1, "don")
    look = voice.render("reveal_look", {"seat": 1})
    for word in ("quit", "5"):
        answer = voice.console_text("reveal_enter_only", {"text": shown(word)})
        assert answer in text and text.index(answer) < text.index(role), (word, text)
    assert text.count(look) == 3 and text.rindex(look) < text.index(role)
    assert text.count(role) == 1
    # seat 1's role hidden by a line typed under it; seat 2 was asked, and shown nothing at EOF
    assert voice.render("reveal_look", {"seat": 2}) in text
    assert _role_line(voice, 2, "mafia") not in text


def test_every_prompt_of_a_seat_that_typed_a_word_has_no_role_on_screen():
    en = load_voice("en")
    text = _reveal("en", ["quit", "tap 3 5", "", ""])
    role_at = text.index(_role_line(en, 1, "don"))
    assert text.count("was not taken: only Enter alone shows the role") == 2
    assert text.rindex("was not taken") < role_at
    assert "'quit' was not taken" in text and "'tap 3 5' was not taken" in text
