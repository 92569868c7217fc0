"""Dictation whose microphone disappears mid-sentence: the module's own virtual sound card,
stopped under the listener (so no other test loses its card). What was heard before the cut
is transcribed into the message box, and the sentence under it says the recording was cut."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.devices import DeviceInfo
from app.performance.metrics import MetricsBus
from app.services.speech_input import SpeechInputService
from tests.audio_device import VirtualSoundCard, end_card, start_card
from tests.speech import RATE, SENTENCES, have_espeak, spoken, with_silence, words
from tests.ui.fakes import CPU
from tests.ui.helpers import click
from ui.chat.dictation import CUT, HEARING, Phase
from ui.main_window import MainWindow

pytestmark = [pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")]


@pytest.fixture
def doomed_card() -> Iterator[VirtualSoundCard]:
    """A virtual sound card the test stops itself."""
    card = start_card()
    yield card
    end_card(card)


def test_a_lost_microphone_keeps_and_transcribes_what_was_heard(
    qtbot: QtBot,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
    whisper_model_dir: Path,
    vad_model_path: Path,
    doomed_card: VirtualSoundCard,
) -> None:
    window = make_window([CPU])
    ctx = window.ctx
    ctx.settings_store.update(
        microphone=doomed_card.input().name, speech_to_text_model=whisper_model_dir
    )
    ctx.speech_input = SpeechInputService(
        ctx.settings, MetricsBus(), ctx.devices, ctx.models, vad_model=vad_model_path
    )
    dictation = window.chat_panel.dictation
    click(qtbot, dictation.button)
    qtbot.waitUntil(lambda: dictation.phase is Phase.LISTENING, timeout=20_000)
    pacat = doomed_card.play(with_silence(0.2, spoken(SENTENCES[0])), RATE)
    qtbot.waitUntil(lambda: dictation.status.text() == HEARING, timeout=20_000)
    qtbot.waitUntil(lambda: dictation.meter.value() > 30, timeout=5000)
    qtbot.wait(500)  # a few words more before the cut (the sentence is ~5 s long)
    doomed_card.stop()  # the sound server, and with it the microphone, is gone
    pacat.wait(timeout=10)
    qtbot.waitUntil(lambda: dictation.phase is Phase.IDLE, timeout=60_000)
    assert dictation.error.text() == CUT
    heard = words(dictation.target.toPlainText())
    said = words(SENTENCES[0])
    assert heard and len(heard) < len(said), heard  # some words, not the whole sentence
    assert heard[0] == said[0], heard
