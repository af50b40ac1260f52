"""Errors the voice adapter raises: each message names what to do instead."""

from ..worded import Worded


class VoiceError(Exception):
    """Base of the adapter's errors; the message is meant for the user as it is (in English).

    `key` names the same message in a voice file's [cli] section, with `words` its arguments, so
    that a table is told in its own language; `fallback`: the message ends with audio.FALLBACK
    (the way on without sound), which each caller words its own way."""

    def __init__(self, message: str, key: str | None = None, fallback: bool = False, **words):
        super().__init__(message)
        self.worded = Worded(message, "cli", key, words)
        self.fallback = fallback


class AudioUnavailable(VoiceError):
    """No usable microphone or speaker; the game can still run with --voice text and typed input."""


class ModelMissing(VoiceError):
    """No speech model for the language; the message names the command that fetches one."""


def load_or_none(make, path):
    """An optional model made from `path`, or None when there is none or it will not load: a second
    recogniser that is missing or broken means one opinion less, never a deaf narrator."""
    if path is None:
        return None
    try:
        return make(path)
    except Exception:  # noqa: BLE001 - whatever a broken model raises
        return None
