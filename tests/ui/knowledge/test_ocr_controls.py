"""The Knowledge panel's *Read text in images* switch and OCR device: what they show, what they
save, and that they follow the settings changed elsewhere."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.context import AppContext
from tests.ui.panels import open_panel
from ui.knowledge import KnowledgePanel
from ui.shell import main_panels


def hidden_knowledge(qtbot: QtBot, ctx: AppContext) -> KnowledgePanel:
    return open_panel(qtbot, ctx, main_panels.knowledge_panel, shown=False)


def test_the_switch_is_per_collection_and_saved(qtbot: QtBot, ctx: AppContext) -> None:
    ocr = hidden_knowledge(qtbot, ctx).ocr
    assert not ocr.read_images.isEnabled()  # no collection selected
    ocr.show_collection("Receipts")
    assert ocr.read_images.isEnabled() and ocr.read_images.isChecked()  # on by default
    ocr.read_images.click()
    assert ctx.settings.collections_without_ocr == ["Receipts"]
    ocr.show_collection("Contracts")
    assert ocr.read_images.isChecked()
    ocr.show_collection("Receipts")
    assert not ocr.read_images.isChecked()
    ocr.read_images.click()
    assert ctx.settings.collections_without_ocr == []


def test_the_device_is_saved_and_follows_the_settings(qtbot: QtBot, ctx: AppContext) -> None:
    ocr = hidden_knowledge(qtbot, ctx).ocr
    devices = [ocr.device.itemData(i) for i in range(ocr.device.count())]
    assert "AUTO" in devices and "CPU" in devices and "NPU" not in devices
    assert ocr.device.currentData() == "AUTO"
    ocr.device.setCurrentIndex(devices.index("CPU"))
    assert ctx.settings.ocr_device == "CPU"
    ctx.settings_store.update(ocr_device="AUTO")  # changed elsewhere (the settings file)
    qtbot.waitUntil(lambda: ocr.device.currentData() == "AUTO")
