"""The Convert view's conversion-tools offer, as a user of a fresh frozen app meets it.

The offer decides as a frozen app does (only the private environment counts) and installs a
small real set (six, idna) with real uv from the local wheel server: uv resolves (reading the
wheels' metadata by byte ranges) and the server stalls its downloads, so the test sees the
install in progress with the window live, then lets it finish, cancels it, or points it at an
empty folder.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.models.toolchain_env import MISSING, PRIVATE, toolchain_status
from app.models.toolchain_install import WORK_PREFIX, InstallOptions, install_toolchain
from tests.ui.helpers import click
from tests.ui.models.test_convert_view import open_convert
from tests.wheel_server import (  # noqa: F401  (fixtures: uv, wheels)
    SMALL_SET,
    StallingWheelServer,
    stalling_server,
    uv_sandbox,
    wheel_folder,
)
from ui.models.convert_view import ConvertView
from ui.models.toolchain_offer import (
    ToolchainOffer,
    install_text,
    installed_text,
    missing_text,
    outdated_text,
    private_text,
    stopped_text,
    update_text,
)
from ui.shell.main_window import MainWindow

pytestmark = pytest.mark.integration


@pytest.fixture
def server(wheels: Path) -> Iterator[StallingWheelServer]:
    with stalling_server(wheels, ranges=True) as running:
        yield running


def frozen_view(
    qtbot: QtBot, window: MainWindow, source: str
) -> tuple[ConvertView, ToolchainOffer]:
    """The Convert view as a frozen app without the tools shows it, installing from ``source``."""
    _, view = open_convert(qtbot, window)
    offer = view.toolchain_offer
    offer.frozen = True
    offer.options = InstallOptions(
        SMALL_SET, sys.executable, ("--no-index", "--find-links", source)
    )
    offer.refresh()
    return view, offer


def test_a_source_venv_with_the_tools_needs_no_offer(qtbot: QtBot, window: MainWindow) -> None:
    _, view = open_convert(qtbot, window)
    assert not view.toolchain_offer.isVisible() and view.convert_button.isEnabled()


def test_install_with_progress_then_convert_is_enabled_then_remove(
    qtbot: QtBot, window: MainWindow, server: StallingWheelServer
) -> None:
    view, offer = frozen_view(qtbot, window, server.url)
    assert offer.isVisible() and offer.message.text() == missing_text()
    assert offer.install_button.isVisible() and offer.install_button.text() == install_text()
    assert install_text() == "Install conversion toolchain (≈490.0 MB download, 1.6 GB on disk)"
    assert not view.convert_button.isEnabled()  # nothing to convert with yet
    click(qtbot, offer.install_button)
    assert server.stalled.wait(60), "uv never started downloading"
    # uv is mid-download and the window is live: the bar, the phase and Cancel are shown.
    qtbot.waitUntil(lambda: offer.phase.text() == "Downloading 2 packages", timeout=10_000)
    assert offer.progress.isVisible() and offer.cancel_button.isVisible()
    assert not offer.install_button.isEnabled() and not view.convert_button.isEnabled()
    server.release()
    qtbot.waitUntil(view.convert_button.isEnabled, timeout=60_000)
    assert offer.message.text() == "The conversion toolchain is installed: Convert is ready."
    assert not offer.phase.isVisible()
    assert not offer.progress.isVisible() and not offer.cancel_button.isVisible()
    assert not offer.error.isVisible()
    assert toolchain_status(offer.toolchain_dir, frozen=True).where == PRIVATE
    assert offer.remove_button.isVisible() and not offer.install_button.isVisible()

    click(qtbot, offer.remove_button)
    assert not view.convert_button.isEnabled()  # at once: nothing converts while it goes
    qtbot.waitUntil(lambda: not offer.installing, timeout=30_000)
    assert not view.convert_button.isEnabled()
    assert offer.install_button.isVisible() and offer.message.text() == missing_text()
    assert not (offer.toolchain_dir / "env").exists()


def test_cancel_mid_install_leaves_nothing(
    qtbot: QtBot, window: MainWindow, server: StallingWheelServer
) -> None:
    view, offer = frozen_view(qtbot, window, server.url)
    click(qtbot, offer.install_button)
    assert server.stalled.wait(60), "uv never started downloading"
    assert list(offer.toolchain_dir.glob(f"{WORK_PREFIX}*"))  # the work folder, being filled
    click(qtbot, offer.cancel_button)
    qtbot.waitUntil(lambda: not offer.installing, timeout=30_000)
    assert offer.phase.text() == stopped_text() and not offer.error.isVisible()
    assert sorted(p.name for p in offer.toolchain_dir.iterdir()) == []
    assert toolchain_status(offer.toolchain_dir, frozen=True).where == MISSING
    assert offer.install_button.isEnabled() and not view.convert_button.isEnabled()


@pytest.mark.logs_error(r"^uv pip failed")
def test_a_failed_install_is_one_sentence_next_to_the_button(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    empty = tmp_path / "no-wheels"
    empty.mkdir()
    view, offer = frozen_view(qtbot, window, str(empty))
    click(qtbot, offer.install_button)
    qtbot.waitUntil(offer.error.isVisible, timeout=60_000)
    message = offer.error.text()
    assert message == (
        "The package index does not offer the packages the conversion toolchain needs for this "
        "system."
    )
    assert offer.install_button.isEnabled() and not offer.progress.isVisible()
    assert not view.convert_button.isEnabled()
    assert not (offer.toolchain_dir / "env").exists()
    click(qtbot, offer.install_button)  # a second try clears the old sentence at once
    assert not offer.error.isVisible()
    qtbot.waitUntil(lambda: not offer.installing, timeout=60_000)


def test_no_offer_text_names_a_command_or_flag(qtbot: QtBot, window: MainWindow) -> None:
    _, offer = frozen_view(qtbot, window, "unused")
    texts = [offer.message.text(), offer.install_button.text(), offer.remove_button.text()]
    for text in texts:
        assert "--" not in text and "models tools" not in text and "`" not in text


def test_tools_of_an_earlier_release_are_offered_an_update(
    qtbot: QtBot, window: MainWindow, wheels: Path
) -> None:
    """Installed with another list (an app update changed it): they still convert, and
    *Update* reinstalls them with this release's list."""
    view, offer = frozen_view(qtbot, window, str(wheels))
    sources = ("--no-index", "--find-links", str(wheels))
    install_toolchain(
        offer.toolchain_dir, InstallOptions(("six==1.17.0",), sys.executable, sources)
    )
    offer.refresh()
    assert offer.status.where == PRIVATE and offer.status.outdated
    assert offer.message.text() == outdated_text() and offer.install_button.text() == update_text()
    assert offer.install_button.isVisible() and offer.remove_button.isVisible()
    assert view.convert_button.isEnabled()  # the older tools still convert meanwhile
    click(qtbot, offer.install_button)
    assert not view.convert_button.isEnabled()  # not while the environment is replaced
    qtbot.waitUntil(lambda: not offer.installing, timeout=60_000)
    assert not offer.status.outdated and offer.status.requirements == SMALL_SET
    assert offer.message.text() == installed_text() and not offer.install_button.isVisible()
    offer.hide()
    offer.show()  # the view shown again: the settled status
    assert offer.message.text() == private_text()
    assert view.convert_button.isEnabled() and not offer.error.isVisible()
