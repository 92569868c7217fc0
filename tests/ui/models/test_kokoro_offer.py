"""*Convert for speed* in the Installed view: a Kokoro folder added from disk (the real int8
ONNX, vocabulary and voice packs) is converted once in a worker, with its steps and Cancel;
a cancelled conversion leaves nothing, and the user's folder is never written to."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_tasks import ModelTask
from app.models.kokoro_install import CONVERTED_DIR, conversion_of
from pipelines.voice.kokoro_convert import is_converted
from tests.ui.helpers import click
from tests.ui.panels import open_panel
from ui.models.installed_view import InstalledView
from ui.settings_signals import SettingsSignals
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner

CONVERT_MS = 180_000  # ≈ 11 s on a quiet 2-core machine; more on a busy one


def _installed_view(
    ctx: AppContext, signals: SettingsSignals, tasks: TaskRunner, notes: NotificationBar
) -> InstalledView:
    view = InstalledView(ctx.models, ctx.paths, signals, tasks, notes)
    view.refresh()
    return view


def test_an_installed_kokoro_is_offered_a_conversion_with_progress_and_cancel(
    qtbot: QtBot, ctx: AppContext, kokoro_model_dir: Path
) -> None:
    model = ctx.models.add_folder(kokoro_model_dir)
    assert model.task is ModelTask.TTS
    view = open_panel(qtbot, ctx, _installed_view)
    offer = view.kokoro_offer
    assert offer.isHidden()
    assert view.select(model.folder)
    assert offer.isVisible() and "is read as it is" in offer.note.text()

    click(qtbot, offer.button)
    assert offer.cancel_button.isVisible() and offer.progress.isVisible()
    click(qtbot, offer.cancel_button)
    qtbot.waitUntil(lambda: not offer.converting, timeout=CONVERT_MS)
    assert offer.note.text().startswith("Stopped; nothing was kept")
    converted_root = ctx.paths.models_dir / CONVERTED_DIR
    assert not converted_root.exists() or list(converted_root.iterdir()) == []

    steps: list[int] = []
    offer.progress.valueChanged.connect(steps.append)
    with qtbot.waitSignal(offer.converted, timeout=CONVERT_MS):
        click(qtbot, offer.button)
    assert is_converted(conversion_of(model.folder, ctx.paths.models_dir))
    assert offer.note.text().startswith("Converted") and offer.button.isHidden()
    assert steps and steps == sorted(steps)
    view.table.clearSelection()
    assert view.select(model.folder) and offer.isHidden()  # converted: nothing to offer
