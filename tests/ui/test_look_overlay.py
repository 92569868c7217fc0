"""The performance overlay's CPU and memory: this app's (children included) and the system's."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import psutil
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.core.performance import system_stats
from app.core.performance.system_stats import SystemSampler
from ui.shell.main_window import MainWindow


@pytest.fixture
def busy_child() -> Iterator[subprocess.Popen[bytes]]:
    """A child process that keeps one core busy until the test ends."""
    child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    yield child
    child.kill()
    child.wait()


def percent(label: QLabel) -> float:
    text = label.text()
    assert text.endswith(" %"), text
    return float(text.removesuffix(" %").replace(",", "."))


def test_overlay_labels_the_apps_and_the_systems_cpu(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(window, Qt.Key.Key_F12)
    overlay = window.overlay
    captions = {label.text() for label in overlay.findChildren(QLabel)}
    assert {"CPU · this app", "CPU · whole system"} <= captions
    assert {"Memory · this app", "Memory · whole system"} <= captions
    overlay.tick()
    qtbot.waitUntil(lambda: (overlay.tick(), percent(overlay.values["cpu_system"]) > 0)[1])
    assert 0 <= percent(overlay.values["cpu_app"]) <= 100
    assert overlay.values["rss"].text().endswith(("MiB", "GiB"))


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
