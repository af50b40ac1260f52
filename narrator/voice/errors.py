"""Errors the voice adapter raises: each message names what to do instead."""


class VoiceError(Exception):
    """Base of the adapter's errors; the message is meant for the user as it is."""


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
