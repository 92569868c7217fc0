"""The model manager's Convert tab for every task the converter handles, as a user sees it.

The form follows the task (weights, vocoder, file picker, licence notice); a bad request is
refused before any work with its message under the control it names; a Wav2Lip checkpoint file
converts through the form for real.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QLabel
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.models.convert_plan import DEFAULT_VOCODER, LICENCE_NOTES
from ui.models.convert_view import ConvertView
from ui.models.manager import ModelManager
from ui.shell.main_window import MainWindow

LIPSYNC_LICENCE = LICENCE_NOTES[ModelTask.LIPSYNC]


def open_convert(qtbot: QtBot, window: MainWindow) -> tuple[ModelManager, ConvertView]:
    """File → Models…, then the Convert tab."""
    manager = window.open_models()
    qtbot.waitExposed(manager)
    manager.tabs.setCurrentWidget(manager.convert_view)
    assert manager.convert_view.isVisible()
    return manager, manager.convert_view


def visible_errors(view: ConvertView) -> dict[str, str]:
    """Every error line on screen, by the control it sits under."""
    labels: dict[str, QLabel] = {
        "source": view.source_error,
        "task": view.task_error,
        "weights": view.weights_error,
        "options": view.options_error,
        "vocoder": view.vocoder_error,
        "name": view.name_error,
        "form": view.error,
    }
    return {name: label.text() for name, label in labels.items() if label.isVisible()}


def test_every_convertible_task_is_offered(qtbot: QtBot, window: MainWindow) -> None:
    _, view = open_convert(qtbot, window)
    labels = [view.task.itemText(i) for i in range(view.task.count())]
    assert labels == [
        "Detect from config.json",
        "Chat (LLM)",
        "Vision chat",
        "Speech to text (Whisper)",
        "Embedding",
        "Reranker",
        "Text to speech (SpeechT5)",
        "Image generation (diffusers)",
        "Speaker encoder (x-vector)",
        "Lip-sync (Wav2Lip)",
        "Upscale (ESRGAN, Real-ESRGAN)",
        "Preview decoder (TAESD)",
    ]
    assert view.task.currentText() == "Detect from config.json"
    assert view.weight_choices() == ["int4", "int8", "fp16", "npu"]
    assert not view.licence_note.isVisible() and not view.vocoder.isVisible()
    assert not view.file_button.isVisible()  # Hugging Face checkpoints are folders
    assert view.group_size.isVisible()


def test_lipsync_shows_its_licence_first_and_offers_int8_or_fp16(
    qtbot: QtBot, window: MainWindow
) -> None:
    _, view = open_convert(qtbot, window)
    view.choose_task(ModelTask.CHAT)
    view.weights.setCurrentText("fp16")
    view.choose_task(ModelTask.LIPSYNC)
    assert view.licence_note.isVisible() and view.licence_note.text() == LIPSYNC_LICENCE
    assert "non-commercial" in view.licence_note.text()
    assert view.weight_choices() == ["int8", "fp16"]
    assert view.weights.currentText() == "fp16"  # the choice stays when it still fits
    assert not view.group_size.isVisible()  # no INT4 options where there is no int4
    assert view.file_button.isVisible()  # a .pth file is the usual source
    assert "Wav2Lip checkpoint file" in view.source.placeholderText()
    assert not view.vocoder.isVisible()

    view.choose_task(ModelTask.SPEAKER_ENCODER)
    assert not view.licence_note.isVisible()
    assert view.weight_choices() == ["int8", "fp16"] and view.file_button.isVisible()
    view.choose_task(ModelTask.CHAT)
    view.weights.setCurrentText("npu")
    view.choose_task(ModelTask.LIPSYNC)
    assert view.weights.currentText() == "int8"  # npu does not fit: the first that does


def test_upscale_takes_a_checkpoint_file_with_int8_or_fp16(
    qtbot: QtBot, window: MainWindow
) -> None:
    _, view = open_convert(qtbot, window)
    view.choose_task(ModelTask.UPSCALE)
    assert view.weight_choices() == ["int8", "fp16"]
    assert view.file_button.isVisible() and not view.group_size.isVisible()
    assert "Real-ESRGAN checkpoint file" in view.source.placeholderText()
    assert not view.licence_note.isVisible()  # Real-ESRGAN's weights are BSD-3-Clause


def test_tts_asks_for_its_vocoder(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, view = open_convert(qtbot, window)
    view.choose_task(ModelTask.TTS)
    assert view.vocoder.isVisible() and view.vocoder_button.isVisible()
    assert view.vocoder.text() == DEFAULT_VOCODER
    assert view.weight_choices() == ["int8", "fp16"]
    assert not view.licence_note.isVisible() and not view.file_button.isVisible()
    view.source.setText("microsoft/speecht5_tts")
    assert view.request().vocoder == DEFAULT_VOCODER
    vocoder = tmp_path / "hifigan"
    vocoder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(vocoder))
    view.vocoder_button.click()
    assert view.vocoder.text() == str(vocoder)
    request = view.request()
    assert request.task is ModelTask.TTS and request.vocoder == str(vocoder)
    view.choose_task(ModelTask.EMBEDDING)
    assert not view.vocoder.isVisible() and view.request().vocoder == ""


def test_a_checkpoint_file_can_be_picked(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, view = open_convert(qtbot, window)
    view.choose_task(ModelTask.LIPSYNC)
    checkpoint = tmp_path / "wav2lip_gan.pth"
    checkpoint.write_bytes(b"not really")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(checkpoint), ""))
    view.file_button.click()
    assert view.source.text() == str(checkpoint)
    assert view.request().source == str(checkpoint.resolve())


def _pth(tmp_path: Path) -> str:
    path = tmp_path / "wav2lip_gan.pth"
    path.write_bytes(b"checked later, by the job")
    return str(path)


def _empty_folder(tmp_path: Path) -> str:
    folder = tmp_path / "empty"
    folder.mkdir()
    return str(folder)


@pytest.mark.parametrize(
    ("task", "source", "form", "where", "expected"),
    [
        (ModelTask.LIPSYNC, _empty_folder, {}, "source", "holds no torch checkpoint"),
        (
            ModelTask.TTS,
            lambda _: "microsoft/speecht5_tts",
            {"vocoder": "not-a-vocoder"},
            "vocoder",
            "is not a vocoder checkpoint",
        ),
        (ModelTask.LIPSYNC, _pth, {"name": "my video model"}, "name", "cannot be a model id"),
        (None, lambda _: "someone/some-model", {}, "task", "Cannot tell which task"),
    ],
    ids=["no checkpoint", "bad vocoder", "bad name", "unknown task"],
)
def test_a_bad_request_is_said_next_to_its_control(
    qtbot: QtBot,
    window: MainWindow,
    tmp_path: Path,
    task: ModelTask | None,
    source: object,
    form: dict[str, str],
    where: str,
    expected: str,
) -> None:
    _, view = open_convert(qtbot, window)
    view.choose_task(task)
    text = source(tmp_path)  # type: ignore[operator]
    view.source.setText(text)
    for field, value in form.items():
        getattr(view, field).setText(value)
    view.convert_button.click()
    shown = visible_errors(view)
    assert list(shown) == [where] and expected in shown[where]
    assert not view.converting and view.convert_button.isEnabled()  # nothing started
    assert view.source.text() == text  # nothing the user typed is lost
    assert all(getattr(view, field).text() == value for field, value in form.items())
    view.source.clear()
    view.convert_button.click()  # the next try clears it
    assert list(visible_errors(view)) == ["source"]


@pytest.mark.integration
def test_a_wav2lip_checkpoint_file_converts_through_the_form(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The full-size Wav2Lip network (random weights) in the published .pth layout."""
    torch = pytest.importorskip("torch")
    from app.models.wav2lip_torch import Wav2Lip

    torch.manual_seed(0)
    state = {f"module.{key}": value for key, value in Wav2Lip().state_dict().items()}
    checkpoint = tmp_path / "wav2lip_gan.pth"
    torch.save({"state_dict": state, "global_step": 1}, checkpoint)
    manager, view = open_convert(qtbot, window)
    view.choose_task(ModelTask.LIPSYNC)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(checkpoint), ""))
    view.file_button.click()
    view.weights.setCurrentText("fp16")  # no quantization: the quickest conversion
    with qtbot.waitSignal(manager.modelsChanged, timeout=240_000):
        view.convert_button.click()
    assert view.status.text().startswith("Installed wav2lip_gan-fp16-ov (Lip-sync, ")
    assert view.status.text().endswith(f"Licence: {LIPSYNC_LICENCE}")
    assert not visible_errors(view)
    [model] = window.ctx.models.models(ModelTask.LIPSYNC)
    assert model.id == "wav2lip_gan-fp16-ov" and model.usable
    assert "non-commercial" in model.licence
