"""The dictation's words: button texts, status lines, the microphone-lost messages.

Functions, not constants: :func:`~ui.i18n.tr` must run after the language is chosen.
"""

from __future__ import annotations

from ui.chat.push_to_talk import PUSH_TO_TALK_NAME
from ui.i18n import tr


def idle_text() -> str:
    """The button's words when no dictation is under way."""
    return tr("Dictate")


def listening_text() -> str:
    """The button's words while listening (a click ends the turn)."""
    return tr("Done", "dictation button: stop listening")


def cancel_text() -> str:
    """The button's words while transcribing (a click cancels)."""
    return tr("Cancel")


def tooltip() -> str:
    """What the dictation button does."""
    return tr(
        "Dictate: click, speak, and pause — the words go into the message box for editing. "
        "Or hold {key} while you speak. The arrow chooses the microphone, language "
        "and speech model."
    ).format(key=PUSH_TO_TALK_NAME)


def opening() -> str:
    """Status while the microphone opens."""
    return tr("Opening the microphone…")


def listening_status() -> str:
    """Status while listening after a click."""
    return tr("Listening… pause when you are done, or click Done.")


def held_status() -> str:
    """Status while listening with the push-to-talk key held."""
    return tr("Listening… let go of {key} when you are done.").format(key=PUSH_TO_TALK_NAME)


def hearing() -> str:
    """Status once speech is heard."""
    return tr("Hearing you…")


def loading() -> str:
    """Status while Whisper loads."""
    return tr("Loading speech model…")


def transcribing() -> str:
    """Status while transcribing."""
    return tr("Transcribing…")


def cancelling() -> str:
    """Status while a transcription is being cancelled."""
    return tr("Cancelling…")


def nothing_heard() -> str:
    """Status when the turn had no words."""
    return tr("Didn't catch anything — try again.")


def cut() -> str:
    """The microphone went away mid-turn; the words before it were inserted."""
    return tr(
        "The microphone stopped delivering sound (was it unplugged?): the recording was cut "
        "there, and what was said before it is in the message box."
    )


def cut_nothing() -> str:
    """The microphone went away before any words."""
    return tr(
        "The microphone stopped delivering sound (was it unplugged?): the recording was cut "
        "before any words were heard."
    )
