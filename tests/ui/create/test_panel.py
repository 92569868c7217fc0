"""The Create panel's text to image as a user drives it, over the real image service and the
tiny random-weight LCM fixture (it draws noise): previews and the seed shown, Cancel mid-run
(nothing saved), errors next to their control, the missing-model state, the seed reused, and a
name for every control."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.errors import StorageError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.images import Mode, PictureOptions, recall
from pipelines.core import DeviceError, PipelineError
from tests.ui.create.conftest import TIMEOUT_MS, MakePanel, create_context, generate, stripes
from tests.ui.fakes import Script
from tests.ui.helpers import answer_files, open_window
from tests.ui.layout_checks import cut_controls
from tests.ui.panels import host_of
from ui.a11y import unlabelled_widgets
from ui.create.panel import EDIT_TAB, stopped
from ui.shell.main_window import MINIMUM_SIZE
from ui.widgets.model_needed import missing_sentence

pytestmark = pytest.mark.integration


def test_a_prompt_draws_with_previews_and_the_gallery_keeps_it(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    assert panel.model_needed.text() == ""
    assert "draws sizes in steps of" in panel.form.size_note.text()
    assert not panel.form.negative.isEnabled()  # an LCM reads no negative prompt
    assert "does not read a negative prompt" in panel.form.negative_note.text()
    qtbot.keyClicks(panel.form.prompt, "a lighthouse at dusk")
    panel.form.steps.setValue(40)  # long enough for a preview (one per 0.25 s at most)
    panel.form.seed.setText("1234")
    generate(qtbot, panel)
    assert panel.generate_error.text() == "" and panel.form.prompt_error.text() == ""
    assert panel.preview.previews >= 1  # the live preview arrived
    assert "Seed 1234" in panel.preview.caption.text()
    assert "40 steps" in panel.preview.caption.text()
    assert not panel.preview.view.image.isNull()
    assert panel.form.last_seed == 1234 and "1234" in panel.form.last_seed_label.text()
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 1, timeout=5000)
    [item] = panel.gallery.items()
    assert item.settings.prompt == "a lighthouse at dusk" and item.settings.seed == 1234
    assert panel.form.prompt.toPlainText() == "a lighthouse at dusk"  # the input stays
    assert panel.generate_button.text() == "Generate"


def test_an_empty_prompt_is_one_sentence_next_to_it(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    qtbot.keyClicks(panel.form.prompt, "   ")
    generate(qtbot, panel)
    assert "Write a prompt" in panel.form.prompt_error.text()
    assert panel.form.prompt_error.isVisible()
    assert panel.gallery.items() == []


def test_no_model_says_so_and_offers_the_download(
    make_panel: MakePanel,
) -> None:
    panel = make_panel(None)
    assert panel.model_needed.text() == missing_sentence(ModelTask.IMAGE_GENERATION)
    assert panel.model_needed.button.isVisible()
    assert not panel.generate_button.isEnabled()


def test_every_control_has_a_name(make_panel: MakePanel, diffusion_model_dir: Path) -> None:
    panel = make_panel(diffusion_model_dir)
    assert unlabelled_widgets(panel) == []
    panel.modes.setCurrentIndex(EDIT_TAB)
    assert unlabelled_widgets(panel) == []


def test_cancel_mid_run_stops_and_saves_nothing(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    qtbot.keyClicks(panel.form.prompt, "a long walk")
    panel.form.steps.setValue(150)
    qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)
    assert panel.generate_button.text() == "Cancel" and not panel.form.isEnabled()
    qtbot.waitUntil(lambda: panel.preview.progress_bar.value() >= 2, timeout=TIMEOUT_MS)
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS):
        qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)
    assert panel.preview.progress_label.text() == stopped()
    assert panel.generate_error.text() == ""
    assert panel.generate_button.text() == "Generate" and panel.form.isEnabled()
    panel.gallery.reload()
    qtbot.waitUntil(lambda: not panel.gallery.loading, timeout=5000)
    assert panel.gallery.items() == []
    assert list(panel.images.gallery.folder.glob("*.png")) == []
    assert panel.form.prompt.toPlainText() == "a long walk"


def test_the_last_seed_is_reused_on_request(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    qtbot.keyClicks(panel.form.prompt, "a fox")
    panel.form.steps.setValue(2)
    assert not panel.form.reuse_button.isEnabled()
    generate(qtbot, panel)  # a random seed
    seed = panel.form.last_seed
    assert seed is not None and panel.form.seed.text() == ""
    qtbot.mouseClick(panel.form.reuse_button, Qt.MouseButton.LeftButton)
    assert panel.form.seed.text() == str(seed)
    generate(qtbot, panel)
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 2, timeout=5000)
    assert {item.settings.seed for item in panel.gallery.items()} == {seed}
    qtbot.mouseClick(panel.form.random_button, Qt.MouseButton.LeftButton)
    assert panel.form.seed.text() == ""


def test_both_modes_fit_a_small_screen(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    inpainting_model_dir: Path,
    tmp_path: Path,
    ui_language: str,
) -> None:
    window = open_window(qtbot, create_context(app_home, script, inpainting_model_dir))
    window.setMinimumSize(MINIMUM_SIZE)  # a 1024×600 screen under a taskbar and a title bar
    window.resize(MINIMUM_SIZE)
    qtbot.waitUntil(lambda: window.size() == MINIMUM_SIZE, timeout=2000)
    window.show_panel("Create")
    panel = window.create_panel
    qtbot.waitUntil(lambda: not panel.gallery.loading, timeout=5000)
    QApplication.sendPostedEvents()
    assert cut_controls(window) == [], ui_language
    panel.edit_picture(stripes(tmp_path))
    qtbot.waitUntil(lambda: panel.edit.canvas.has_picture, timeout=10_000)
    for mode in (Mode.INPAINTING, Mode.OUTPAINTING):
        panel.edit.set_mode(mode)
        QApplication.sendPostedEvents()
        assert cut_controls(window) == [], (mode, ui_language)


def test_a_model_failure_is_its_sentence_next_to_generate(
    qtbot: QtBot,
    make_panel: MakePanel,
    diffusion_model_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_panel(diffusion_model_dir)

    def fails(*_args: object, **_kwargs: object) -> None:
        raise PipelineError("The image model ran out of memory at 2048×2048.")

    monkeypatch.setattr(panel.images, "text_to_image", fails)
    qtbot.keyClicks(panel.form.prompt, "a huge fox")
    generate(qtbot, panel)
    assert panel.generate_error.text() == "The image model ran out of memory at 2048×2048."
    assert panel.generate_error.isVisible() and not host_of(panel).notifications.isVisible()
    assert panel.form.prompt.toPlainText() == "a huge fox"
    panel.form.seed.setText("9" * 19)  # above 2^63
    generate(qtbot, panel)
    assert panel.form.seed_error.text() == "A seed is a whole number below 2^63."
    assert panel.generate_error.text() == ""  # the old sentence goes with the next try


def test_a_device_failure_offers_the_cpu(
    qtbot: QtBot,
    make_panel: MakePanel,
    diffusion_model_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_panel(diffusion_model_dir)
    real = panel.images.text_to_image
    devices: list[str | None] = []

    def on_gpu_fails(request: object, *, picture_options: PictureOptions) -> object:
        devices.append(picture_options.device)
        if picture_options.device != "CPU":
            raise DeviceError("The GPU could not compile the denoiser.", device="GPU")
        return real(request, picture_options=picture_options)  # type: ignore[arg-type]

    monkeypatch.setattr(panel.images, "text_to_image", on_gpu_fails)
    qtbot.keyClicks(panel.form.prompt, "a fox")
    panel.form.steps.setValue(2)
    generate(qtbot, panel)
    notifications = host_of(panel).notifications
    assert notifications.isVisible() and notifications.action_button.text() == "Use CPU instead"
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS):
        qtbot.mouseClick(notifications.action_button, Qt.MouseButton.LeftButton)
    assert devices[-1] == "CPU" and panel.device.device() == "CPU"
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 1, timeout=5000)


def test_pictures_the_gallery_cannot_keep_can_be_saved_elsewhere(
    qtbot: QtBot,
    make_panel: MakePanel,
    diffusion_model_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    panel = make_panel(diffusion_model_dir)

    def disk_full(*_args: object) -> None:
        raise StorageError("The picture could not be saved in /pictures: No space left on device.")

    monkeypatch.setattr(panel.images.gallery, "save", disk_full)
    qtbot.keyClicks(panel.form.prompt, "a fox")
    panel.form.steps.setValue(2)
    panel.form.count.setValue(2)
    generate(qtbot, panel)
    unsaved = panel.unsaved
    assert "No space left on device" in unsaved.problem.text()
    assert unsaved.isVisible() and unsaved.save_button.isVisible()
    assert not panel.preview.view.image.isNull()  # the pictures are shown all the same
    answer_files(monkeypatch, tmp_path / "fox.png")
    qtbot.mouseClick(unsaved.save_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: unsaved.saved.isVisible(), timeout=10_000)
    assert sorted(path.name for path in tmp_path.glob("fox*.png")) == ["fox-2.png", "fox.png"]
    assert recall(tmp_path / "fox.png").request.prompt == "a fox"  # its settings inside
    monkeypatch.undo()  # room on the disk again: the next run is kept, the offer goes
    generate(qtbot, panel)
    assert not unsaved.isVisible() and unsaved.problem.text() == ""
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 2, timeout=5000)


def test_choose_picture_opens_the_file_to_edit(
    qtbot: QtBot,
    make_panel: MakePanel,
    inpainting_model_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    panel = make_panel(inpainting_model_dir)
    panel.modes.setCurrentIndex(EDIT_TAB)
    source = stripes(tmp_path)
    answer_files(monkeypatch, source)
    qtbot.mouseClick(panel.edit.choose_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.edit.canvas.has_picture, timeout=10_000)
    assert panel.edit.source == source and "64×64" in panel.edit.source_label.text()


def test_ctrl_enter_in_the_prompt_draws(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    panel.form.prompt.setFocus()
    qtbot.keyClicks(panel.form.prompt, "a fox")
    panel.form.steps.setValue(2)
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS):
        qtbot.keyClick(panel.form.prompt, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert panel.form.prompt.toPlainText() == "a fox"  # no new line typed
    qtbot.waitUntil(lambda: len(panel.gallery.items()) == 1, timeout=5000)
