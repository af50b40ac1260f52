"""A message for whoever reads the screen, said in the table's language where it is printed.

A refused typed line, a damaged journal, a journal that cannot be written and a config error each carry the same three things:
the message in English (for logs and tests), the name of the same message in a voice file's
printed section, and its words. One type holds them so that every such message is told the same
way: in the table's language when its voice has the line, in English otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Worded:
    english: str
    section: str  # the voice file's printed section: "console", "cli" or "config_errors"
    name: str | None = None  # its line there; None: a message with no words but English
    words: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return self.english

    def is_said_in(self, voice) -> bool:
        return voice is not None and self.name is not None and voice.has_printed(self.section, self.name)

    def said(self, voice, words: dict | None = None) -> str:
        """The message in the language of `voice` (English without one, or where it lacks the
        line); `words` stand in for the message's own where the caller had to word them first."""
        if not self.is_said_in(voice):
            return self.english
        words = self.words if words is None else words
        # a message may hold another one (the journal's "then resume it"): said in the same language
        words = {k: v.said(voice) if isinstance(v, Worded) else v for k, v in words.items()}
        return voice.printed(self.section, self.name, words)
