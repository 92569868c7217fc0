"""The Installed view: what a GGUF file opened from the chat is (read from its header in a
worker), a hostile one in one sentence, where each model came from, and a footer whose sizes
add up — a hard-linked copy counted once and the user's own files apart."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import QLocale
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_tasks import ModelTask
from tests import gguf_variants
from tests.ui.fakes import fake_model_folder
from tests.ui.panels import open_panel
from ui.models.installed_view import InstalledView
from ui.models.listing import Origin
from ui.models.tables import INSTALLED_COLUMNS
from ui.numbers import data_size
from ui.settings_signals import SettingsSignals
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner

READ_MS = 180_000  # reading SmolLM2's header takes seconds; more on a machine busy with others


def _installed_view(
    ctx: AppContext, signals: SettingsSignals, tasks: TaskRunner, notes: NotificationBar
) -> InstalledView:
    view = InstalledView(ctx.models, ctx.paths, signals, tasks, notes)
    view.refresh()  # as the model manager does when it opens
    return view


def _row(view: InstalledView, name: str) -> dict[str, str]:
    """The cells of the row of model ``name``, by column."""
    [index] = [i for i, row in enumerate(view.rows) if row.model.id == name]
    return {
        column: view.table.item(index, number).text()
        for number, column in enumerate(INSTALLED_COLUMNS)
    }


def _tip(view: InstalledView, name: str, column: str) -> str:
    [index] = [i for i, row in enumerate(view.rows) if row.model.id == name]
    return view.table.item(index, INSTALLED_COLUMNS.index(column)).toolTip()


def test_a_gguf_opened_from_the_chat_says_what_it_is_and_a_hostile_one_why_not(
    qtbot: QtBot, ctx: AppContext, real_gguf: Path, tmp_path: Path
) -> None:
    hostile = gguf_variants.absurd_array(real_gguf, tmp_path / "hostile.gguf")
    ctx.settings_store.update(recent_models=[real_gguf, hostile])
    view = open_panel(qtbot, ctx, _installed_view)
    smol, bad = real_gguf.stem, hostile.stem
    assert _row(view, smol)["State"] == "reading…"  # the header is read in a worker
    qtbot.waitUntil(lambda: _row(view, bad)["State"] != "reading…", timeout=READ_MS)
    qtbot.waitUntil(lambda: _row(view, smol)["State"] == "ready", timeout=READ_MS)
    row = _row(view, smol)
    assert (row["Format"], row["Weights"], row["Parameters"]) == ("GGUF · llama", "Q4_1", "135M")
    assert row["Context"] == QLocale().toString(8192)
    assert (row["Task"], row["Source"], row["Size"]) == ("Chat", "file you opened", "93.8 MB")
    exact = QLocale().toString(134_515_008)
    assert _tip(view, smol, "Parameters") == f"{exact} parameters"
    assert _row(view, bad)["State"] == (
        "broken: hostile.gguf is damaged or cut short (a download that did not finish?); "
        "download it again."
    )
    assert _row(view, bad)["Weights"] == ""


def test_the_source_says_whether_a_model_is_a_file_or_folder_opened_added_copied_or_made(
    qtbot: QtBot, ctx: AppContext, tmp_path: Path
) -> None:
    models = ctx.models
    models.add_folder(fake_model_folder(tmp_path / "in-place", "kept-here"))
    models.add_folder(fake_model_folder(tmp_path / "to-copy", "copied"), copy=True)
    downloaded = fake_model_folder(ctx.paths.models_dir, "downloaded")
    models.register_owned(downloaded, ModelTask.CHAT, hub_id="OpenVINO/downloaded")
    converted = fake_model_folder(ctx.paths.models_dir, "converted")
    models.register_owned(converted, ModelTask.CHAT, source="converted")
    opened = fake_model_folder(tmp_path / "opened", "opened")
    ctx.settings_store.update(recent_models=[opened])
    view = open_panel(qtbot, ctx, _installed_view)
    sources = {row.model.id: _row(view, row.model.id)["Source"] for row in view.rows}
    assert sources == {
        "kept-here": "folder you added",
        "copied": "copy of a folder you added",
        "downloaded": "downloaded: OpenVINO/downloaded",
        "converted": "converted in OV Studio",
        "opened": "folder you opened",
        "all-MiniLM-L6-v2": "bundled with OV Studio",
    }
    assert "Remove… deletes it" in _tip(view, "copied", "Source")
    assert "Remove… only takes it off this list" in _tip(view, "kept-here", "Source")


def test_a_gguf_file_added_in_place_or_opened_says_file(
    qtbot: QtBot, ctx: AppContext, real_gguf: Path
) -> None:
    ctx.models.add_folder(real_gguf)  # reads the header once, here
    view = open_panel(qtbot, ctx, _installed_view)
    [row] = [r for r in view.rows if r.origin is Origin.REGISTRY]
    assert _row(view, row.model.id)["Source"] == "file you added"


def test_the_footer_counts_a_hard_linked_copy_once_and_your_files_apart(
    qtbot: QtBot, ctx: AppContext, tmp_path: Path
) -> None:
    yours = fake_model_folder(tmp_path / "mine", "your-model")
    weights = yours / "openvino_model.bin"
    weights.write_bytes(b"w" * 3_000_000)
    ctx.models.add_folder(yours)  # used in place: your file, not an app copy
    app_copy = ctx.paths.models_dir / "linked-copy"
    shutil.copytree(yours, app_copy)
    (app_copy / "openvino_model.bin").unlink()
    (app_copy / "openvino_model.bin").hardlink_to(weights)  # a copy that shares your bytes
    ctx.models.register_owned(app_copy, ModelTask.CHAT, source="local")
    again = ctx.paths.models_dir / "second-name"
    again.mkdir()
    (again / "weights.bin").hardlink_to(app_copy / "openvino_model.bin")  # a third name
    view = open_panel(qtbot, ctx, _installed_view)
    small = sum(p.stat().st_size for p in app_copy.iterdir() if p.name != "openvino_model.bin")
    in_app = 3_000_000 + small
    outside = sum(p.stat().st_size for p in yours.iterdir()) - 3_000_000
    assert view.usage.text() == (
        f"App copies use {data_size(in_app)} ({data_size(3_000_000)} of it shared with other "
        f"files by hard links) · your files in use: {data_size(outside)}"
    )
    tip = view.usage.toolTip()
    assert str(ctx.paths.models_dir) in tip and str(ctx.paths.converted_cache) in tip


def test_nothing_in_the_app_folders_takes_no_bytes(qtbot: QtBot, ctx: AppContext) -> None:
    view = open_panel(qtbot, ctx, _installed_view)
    assert view.usage.text() == f"App copies use {data_size(0)}"
