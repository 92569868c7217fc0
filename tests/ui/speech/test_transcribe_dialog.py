"""*File → Transcribe…* as a user drives it, on the real Whisper tiny.en; its controls named in
their main states.

The chat pipeline is the UI-test fake (not used here); speech to text is real: espeak-ng
sentences in a wav, transcribed by the fixture Whisper through the app's SpeechInputService."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from pipelines.speech_to_text import Transcript
from tests.audio_samples import write_clip
from tests.speech import SENTENCES, have_espeak, spoken, with_silence, word_error_rate
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import answer_files, click, open_window
from ui.a11y import unlabelled_widgets
from ui.shell.main_window import MainWindow
from ui.speech.transcribe_dialog import TranscribeDialog, choose_first, nothing_said, stopped
from ui.widgets.model_needed import missing_sentence

WRITE_SCREENSHOT_ENV = "OV_STUDIO_WRITE_SCREENSHOTS"
SCREENSHOT = Path(__file__).resolve().parents[3] / "docs" / "screenshots" / "transcribe.png"
SAID = " ".join(SENTENCES[1:3])
DONE_MS = 60_000


@pytest.fixture
def speech_file(tmp_path: Path) -> Path:
    audio = with_silence(0.4, spoken(SENTENCES[1]), 0.6, spoken(SENTENCES[2]), 0.4)
    return write_clip(tmp_path / "speech.wav", audio)


def _window(qtbot: QtBot, app_home: AppPaths, script: Script, whisper: Path | None) -> MainWindow:
    ctx = make_context(app_home, [CPU], script)
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.SPEECH_TO_TEXT, whisper)
    return open_window(qtbot, ctx)


@pytest.fixture
def window(
    qtbot: QtBot, app_home: AppPaths, script: Script, whisper_model_dir: Path
) -> Iterator[MainWindow]:
    """The main window with the real Whisper as its speech-to-text model."""
    window = _window(qtbot, app_home, script, whisper_model_dir)
    yield window
    window.close()  # cancels and waits for a transcription still running


def open_dialog(window: MainWindow) -> TranscribeDialog:
    """File → Transcribe…"""
    window.menus.transcribe_action.trigger()
    dialog = window._transcribe_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def transcribe(
    qtbot: QtBot, dialog: TranscribeDialog, monkeypatch: pytest.MonkeyPatch, path: Path
) -> None:
    """Choose… → ``path`` (which starts the transcription); wait until it has ended."""
    answer_files(monkeypatch, path)
    click(qtbot, dialog.choose_button)
    qtbot.waitUntil(lambda: not dialog.running, timeout=DONE_MS)


@pytest.mark.integration
@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_a_file_becomes_text_to_copy_and_subtitles_and_text_to_save(
    qtbot: QtBot,
    window: MainWindow,
    monkeypatch: pytest.MonkeyPatch,
    speech_file: Path,
    tmp_path: Path,
) -> None:
    dialog = open_dialog(window)
    assert not dialog.model_needed.note.isVisible()
    assert not dialog.language.isVisible()  # tiny.en: English only, nothing to choose
    assert not dialog.save_subtitles_button.isEnabled()  # nothing transcribed yet
    transcribe(qtbot, dialog, monkeypatch, speech_file)
    text = dialog.view.toPlainText()
    assert word_error_rate([SAID], [text]) <= 0.2, text
    assert dialog.status.text().endswith("× real time).")
    assert dialog.view.isReadOnly() and not dialog.error.isVisible()

    click(qtbot, dialog.copy_button)
    assert QGuiApplication.clipboard().text() == text

    srt = tmp_path / "speech.srt"
    answer_files(monkeypatch, srt)
    click(qtbot, dialog.save_subtitles_button)
    qtbot.waitUntil(lambda: dialog.status.text() == f"Saved {srt}.", timeout=5000)
    stamps = re.findall(r"(\d\d):(\d\d):(\d\d),(\d\d\d)", srt.read_text("utf-8"))
    seconds = [int(h) * 3600 + int(m) * 60 + int(s) + int(ms) / 1000 for h, m, s, ms in stamps]
    assert len(seconds) >= 4 and seconds == sorted(seconds)
    assert "Paris" in srt.read_text("utf-8") and "dragon" in srt.read_text("utf-8")

    vtt = tmp_path / "speech.vtt"
    answer_files(monkeypatch, vtt)
    click(qtbot, dialog.save_subtitles_button)
    qtbot.waitUntil(lambda: vtt.exists(), timeout=5000)
    assert vtt.read_text("utf-8").startswith("WEBVTT\n\n00:00:")

    txt = tmp_path / "speech.txt"
    answer_files(monkeypatch, txt)
    click(qtbot, dialog.save_text_button)
    qtbot.waitUntil(lambda: txt.exists(), timeout=5000)
    assert txt.read_text("utf-8") == text + "\n"

    answer_files(monkeypatch, tmp_path / "speech.doc")  # not a subtitle name
    click(qtbot, dialog.save_subtitles_button)
    qtbot.waitUntil(dialog.output_error.isVisible, timeout=5000)
    assert ".srt or .vtt" in dialog.output_error.text()
    assert dialog.view.toPlainText() == text  # nothing lost to the error


@pytest.mark.integration
@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_the_dialog_with_a_transcript_renders(
    qtbot: QtBot,
    window: MainWindow,
    monkeypatch: pytest.MonkeyPatch,
    speech_file: Path,
    tmp_path: Path,
) -> None:
    """A picture of the dialog after a transcription (docs/screenshots/transcribe.png with
    OV_STUDIO_WRITE_SCREENSHOTS=1)."""
    dialog = open_dialog(window)
    transcribe(qtbot, dialog, monkeypatch, speech_file)
    dialog.resize(640, 420)
    path = SCREENSHOT if os.environ.get(WRITE_SCREENSHOT_ENV) == "1" else tmp_path / "t.png"
    assert dialog.grab().save(str(path))
    assert path.stat().st_size > 10_000


@pytest.mark.integration
@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_cancel_stops_and_keeps_nothing(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    minutes = with_silence(*[spoken(SENTENCES[0]), 1.0] * 30)  # many windows to stop in
    long = write_clip(tmp_path / "long.wav", minutes)
    dialog = open_dialog(window)
    answer_files(monkeypatch, long)
    click(qtbot, dialog.choose_button)
    assert dialog.cancel_button.isVisible() and not dialog.transcribe_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Transcribing… "), timeout=DONE_MS)
    click(qtbot, dialog.cancel_button)
    qtbot.waitUntil(lambda: not dialog.running, timeout=DONE_MS)
    assert dialog.status.text() == stopped()
    assert dialog.view.toPlainText() == "" and not dialog.save_text_button.isEnabled()
    assert dialog.transcribe_button.isEnabled() and dialog.file_edit.text() == str(long)


@pytest.mark.integration
@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_bad_files_and_silence_are_said_next_to_the_file(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    dialog = open_dialog(window)
    click(qtbot, dialog.transcribe_button)
    assert dialog.file_error.text() == choose_first()

    notes = tmp_path / "notes.wav"
    notes.write_text("not audio")
    transcribe(qtbot, dialog, monkeypatch, notes)
    assert dialog.file_error.isVisible() and "is not an audio file" in dialog.file_error.text()
    assert dialog.file_edit.text() == str(notes)  # kept, to fix

    quiet = write_clip(tmp_path / "quiet.wav", with_silence(2.0))
    transcribe(qtbot, dialog, monkeypatch, quiet)
    assert not dialog.file_error.isVisible()  # cleared on the next try
    assert dialog.status.text() == nothing_said() and not dialog.save_subtitles_button.isEnabled()


@pytest.mark.integration
@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_no_whisper_says_so_and_opens_the_model_manager_at_whisper(
    qtbot: QtBot, app_home: AppPaths, script: Script
) -> None:
    window = _window(qtbot, app_home, script, None)
    try:
        dialog = open_dialog(window)
        assert dialog.model_needed.note.isVisible() and dialog.model_needed.button.isVisible()
        assert dialog.model_needed.text() == missing_sentence(ModelTask.SPEECH_TO_TEXT)
        with qtbot.waitSignal(dialog.modelsRequested) as opened:
            click(qtbot, dialog.model_needed.button)
        assert opened.args == [ModelTask.SPEECH_TO_TEXT.value]
        manager = window.open_models()
        assert manager.task_filter.currentData() == ModelTask.SPEECH_TO_TEXT.value
        assert manager.catalog.currentIndex().isValid()  # a Whisper entry, selected
    finally:
        window.close()


@pytest.mark.integration
@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_a_multilingual_whisper_offers_a_language(
    qtbot: QtBot, app_home: AppPaths, script: Script, tmp_path: Path
) -> None:
    folder = tmp_path / "whisper-base"
    folder.mkdir()
    (folder / "generation_config.json").write_text(json.dumps({"is_multilingual": True}))
    window = _window(qtbot, app_home, script, folder)
    window.ctx.settings.speech_language = "de"
    try:
        dialog = open_dialog(window)
        assert dialog.language.isVisible() and dialog.language_code() == "de"
        dialog.language.setCurrentIndex(dialog.language.findData("auto"))
        assert dialog.language_code() == "auto"
    finally:
        window.close()


@pytest.mark.qt_log_ignore(
    "No RHI backend", "pipewire", "PulseAudioService", "No audio device detected"
)
def test_the_transcribe_dialog_is_labelled_in_its_main_states(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialog = open_dialog(window)
    assert unlabelled_widgets(dialog) == []  # no Whisper: the model note and its button
    monkeypatch.setattr(type(dialog.speech_input), "multilingual", lambda _: True)
    dialog.check_model()  # a multilingual Whisper: the language choice
    assert dialog.language.isVisibleTo(dialog)
    assert unlabelled_widgets(dialog) == []
    dialog._set_busy(True)  # transcribing: Cancel and the progress
    assert dialog.cancel_button.isVisibleTo(dialog)
    assert unlabelled_widgets(dialog) == []
    dialog._on_done(Transcript("Hello there.", audio_seconds=2.0, compute_seconds=0.5))
    assert dialog.copy_button.isEnabled() and "real time" in dialog.status.text()
    assert unlabelled_widgets(dialog) == []
    dialog._on_done(Transcript(""))
    assert dialog.status.text() == nothing_said()
    dialog.close()
