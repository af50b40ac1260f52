"""What every command says at the terminal, in the table's language, and how it loads its config.

One module for all of them: every command prints through the same stderr console (the commands
use it as `terminal.err`, so that a test may put another in its place), and `narrator.cli` answers
Ctrl-C in the voice the running command found for its table.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..config import Config, ConfigError, default_config, load_config


def wrapping_console(**kwargs) -> Console:
    from ..console import WholeWords

    return WholeWords(highlight=False, **kwargs)


# every message on stderr breaks between words at the terminal's width, and a path in it stays whole
err = wrapping_console(stderr=True, soft_wrap=True)


def say_error(message: str, label: str = "error", style: str = "red") -> None:
    """A message on stderr, printed literally: it may quote a config, a transcript or a name,
    and none of that is ever read as rich markup."""
    # broken between words ("[input" / "] microphone" was cut by the terminal at 80 columns), a
    # long path whole on its own line (see WholeWords); not a terminal: one message, one line
    err.print(Text.assemble((label, style), " ", str(message)) if label else Text(str(message), style=style))


def cli_words(voice, name: str, **args) -> str:
    """A [cli] line in the table's language; in English where no game's config is known yet."""
    if voice is None:
        from ..language import load_voice

        voice = load_voice("en")
    return voice.cli_text(name, args)


# the voice of the game being played, once its config is known: Ctrl-C is answered in it
table_voice = None


def voice_of(cfg: Config | None):
    """The table's voice for what the command line says (None: English)."""
    global table_voice
    if cfg is None:
        return None
    from ..language import load_voice

    try:
        table_voice = load_voice(cfg.language, cfg.variant.name)
    except (OSError, ValueError):  # a voice file gone or broken since the config was read: English
        return None
    return table_voice


def config_or_default(path: str | None) -> Config:
    return default_config() if path is None else load_config(path)


def checked(load) -> Config | None:
    """Load a config, printing every problem (file, line, key) instead of raising: in the language
    the config names, where it names one that can be read."""
    try:
        return load()
    except ConfigError as exc:
        label = cli_words(exc.voice(), "error")
        for line in exc.lines():
            say_error(line, label)
        return None


# the Latin letters every question takes, whatever the table's language: a keyboard or a habit
# that types "y" is never asked again at a German table
LATIN_ANSWERS = {"yes": "y", "no": "n", "resume": "r", "new": "n", "quit": "q"}


def ask(question: str, choices: tuple[str, ...], voice=None) -> str:
    """The choice (of `choices`: "yes", "no", "resume", …) whose letter the answer typed at the
    terminal begins with — the Latin one or the table's own ("j"/"ja" at a German table, "д"/"да"
    at a Russian one); '' at end of input. Anything else asks again."""
    from ..language import load_voice

    own = (voice or load_voice("en")).answers
    letters = {choice: {LATIN_ANSWERS[choice], *own.get(choice, [])} for choice in choices}
    while True:
        # printed by the console, broken between words: input()'s own prompt was cut inside a word
        # at 60 columns ("[b] beenden?" after "(das unterbrochene bleibt" / " erhalten)")
        err.print(Text(question.rstrip()), end=" ")
        try:
            reply = input("").strip().lower()
        except EOFError:
            return ""
        for choice in choices:
            if reply[:1] in letters[choice] and reply:
                return choice
