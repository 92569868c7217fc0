"""The Chat panel's welcome page: recommendations, a one-click download from the local stand-in
hub that loads the model, a picture model beside them that opens the Create panel, Cancel, the
sentence shown when the hub cannot be reached, and its controls labelled."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_tasks import ModelTask
from app.models.catalog import CatalogEntry
from app.models.download import staging_dir
from tests.hub_server import HubServer, running_hub
from tests.ui.helpers import click, load
from ui.a11y import unlabelled_widgets
from ui.chat.panel import ChatPanel
from ui.chat.welcome import STOPPED, WelcomePage
from ui.i18n import translated
from ui.shell.main_window import MainWindow

CHAT_REPO = "OpenVINO/tiny-chat-int8-ov"
BIG_REPO = "OpenVINO/big-chat-ov"  # 23 MB of weights: time to press Cancel
PICTURE_REPO = "OpenVINO/tiny-lcm-int8-ov"
UNREACHABLE = (
    "Can't reach the model hub at http://nonexistent.invalid — check your connection or proxy; "
    "HF_ENDPOINT is http://nonexistent.invalid."
)


def _entry(name: str, repo: str, size: int = 10**6) -> CatalogEntry:
    return CatalogEntry(name, repo, ModelTask.CHAT, size, "MIT", ("CPU",), "A test model.")


@pytest.fixture
def hub(
    fixture_role: Callable[[str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[HubServer]:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    repos = {CHAT_REPO: fixture_role("llm-int8"), BIG_REPO: fixture_role("embedding")}
    with running_hub(repos) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        yield server


def _welcome(chat_panel: ChatPanel, monkeypatch: pytest.MonkeyPatch, *repos: str) -> WelcomePage:
    """The welcome page recommending a tiny catalog of ``repos`` (the stand-in hub's), each
    larger than the one before: the largest is recommended first, then the smallest."""
    catalog = [_entry(f"Test model {i}", repo, (i + 1) * 10**6) for i, repo in enumerate(repos)]
    monkeypatch.setattr("ui.chat.welcome.load_catalog", lambda: catalog)
    page = chat_panel.welcome
    page.refresh()
    return page


def test_a_first_run_shows_recommendations_for_this_computer(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext
) -> None:
    page = chat_panel.welcome
    assert chat_panel.centre.currentWidget() is page and page.isVisible()
    assert 2 <= len(page.recommendations) <= 3  # from the real catalog, this machine's RAM
    assert all(button.isEnabled() for button in page.download_buttons)
    shown = page.widget().findChildren(type(page.storage))
    text = "\n".join(label.text() for label in shown)
    for recommendation in page.recommendations:
        assert recommendation.entry.name in text and recommendation.reason in text
    models_dir = ctx.models.models_dir
    assert page.storage.text() == f"Models are stored in {models_dir}"
    assert "python" not in text and "--" not in text  # nothing sends a user to a terminal


def test_open_and_all_models_lead_to_the_file_dialog_and_the_model_manager(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, model_folder: Path
) -> None:
    page = window.chat_panel.welcome
    asked: list[str] = []
    monkeypatch.setattr(
        "ui.chat.model_picker.ask_model_file",
        lambda _parent, title, *_: asked.append(title) or model_folder,
    )
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000):
        click(qtbot, page.open_button)
    assert asked and window.chat_panel.centre.currentWidget() is window.chat_panel.new_chat.page
    click(qtbot, page.browse_button)
    assert window._models_window is not None and window._models_window.isVisible()


def test_one_click_download_installs_loads_and_focuses_the_input(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    hub: HubServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = _welcome(chat_panel, monkeypatch, CHAT_REPO)
    panel = chat_panel
    seen: list[int] = []
    page.progress.valueChanged.connect(seen.append)
    with qtbot.waitSignal(panel.modelLoaded, timeout=20_000):
        click(qtbot, page.download_buttons[0])
        assert page.progress.isVisible() and page.cancel_button.isVisible()
        assert not page.download_buttons[0].isEnabled()  # one download at a time
    assert seen  # progress reached the screen
    [installed] = ctx.models.models(ModelTask.CHAT)
    assert installed.id == "tiny-chat-int8-ov" and installed.usable
    assert ctx.chat.loaded_model is not None
    assert ctx.chat.loaded_model.model_path == installed.folder
    qtbot.waitUntil(panel.input.hasFocus, timeout=2000)
    assert panel.centre.currentWidget() is panel.new_chat.page  # ready for the first question
    assert page.progress.isHidden() and page.cancel_button.isHidden()
    assert [b.text() for b in page.download_buttons] == ["Open"]  # no second download


def test_a_recommendation_installed_already_is_opened_not_downloaded_again(
    qtbot: QtBot, window: MainWindow, hub: HubServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.models.download import Downloader

    page = _welcome(window.chat_panel, monkeypatch, CHAT_REPO, BIG_REPO)
    assert [b.text() for b in page.download_buttons] == ["Download", "Download"]
    manager = window.open_models()  # installed there, as a user could have done
    installed = Downloader(window.ctx.models).download(CHAT_REPO)
    manager.modelsChanged.emit()
    assert [b.text() for b in page.download_buttons] == ["Download", "Open"]
    manager.close()
    window.activateWindow()  # back to the main window, as the user's click does
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    hub.faults.gets.clear()
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000):
        click(qtbot, page.download_buttons[1])
    assert hub.faults.gets == []  # nothing fetched again
    assert window.ctx.chat.loaded_model is not None
    assert window.ctx.chat.loaded_model.model_path == installed.folder
    qtbot.waitUntil(window.chat_panel.input.hasFocus, timeout=2000)


def test_cancel_mid_download_installs_nothing(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    hub: HubServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hub.faults.delay_per_chunk_s = 0.02  # a slow network: 23 MB take seconds
    page = _welcome(chat_panel, monkeypatch, BIG_REPO)
    click(qtbot, page.download_buttons[0])
    qtbot.waitUntil(lambda: " of " in page.status.text(), timeout=10_000)
    click(qtbot, page.cancel_button)
    qtbot.waitUntil(lambda: page.status.text() == STOPPED, timeout=10_000)
    models_dir = ctx.models.models_dir
    assert ctx.models.models() == [] and not (models_dir / "big-chat-ov").exists()
    assert staging_dir(models_dir, "big-chat-ov").is_dir()  # hidden, to resume
    assert page.download_buttons[0].isEnabled() and page.progress.isHidden()
    assert chat_panel.centre.currentWidget() is page  # still no model: still welcome
    assert not page.downloading


def test_offline_the_welcome_page_says_one_sentence(
    qtbot: QtBot, chat_panel: ChatPanel, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://nonexistent.invalid")
    page = _welcome(chat_panel, monkeypatch, CHAT_REPO)
    click(qtbot, page.download_buttons[0])
    qtbot.waitUntil(lambda: page.error.isVisible(), timeout=20_000)
    assert page.error.text() == UNREACHABLE
    assert page.download_buttons[0].isEnabled() and page.progress.isHidden()


def test_offline_the_model_manager_says_the_same_sentence(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "http://nonexistent.invalid")
    monkeypatch.setattr("ui.models.manager.load_catalog", lambda: [_entry("Tiny", CHAT_REPO)])
    manager = window.open_models()
    manager.tabs.setCurrentIndex(1)  # the Catalog
    manager.refresh_catalog()
    manager.catalog.selectRow(0)
    click(qtbot, manager.download_button)
    qtbot.waitUntil(lambda: manager.catalog_error.isVisible(), timeout=20_000)
    assert manager.catalog_error.text() == UNREACHABLE


def test_a_loaded_model_or_a_conversation_replaces_the_welcome_page(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    panel = chat_panel
    assert panel.centre.currentWidget() is panel.welcome
    load(qtbot, panel, model_folder)
    assert panel.centre.currentWidget() is panel.new_chat.page  # ways to start a chat


def test_a_full_disk_is_said_instead_of_recommendations(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.models.recommend import Machine

    full = Machine(frozenset({"CPU"}), 16 * 2**30, 50 * 10**6)
    monkeypatch.setattr("ui.chat.welcome.machine_facts", lambda _kinds, _folder: full)
    page = chat_panel.welcome
    page.refresh()
    assert page.recommendations == [] and page.download_buttons == []
    texts = [label.text() for label in page.widget().findChildren(type(page.storage))]
    models_dir = ctx.models.models_dir
    assert any(
        text.startswith("Not enough free disk space for a chat model") and str(models_dir) in text
        for text in texts
    )
    assert page.open_button.isEnabled()  # a model already on disk can still be opened


def test_the_welcome_page_is_labelled(chat_panel: ChatPanel) -> None:
    welcome = chat_panel.welcome
    assert chat_panel.centre.currentWidget() is welcome
    assert unlabelled_widgets(welcome) == []
    assert unlabelled_widgets(chat_panel.model_picker) == []


def test_the_recommendations_sizes_read_in_the_users_locale(german_numbers: QLocale) -> None:
    """A size inside a core sentence (the welcome page's "nothing fits") is itself a core
    sentence: its digits follow the locale, in the sentence or alone."""
    from app.models.recommend import _gb, _ram

    assert translated(_gb(1_500_000_000)) == german_numbers.toString(1.5, "f", 1) + " GB"
    assert str(_gb(1_500_000_000)) == "1.5 GB"  # the command line's English
    assert translated(_ram(16 * 2**30)) == "16 GB"


def test_a_picture_model_is_offered_and_opens_the_create_panel(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    fixture_role: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    with running_hub({PICTURE_REPO: fixture_role("diffusion-lcm")}) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        drawer = CatalogEntry(
            "Test pictures", PICTURE_REPO, ModelTask.IMAGE_GENERATION, 10**6, "MIT", ("CPU",), "x"
        )
        catalog = [_entry("Test model", CHAT_REPO), drawer]
        monkeypatch.setattr("ui.chat.welcome.load_catalog", lambda: catalog)
        page = chat_panel.welcome
        page.refresh()
        text = "\n".join(label.text() for label in page.widget().findChildren(type(page.storage)))
        assert "Make pictures too" in text and "For the Create panel" in text
        assert [b.text() for b in page.download_buttons] == ["Download", "Download"]
        with qtbot.waitSignal(chat_panel.panelRequested, timeout=60_000) as asked:
            click(qtbot, page.download_buttons[1])
        assert asked.args == ["Create"]
        assert ctx.chat.loaded_model is None  # not loaded as a chat model
        [installed] = ctx.models.models(ModelTask.IMAGE_GENERATION)
        assert installed.usable and ctx.images.model_folder() == installed.folder
        assert [b.text() for b in page.download_buttons] == ["Download", "Open"]
