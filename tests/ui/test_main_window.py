"""Main window: device picker, overlay, notices at start, model loading, the real model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from pytestqt.qtbot import QtBot

from app.devices import DeviceInfo
from app.paths import AppPaths
from pipelines.core import MetricRecord
from tests.ui.conftest import CPU, make_context
from tests.ui.fakes import Script
from ui.chat.message_view import stats_line
from ui.device_picker import DevicePicker
from ui.main_window import MainWindow


def test_cpu_only_machine_disables_gpu_and_npu(qtbot: QtBot) -> None:
    picker = DevicePicker([CPU], "chat", "AUTO")
    qtbot.addWidget(picker)
    assert picker.is_enabled("CPU") and picker.is_enabled("AUTO")
    assert not picker.is_enabled("GPU") and not picker.is_enabled("NPU")
    assert picker.device() == "AUTO"
    assert picker.itemText(picker.count() - 1) == "AUTO (uses CPU)"


def test_present_gpu_is_enabled_and_choosable(qtbot: QtBot) -> None:
    picker = DevicePicker([CPU, DeviceInfo("GPU.0", "Arc")], "chat", "CPU")
    qtbot.addWidget(picker)
    assert picker.is_enabled("GPU.0")
    with qtbot.waitSignal(picker.deviceChanged) as changed:
        picker.setCurrentIndex(picker.findData("GPU.0"))
    assert changed.args == ["GPU.0"]


def test_saved_absent_device_falls_back_to_auto(qtbot: QtBot) -> None:
    picker = DevicePicker([CPU], "chat", "NPU")
    qtbot.addWidget(picker)
    assert picker.device() == "AUTO"


def test_device_choice_is_saved(qtbot: QtBot, window: MainWindow, app_home: AppPaths) -> None:
    picker = window.chat_panel.model_bar.device_picker
    picker.setCurrentIndex(picker.findData("CPU"))
    assert '"chat": "CPU"' in app_home.settings_file.read_text(encoding="utf-8")


def test_f12_toggles_the_overlay(qtbot: QtBot, window: MainWindow, app_home: AppPaths) -> None:
    assert window.overlay_action.shortcut() == QKeySequence(Qt.Key.Key_F12)
    assert not window.overlay.isVisible()
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_F12)
    assert window.overlay.isVisible()
    assert window.ctx.settings.overlay_visible
    window.overlay_action.trigger()
    assert not window.overlay.isVisible()


def test_overlay_shows_the_published_numbers(qtbot: QtBot, window: MainWindow) -> None:
    window.overlay_action.setChecked(True)
    values = {"ttft_ms": 12.0, "tpot_ms": 4.0, "tokens_per_s": 250.0}
    window.ctx.metrics.publish(MetricRecord("chat", "CPU", values))
    window.overlay.tick()
    labels = {key: label.text() for key, label in window.overlay.values.items()}
    assert labels["device"] == "CPU"
    assert labels["ttft"] == "12.0 ms"
    assert labels["tpot"] == "4.0 ms"
    assert labels["rate_last"] == "250.0"
    assert labels["rate_live"] == "idle"
    assert labels["cpu"].endswith("%")
    assert "GiB" in labels["rss"] and "/" in labels["ram"]
    window.ctx.metrics.publish(MetricRecord("chat", "CPU", {"tokens_per_s": 99.0}, live=True))
    window.overlay.tick()
    assert window.overlay.values["rate_live"].text() == "99.0"
    assert window.overlay._rate[-1] == 99.0  # the plot got the live sample


def test_notices_from_start_are_shown(qtbot: QtBot, app_home: AppPaths, script: Script) -> None:
    app_home.settings_file.write_text("{{{ not json", encoding="utf-8")
    window = MainWindow(make_context(app_home, [CPU], script))
    qtbot.addWidget(window)
    window.show()
    assert window.notifications.isVisible()
    assert "damaged" in window.notifications.message.text()


def test_cancelled_load_keeps_the_previous_model(
    qtbot: QtBot, window: MainWindow, model_folder: Path, tmp_path: Path, script: Script
) -> None:
    import threading

    from tests.ui.fakes import fake_model_folder

    panel = window.chat_panel
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        panel.load_model(model_folder, "CPU")
    script.load_gate = threading.Event()  # the next compile takes until the test says so
    other = fake_model_folder(tmp_path, "other-model")
    panel.load_model(other, "CPU")
    assert panel.model_bar.cancel_button.isVisible()
    qtbot.mouseClick(panel.model_bar.cancel_button, Qt.MouseButton.LeftButton)
    assert not panel.model_bar.cancel_button.isVisible()
    script.load_gate.set()  # the compile finishes after the cancel: its result is discarded
    qtbot.waitUntil(lambda: not window.workers.busy, timeout=5000)
    assert window.ctx.chat.loaded_model.model_dir == model_folder  # type: ignore[union-attr]
    assert "tiny-chat" in panel.model_bar.name.text()


@pytest.mark.integration
def test_real_model_answers_in_the_window(
    qtbot: QtBot, app_home: AppPaths, chat_model_dir: Path
) -> None:
    from app.context import AppContext

    window = MainWindow(AppContext.create(app_home, [CPU]))
    qtbot.addWidget(window)
    window.show()
    panel = window.chat_panel
    window.ctx.settings.chat.max_new_tokens = 12
    with qtbot.waitSignal(panel.modelLoaded, timeout=60_000):
        panel.load_model(chat_model_dir, "AUTO")
    assert "llm-int8 · AUTO → CPU" in window.model_status.text()
    with qtbot.waitSignal(panel.answerFinished, timeout=60_000) as finished:
        qtbot.keyClicks(panel.input, "Hello model")
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert finished.args == [True]
    [question, answer] = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert question.content == "Hello model"
    shown = panel.view.toPlainText()
    # Random weights write arbitrary bytes; markdown rendering drops control characters,
    # so compare the words and the (deterministic) stats line.
    assert all(word in shown for word in re.findall(r"\w+", answer.content))
    assert stats_line(answer) in shown


def test_streaming_repaints_cannot_exhaust_none_or_true(qtbot: QtBot, window: MainWindow) -> None:
    """PySide6 6.12.0 drops a reference to None/True per repaint; the guard must outpace it."""
    import sys

    from ui.singleton_guard import LOW_WATER, SingletonRefGuard, guard_needed

    window.overlay_action.setChecked(True)
    view = window.chat_panel.view
    before = sys.getrefcount(None), sys.getrefcount(True)
    for i in range(240):  # a minute of overlay ticks, and as many view repaints
        window.ctx.metrics.publish(MetricRecord("chat", "CPU", {"tokens_per_s": i}, live=True))
        window.overlay.tick()
        window.overlay.plot.repaint()
        view.append_text("x")
        view.viewport().repaint()
    leaked = before[0] - sys.getrefcount(None), before[1] - sys.getrefcount(True)
    if not guard_needed():
        assert max(leaked) < 50, leaked
        return
    assert max(leaked) > 0  # the leak is real here, so the guard is not dead code
    SingletonRefGuard(window).check()
    assert sys.getrefcount(None) >= LOW_WATER and sys.getrefcount(True) >= LOW_WATER
