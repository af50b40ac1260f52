import pytest

from narrator.language import Command, load_voice
from narrator.voice.grammar import build_grammar


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_day_sentence_of_the_grammar_parses_as_the_command_it_stands_for(lang):
    voice = load_voice(lang)
    grammar = build_grammar(voice, "day")
    phrases = grammar.phrases()
    assert phrases
    for sentence in phrases:
        assert isinstance(voice.parse(sentence, only=grammar.only), Command), sentence


def test_the_day_grammar_holds_the_issue_sentences_and_no_bare_number():
    en = build_grammar(load_voice("en"), "day").phrases()
    assert "i'm submitting player number seven" in en
    assert "i'm revoking player number seven" in en
    assert {"pass", "thank you", "cancel"} <= set(en)
    assert "seven" not in en
    ru = build_grammar(load_voice("ru"), "day").phrases()
    assert {"выставляю игрока номер семь", "выставляю седьмого", "спасибо", "пас", "отмена"} <= set(ru)


def test_the_seat_grammar_is_bare_seat_numbers():
    voice = load_voice("en")
    grammar = build_grammar(voice, "seat")
    assert "seven" in grammar.phrases()
    assert voice.parse("seven", only=grammar.only) == Command("seat", 7)
    assert not any("submitting" in p for p in grammar.phrases())


def test_filler_words_can_never_complete_a_command():
    voice = load_voice("en")
    grammar = build_grammar(voice, "day")
    numbers = {w for ws in voice.numbers.values() for w in ws}
    command_words = {w for t in grammar.templates for w in t.split()}
    assert grammar.fillers
    assert not set(grammar.fillers) & (numbers | command_words)


def test_a_word_the_model_lacks_removes_only_the_sentences_that_need_it():
    grammar = build_grammar(load_voice("en"), "day")
    narrowed = grammar.restricted(lambda w: w != "im")
    assert not any(t.startswith("im ") for t in narrowed.templates)
    assert any(t.startswith("i'm ") for t in narrowed.templates)
    assert "<VOID>" in narrowed.jsgf()
