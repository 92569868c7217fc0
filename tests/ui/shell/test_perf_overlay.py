"""The performance HUD: F12, the numbers it shows (this app's CPU and memory, children included,
and the system's), its plot, its cost per tick; over a chat it is opaque and on top, every
value beside its caption, the plot's top axis number whole."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator

import psutil
import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractScrollArea, QGridLayout, QLabel, QToolButton, QWidget
from pytestqt.qtbot import QtBot

from app.chat.storage import ChatMessage
from app.core.devices import DeviceInfo
from app.core.performance import system_stats
from app.core.performance.system_stats import SystemSample, SystemSampler
from pipelines.core import MetricRecord
from tests.ui.fakes import CPU
from ui.shell.main_window import MainWindow
from ui.shell.perf_overlay import SAMPLES, PerfOverlay

GIB = 1024**3


class FixedSampler:
    """CPU and memory readings the test chooses."""

    def __init__(self, cpu: float = 37.0) -> None:
        self.cpu = cpu

    def sample(self) -> SystemSample:
        return SystemSample(self.cpu, int(1.5 * GIB), 6 * GIB, 16 * GIB, process_cpu_percent=12.0)


def shown_overlay(qtbot: QtBot, window: MainWindow) -> PerfOverlay:
    qtbot.keyClick(window, Qt.Key.Key_F12)
    overlay = window.overlay
    overlay.sampler = FixedSampler()  # type: ignore[assignment]
    return overlay


def test_f12_toggles_the_overlay_and_remembers_it(qtbot: QtBot, window: MainWindow) -> None:
    assert not window.menus.overlay_action.isChecked()
    qtbot.keyClick(window, Qt.Key.Key_F12)
    overlay = window.overlay
    assert overlay.isVisible() and overlay.polling
    assert window.ctx.settings_store.load().settings.overlay_visible
    qtbot.keyClick(window, Qt.Key.Key_F12)
    assert not overlay.isVisible()
    assert not overlay.polling  # a hidden HUD costs nothing
    assert not window.ctx.settings_store.load().settings.overlay_visible


def test_the_overlay_is_shown_at_start_when_it_was_left_open(
    qtbot: QtBot, window: MainWindow, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    qtbot.keyClick(window, Qt.Key.Key_F12)
    window.close()
    again = make_window([CPU])
    assert again.menus.overlay_action.isChecked()
    assert again.overlay.isVisible()


def test_close_button_hides_it(qtbot: QtBot, window: MainWindow) -> None:
    overlay = shown_overlay(qtbot, window)
    assert overlay.close_button.isVisible()
    qtbot.mouseClick(overlay.close_button, Qt.MouseButton.LeftButton)
    assert not overlay.isVisible()
    assert not window.menus.overlay_action.isChecked()


def test_overlay_shows_the_published_numbers(qtbot: QtBot, window: MainWindow) -> None:
    overlay = shown_overlay(qtbot, window)
    values = {"ttft_ms": 412.0, "tpot_ms": 40.6, "tokens_per_s": 24.6, "output_tokens": 186.0}
    window.ctx.metrics.publish(MetricRecord("chat", "GPU", values))
    overlay.tick()
    text = {key: label.text() for key, label in overlay.values.items()}
    assert text == {
        "device": "GPU",
        "ttft": "412.0 ms",
        "tpot": "40.6 ms",
        "rate_last": "24.6",
        "rate_live": "idle",
        "cpu_app": "12%",
        "cpu_system": "37%",
        "rss": "1.5 GB",
        "ram": "6.0 GB / 16.0 GB",
        "voice": "–",
        "lipsync": "–",
        "lipsync_stages": "–",
        "pictures": "–",
        "picture_stages": "–",
        "answer": "–",
        "answer_stages": "–",
        "server_active": "–",
        "server_ttft": "–",
        "server_rate": "–",
    }
    window.ctx.metrics.publish(MetricRecord("chat", "GPU", {"tokens_per_s": 31.5}, live=True))
    overlay.tick()
    assert overlay.values["rate_live"].text() == "31.5"


def test_overlay_shows_speech_and_lipsync_stages(qtbot: QtBot, window: MainWindow) -> None:
    overlay = shown_overlay(qtbot, window)
    speech = {"rtf": 0.452, "first_audio_ms": 870.0, "audio_s": 4.0}
    window.ctx.metrics.publish(MetricRecord("tts", "CPU", speech))
    video = {"fps": 41.27, "detect_ms": 11.0, "mel_ms": 3.2, "infer_ms": 900.0, "compose_ms": 310.4}
    window.ctx.metrics.publish(MetricRecord("lipsync", "GPU", {**video, "encode_ms": 420.0}))
    overlay.tick()
    assert overlay.values["voice"].text() == "RTF 0.45 · first 0.87 s · CPU"
    assert overlay.values["lipsync"].text() == "41.3 frames/s · GPU"
    assert overlay.values["lipsync_stages"].text() == (
        "detect 11 · mel 3 · model 900 · paste 310 · encode 420 ms"
    )
    assert overlay.values["device"].text() == "–"  # the chat's own rows are unaffected


def test_overlay_shows_a_picture_s_time_and_stages_not_a_load(
    qtbot: QtBot, window: MainWindow
) -> None:
    overlay = shown_overlay(qtbot, window)
    window.ctx.metrics.publish(MetricRecord("images", "CPU", {"load_ms": 5200.0}))
    overlay.tick()
    assert overlay.values["pictures"].text() == "–"  # a model load is not a picture
    drawn = {"generate_ms": 9000.0, "images": 2.0, "text_encoder_ms": 31.6}
    drawn |= {"denoise_step_ms": 812.4, "vae_decode_ms": 1490.0, "load_ms": 5200.0}
    window.ctx.metrics.publish(MetricRecord("images", "text CPU · denoise GPU · VAE CPU", drawn))
    overlay.tick()
    assert overlay.values["pictures"].text() == (
        "4.5 s a picture · text CPU · denoise GPU · VAE CPU"
    )
    assert overlay.values["picture_stages"].text() == "text 32 · step 812 · VAE 1490 ms"


def test_server_rows_show_requests_not_loads(qtbot: QtBot, window: MainWindow) -> None:
    overlay = shown_overlay(qtbot, window)
    window.ctx.metrics.publish(MetricRecord("server", "CPU", {"load_ms": 2100.0}))
    overlay.tick()
    assert overlay.values["server_ttft"].text() == "–"  # a model load is not a request
    request = {"ttft_ms": 88.4, "tokens_per_s": 51.25, "active_requests": 2.0}
    window.ctx.metrics.publish(MetricRecord("server", "CPU", request))
    overlay.tick()
    assert overlay.values["server_active"].text() == "2 active"
    assert overlay.values["server_ttft"].text() == "88.4 ms"
    assert overlay.values["server_rate"].text() == "51.3"  # the locale rounds half up
    assert overlay.values["ttft"].text() == "–"  # the chat's own rows are unaffected


def test_overlay_shows_the_spoken_answers_latency(qtbot: QtBot, window: MainWindow) -> None:
    overlay = shown_overlay(qtbot, window)
    audio_only = {"first_audio_ms": 1411.8, "llm_first_sentence_ms": 335.6, "tts_ms": 1066.4}
    window.ctx.metrics.publish(MetricRecord("conversation", "CPU", audio_only))
    overlay.tick()
    assert overlay.values["answer"].text() == "audio 1.41 s"
    assert overlay.values["answer_stages"].text() == "LLM 336 · TTS 1066 ms"
    with_face = {**audio_only, "first_frame_ms": 2050.0, "lipsync_ms": 640.2}
    window.ctx.metrics.publish(MetricRecord("conversation", "CPU", with_face))
    overlay.tick()
    assert overlay.values["answer"].text() == "audio 1.41 s · frame 2.05 s"
    assert overlay.values["answer_stages"].text() == "LLM 336 · TTS 1066 · lip-sync 640 ms"
    spoken_turn = {**with_face, "stt_ms": 212.3}  # a spoken question: its transcription first
    window.ctx.metrics.publish(MetricRecord("conversation", "CPU", spoken_turn))
    overlay.tick()
    assert overlay.values["answer_stages"].text() == (
        "STT 212 · LLM 336 · TTS 1066 · lip-sync 640 ms"
    )


def test_plot_history_scrolls_left(qtbot: QtBot, window: MainWindow) -> None:
    overlay = shown_overlay(qtbot, window)
    window.ctx.metrics.publish(MetricRecord("chat", "CPU", {"tokens_per_s": 20.0}, live=True))
    overlay.tick()
    x, rates = overlay.plot.rate_curve.getData()
    assert len(x) == len(rates) == SAMPLES
    assert rates[-1] == 20.0 and x[-1] == 0.0
    window.ctx.metrics.publish(MetricRecord("chat", "CPU", {"tokens_per_s": 8.0}, live=True))
    overlay.tick()
    _, rates = overlay.plot.rate_curve.getData()
    assert list(rates[-2:]) == [20.0, 8.0]
    _, cpu = overlay.plot.cpu_curve.getData()
    assert cpu[-1] == 12.0  # the app's share
    _, system_cpu = overlay.plot.system_cpu_curve.getData()
    assert system_cpu[-1] == 37.0


def test_a_tick_creates_no_widgets_and_no_arrays(qtbot: QtBot, window: MainWindow) -> None:
    # What keeps a tick cheap on the GUI thread; its cost itself is timed in
    # benchmarks/gui_lag.py (a timed test here would fail on a busy machine).
    overlay = shown_overlay(qtbot, window)
    for i in range(30):  # warm up pyqtgraph's paths, fill some history
        window.ctx.metrics.publish(MetricRecord("chat", "CPU", {"tokens_per_s": i}, live=True))
        overlay.tick()
    widgets = len(overlay.findChildren(QWidget))
    rings = [ring._data for ring in (overlay.plot._rate, overlay.plot._cpu)]
    for i in range(60):
        window.ctx.metrics.publish(MetricRecord("chat", "CPU", {"tokens_per_s": i}, live=True))
        overlay.tick()
    assert len(overlay.findChildren(QWidget)) == widgets
    assert all(
        now is before
        for now, before in zip(
            [overlay.plot._rate._data, overlay.plot._cpu._data], rings, strict=True
        )
    )


def test_overlay_lets_clicks_through_except_its_close_button(
    qtbot: QtBot, window: MainWindow
) -> None:
    overlay = shown_overlay(qtbot, window)
    assert overlay.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    assert not overlay.close_button.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)


def test_overlay_stays_in_the_top_right_corner(qtbot: QtBot, window: MainWindow) -> None:
    overlay = shown_overlay(qtbot, window)
    view = window.chat_panel.centre.currentWidget()  # the welcome page here: no model yet
    assert isinstance(view, QAbstractScrollArea)
    gap = view.viewport().geometry().right() - overlay.geometry().right()
    assert 0 < gap <= 10 and overlay.y() <= view.viewport().y() + 10
    window.resize(window.width() + 200, window.height())
    qtbot.waitUntil(
        lambda: view.viewport().geometry().right() - overlay.geometry().right() == gap,
        timeout=2000,
    )


def test_overlay_follows_the_chat_from_the_welcome_page_to_the_answers(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.resize(1024, 560)  # the welcome page scrolls: its scroll bar is kept uncovered
    panel = window.chat_panel
    qtbot.waitUntil(panel.welcome.verticalScrollBar().isVisible, timeout=2000)
    overlay = shown_overlay(qtbot, window)
    welcome_edge = overlay.geometry().right()
    # The page changes with no resize (a conversation with messages chosen, no model loaded).
    panel.centre.setCurrentWidget(panel.view)
    view = panel.view
    assert not view.verticalScrollBar().isVisible()
    gap = view.viewport().geometry().right() - overlay.geometry().right()
    assert 0 < gap <= 10 and overlay.geometry().right() > welcome_edge


@pytest.fixture
def busy_child() -> Iterator[subprocess.Popen[bytes]]:
    """A child process that keeps one core busy until the test ends."""
    child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    yield child
    child.kill()
    child.wait()


def percent(label: QLabel) -> float:
    text = label.text()
    assert text.endswith("%"), text
    return float(text.removesuffix("%").strip().replace(",", "."))


def test_overlay_labels_the_apps_and_the_systems_cpu(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(window, Qt.Key.Key_F12)
    overlay = window.overlay
    captions = {label.text() for label in overlay.findChildren(QLabel)}
    assert {"CPU · this app", "CPU · whole system"} <= captions
    assert {"Memory · this app", "Memory · whole system"} <= captions
    overlay.tick()
    qtbot.waitUntil(lambda: (overlay.tick(), percent(overlay.values["cpu_system"]) > 0)[1])
    assert 0 <= percent(overlay.values["cpu_app"]) <= 100
    assert overlay.values["rss"].text().endswith(("MB", "GB"))


def test_the_apps_cpu_includes_its_child_processes(
    qtbot: QtBot, busy_child: subprocess.Popen[bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(system_stats, "CHILDREN_EVERY_S", 0.0)
    sampler = SystemSampler()
    child = psutil.Process(busy_child.pid)
    cores = psutil.cpu_count() or 1
    readings: list[float] = []

    def child_counted() -> bool:
        sample = sampler.sample()
        readings.append(sample.process_cpu_percent)
        assert 0.0 <= sample.process_cpu_percent <= 100.0
        assert 0.0 <= sample.cpu_percent <= 100.0
        # A busy core is 100 / cores % of the machine; a shared machine may give it less.
        return sample.process_cpu_percent >= 20.0 / cores

    qtbot.waitUntil(child_counted, timeout=10000)
    assert child.is_running()
    rss = sampler.sample().process_rss_bytes
    assert rss > psutil.Process().memory_info().rss  # the child's memory counts too


ANSWER = "Sure:\n\n```python\nprint('hi')\n```\n"


@pytest.fixture
def overlay(qtbot: QtBot, window: MainWindow) -> PerfOverlay:
    """The overlay (F12) shown over a conversation whose action buttons run under it."""
    window.resize(1024, 700)
    panel = window.chat_panel
    panel.centre.setCurrentWidget(panel.view)
    panel.view.show_messages(
        [ChatMessage("user", "Q?"), ChatMessage("assistant", ANSWER, model="M")] * 3
    )
    overlay = shown_overlay(qtbot, window)
    qtbot.waitUntil(overlay.isVisible, timeout=2000)
    return overlay


def test_the_chat_does_not_show_through_the_overlay(overlay: PerfOverlay) -> None:
    host = overlay.parentWidget()
    assert host is not None
    covered = [
        button
        for button in host.findChildren(QToolButton)
        if button.isVisible()
        and overlay.geometry().contains(button.mapTo(host, button.rect().center()))
        and button is not overlay.close_button
    ]
    assert covered, "the test needs message buttons under the overlay"
    own = overlay.grab().toImage()
    seen = host.grab(overlay.geometry()).toImage()
    inner = QRect(QPoint(0, 0), own.size()).adjusted(1, 1, -1, -1)
    for button in covered:
        centre = overlay.mapFrom(host, button.mapTo(host, button.rect().center()))
        box = QRect(centre - QPoint(8, 8), centre + QPoint(8, 8)).intersected(inner)
        for y in range(box.top(), box.bottom() + 1):
            for x in range(box.left(), box.right() + 1):
                assert own.pixelColor(x, y).alpha() == 255, (x, y)
                # What the user sees there is the overlay, not the icon under it.
                assert seen.pixel(x, y) == own.pixel(x, y), (x, y)


def test_every_value_sits_beside_its_caption(overlay: PerfOverlay) -> None:
    grid = next(g for g in overlay.findChildren(QGridLayout))
    for key, value in overlay.values.items():
        row, column, _, span = grid.getItemPosition(grid.indexOf(value))
        assert (column, span) == (1, 1), key
        caption = grid.itemAtPosition(row, 0)
        assert caption is not None, key
        label = caption.widget()
        assert isinstance(label, QLabel) and label.text().strip(), key
        assert abs(label.y() - value.y()) <= 2, key  # on the same line


def test_the_top_axis_numbers_are_not_cut(overlay: PerfOverlay) -> None:
    overlay.tick()
    item = overlay.plot.getPlotItem()
    # Each axis reaches above its highest tick (10 tokens/s, 100 %), so that tick's number is
    # drawn whole rather than cut in half at the plot's top edge.
    assert item.vb.viewRange()[1][1] > 10.0
    assert overlay.plot.cpu_view.viewRange()[1][1] > 100.0
