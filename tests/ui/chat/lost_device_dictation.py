"""Dictation whose microphone disappears mid-sentence: a virtual sound card of its own,
stopped under the listener (so no other test loses its card). What was heard before the cut
is transcribed into the message box, and the sentence under it says the recording was cut.

Run in a pytest of its own by test_dictation.py (tests/own_process.py
says why)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.paths import AppPaths
from tests.audio_device import VirtualSoundCard, lost_card
from tests.speech import RATE, SENTENCES, have_espeak, spoken, with_silence, words
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import click, dictating
from tests.ui.panels import open_panel
from ui.chat.dictation import Phase
from ui.chat.dictation_texts import cut, hearing
from ui.shell import main_panels

__all__ = ["lost_card"]  # the fixture, imported for the test below
pytestmark = [pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")]


def test_a_lost_microphone_keeps_and_transcribes_what_was_heard(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    whisper_model_dir: Path,
    vad_model_path: Path,
    lost_card: VirtualSoundCard,
) -> None:
    ctx = make_context(app_home, [CPU], script)
    dictating(ctx, lost_card.input().name, whisper_model_dir, vad_model_path)
    dictation = open_panel(qtbot, ctx, main_panels.chat_panel).dictation
    click(qtbot, dictation.button)
    qtbot.waitUntil(lambda: dictation.phase is Phase.LISTENING, timeout=20_000)
    pacat = lost_card.play(with_silence(0.2, spoken(SENTENCES[0])), RATE)
    qtbot.waitUntil(lambda: dictation.status.text() == hearing(), timeout=20_000)
    qtbot.waitUntil(lambda: dictation.meter.value() > 30, timeout=5000)
    # A few words more before the cut (the sentence is ~5 s long), counted in audio taken,
    # not in wall time, which a busy machine stretches.
    listener = dictation.listener
    assert listener is not None
    heard_from = listener.seconds_listened
    qtbot.waitUntil(lambda: listener.seconds_listened > heard_from + 1.0, timeout=20_000)
    lost_card.stop()  # the sound server, and with it the microphone, is gone
    pacat.wait(timeout=10)
    qtbot.waitUntil(lambda: dictation.phase is Phase.IDLE, timeout=60_000)
    assert dictation.error.text() == cut()
    heard = words(dictation.target.toPlainText())
    said = words(SENTENCES[0])
    assert heard and len(heard) < len(said), heard  # some words, not the whole sentence
    assert heard[0] == said[0], heard
