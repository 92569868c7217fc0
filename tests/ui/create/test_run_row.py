"""The Create panel on a remote endpoint, as a user drives it: the endpoint listed in the device
picker (and when one is added), no local model needed, a busy bar while the endpoint draws,
the result captioned and kept with the endpoint's name, a refused key said next to Generate,
and Cancel closing the request; and, on this machine, each stage of the model placed by hand
under *Advanced*."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.model_choices import Remote
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.remote_endpoints import RemoteEndpoint, device_value
from tests.images_endpoint import StandIn, images_answer, png_of, serve_stand_in
from tests.ui.conftest import make_context
from tests.ui.create.conftest import TIMEOUT_MS, MakePanel, generate
from tests.ui.fakes import CPU, Script
from tests.ui.panels import host_of, open_panel
from ui.create import CreatePanel
from ui.create.panel import stopped
from ui.shell import main_panels

pytestmark = pytest.mark.integration


@pytest.fixture
def stand_in() -> Iterator[tuple[StandIn, str]]:
    with serve_stand_in() as served:
        yield served


@pytest.fixture
def remote_panel(
    qtbot: QtBot, app_home: AppPaths, script: Script, stand_in: tuple[StandIn, str]
) -> Iterator[CreatePanel]:
    """The panel with the stand-in chosen as the image device, and no model installed here."""
    ctx = make_context(app_home, [CPU], script)
    endpoint = RemoteEndpoint(name="studio", base_url=stand_in[1], model="sd-turbo")
    ctx.settings.remote_endpoints = [endpoint]
    ctx.settings.models = ctx.settings.models.with_placement(
        ModelTask.IMAGE_GENERATION, Remote(endpoint="studio")
    )
    panel = open_panel(qtbot, ctx, main_panels.create_panel)
    qtbot.waitUntil(lambda: not panel.gallery.loading, timeout=5000)
    yield panel
    if panel.window().isVisible():
        host_of(panel).close()


def test_an_endpoint_draws_without_a_local_model(
    qtbot: QtBot, remote_panel: CreatePanel, stand_in: tuple[StandIn, str]
) -> None:
    state, _ = stand_in
    state.body = images_answer(png_of(64, 48))
    state.held = threading.Event()
    panel = remote_panel
    assert panel.device.device() == device_value("studio")
    assert panel.device.currentText() == "Remote: studio"
    assert panel.model_needed.text() == ""  # the endpoint's model draws: none needed here
    assert panel.generate_button.isEnabled()
    qtbot.keyClicks(panel.form.prompt, "three cats")
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS):
        qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "Drawing on studio" in panel.preview.progress_label.text())
        assert panel.preview.progress_bar.maximum() == 0  # busy: the endpoint says nothing
        state.held.set()
    assert "drawn on studio" in panel.preview.caption.text()
    assert panel.generate_error.text() == ""
    qtbot.waitUntil(lambda: panel.gallery.list.count() == 1, timeout=TIMEOUT_MS)
    saved = panel.images.gallery.items()[0].settings
    assert (saved.endpoint, saved.model, saved.prompt) == ("studio", "sd-turbo", "three cats")


def test_a_refused_key_is_said_next_to_generate(
    qtbot: QtBot, remote_panel: CreatePanel, stand_in: tuple[StandIn, str]
) -> None:
    state, _ = stand_in
    state.status, state.body = 401, b'{"error": "bad key"}'
    panel = remote_panel
    qtbot.keyClicks(panel.form.prompt, "three cats")
    generate(qtbot, panel)
    assert "refused the API key (401)" in panel.generate_error.text()
    assert panel.form.prompt.toPlainText() == "three cats"  # nothing the user typed is lost
    assert panel.images.gallery.items() == []


def test_cancel_closes_the_request(
    qtbot: QtBot, remote_panel: CreatePanel, stand_in: tuple[StandIn, str]
) -> None:
    state, _ = stand_in
    state.hang = True
    panel = remote_panel
    qtbot.keyClicks(panel.form.prompt, "three cats")
    with qtbot.waitSignal(panel.finished, timeout=TIMEOUT_MS):
        qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: bool(state.received), timeout=TIMEOUT_MS)
        assert not panel.run.stages.isEnabled() and not panel.device.isEnabled()
        qtbot.mouseClick(panel.generate_button, Qt.MouseButton.LeftButton)  # Cancel
    assert panel.preview.progress_label.text() == stopped()
    assert state.gone.wait(30), "the endpoint never saw the request closed"
    assert panel.images.gallery.items() == []


def test_an_endpoint_added_later_is_listed(
    qtbot: QtBot, remote_panel: CreatePanel, stand_in: tuple[StandIn, str]
) -> None:
    panel = remote_panel
    store = panel.run.signals.store
    second = RemoteEndpoint(name="gpu box", base_url=stand_in[1], model="flux")
    store.update(remote_endpoints=[*store.settings.remote_endpoints, second])
    qtbot.waitUntil(lambda: panel.device.findText("Remote: gpu box") >= 0, timeout=5000)


def test_each_stage_on_its_own_device_is_saved_and_drawn_with(
    qtbot: QtBot, make_panel: MakePanel, diffusion_model_dir: Path
) -> None:
    panel = make_panel(diffusion_model_dir)
    box = panel.run.stages
    assert box.isVisibleTo(panel) and not box.stages.isVisibleTo(panel)  # closed at first
    qtbot.mouseClick(box.toggle, Qt.MouseButton.LeftButton)
    assert box.stages.isVisibleTo(panel)
    denoiser = box.pickers["denoise"]
    denoiser.setCurrentIndex(denoiser.findData("CPU"))
    assert panel.run.signals.settings.image_stages == "denoise=CPU"
    qtbot.keyClicks(panel.form.prompt, "a fox")
    assert panel.job().device == "denoise=CPU"
    generate(qtbot, panel)
    assert panel.generate_error.text() == ""
    assert panel.images.gallery.items()  # drawn with the stages placed by hand
    box.clear()
    assert panel.run.signals.settings.image_stages == ""
    assert panel.job().device == panel.device.device()


def test_an_endpoint_hides_the_stages(remote_panel: CreatePanel) -> None:
    assert not remote_panel.run.stages.isVisibleTo(remote_panel)
    assert remote_panel.run.device_value() == device_value("studio")
