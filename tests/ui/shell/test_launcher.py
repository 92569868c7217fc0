"""run_gui: the smoke test's exit codes, start-up failures, a model given at start."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.core.paths import HOME_ENV, AppPaths
from tests.ui.fakes import embedding_model_folder
from ui.shell.launcher import run_gui
from ui.shell.main_window import MainWindow


def test_smoke_test_without_a_model_opens_and_closes(
    app_home: AppPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_gui(smoke_test=True) == 0
    assert "smoke test passed: window opened and closed" in capsys.readouterr().out
    assert not any(isinstance(w, MainWindow) and w.isVisible() for w in _top_levels())


def test_smoke_test_with_a_folder_that_is_no_model_fails(
    app_home: AppPaths, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = embedding_model_folder(tmp_path)
    assert run_gui(smoke_test=True, model=folder, device="CPU") == 1
    err = capsys.readouterr().err
    assert "smoke test failed: bge-small holds an embedding model, not a chat model." in err
    assert "Traceback" not in err


def test_an_unusable_home_folder_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(HOME_ENV, str(blocker / "home"))  # a folder cannot live in a file
    assert run_gui() == 2
    err = capsys.readouterr().err
    assert err.startswith("error: Cannot create the app's folders")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_model_given_at_start_is_validated_next_to_the_picker(
    app_home: AppPaths, tmp_path: Path
) -> None:
    folder = embedding_model_folder(tmp_path)
    seen: list[str] = []

    def look_and_close() -> None:  # runs on the GUI thread, inside run_gui's event loop
        [window] = [w for w in _top_levels() if isinstance(w, MainWindow) and w.isVisible()]
        seen.append(window.chat_panel.model_picker.error.text())
        window.close()

    QTimer.singleShot(0, look_and_close)
    assert run_gui(model=folder) == 0
    assert seen == [
        "bge-small holds an embedding model, not a chat model. "
        "Choose a chat model folder or a .gguf file."
    ]


def _top_levels() -> list[object]:
    return list(QApplication.topLevelWidgets())


def test_no_display_is_said_in_words_not_a_qt_abort() -> None:
    from ui.shell.launcher import missing_display

    assert "no display" in missing_display({}, "linux")
    assert missing_display({"DISPLAY": ":0"}, "linux") == ""
    assert missing_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux") == ""
    assert missing_display({"QT_QPA_PLATFORM": "offscreen"}, "linux") == ""
    assert missing_display({}, "win32") == ""
