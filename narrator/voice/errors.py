"""Errors the voice adapter raises: each message names what to do instead."""


class VoiceError(Exception):
    """Base of the adapter's errors; the message is meant for the user as it is."""


class AudioUnavailable(VoiceError):
    """No usable microphone or speaker; the game can still run with --voice text and typed input."""


class ModelMissing(VoiceError):
    """No speech model for the language; the message names the command that fetches one."""
