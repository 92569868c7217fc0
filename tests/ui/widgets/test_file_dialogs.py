"""Open and save dialogs start in a folder that makes sense: the last one used for that kind of
file in this window, else the user's Documents, else their home — never the working directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QFileDialog, QWidget
from pytestqt.qtbot import QtBot

from ui.shell.main_window import MainWindow
from ui.widgets.file_dialogs import FileKind, default_folder, open_file


class DialogSpy:
    """Stands in for the system's file dialogs: notes the folder each one opened in and
    answers with the next chosen path ("" = cancelled)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.opened_in: list[Path] = []
        self.answers: list[str] = []
        for name in ("getOpenFileName", "getSaveFileName"):
            monkeypatch.setattr(QFileDialog, name, self._one)
        monkeypatch.setattr(QFileDialog, "getOpenFileNames", self._many)
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", self._folder)

    def _start(self, where: str) -> str:
        self.opened_in.append(Path(where))
        return self.answers.pop(0) if self.answers else ""

    def _one(self, _parent: Any, _title: str, where: str, *_: Any) -> tuple[str, str]:
        return self._start(where), ""

    def _many(self, _parent: Any, _title: str, where: str, *_: Any) -> tuple[list[str], str]:
        chosen = self._start(where)
        return ([chosen] if chosen else []), ""

    def _folder(self, _parent: Any, _title: str, where: str, *_: Any) -> str:
        return self._start(where)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> DialogSpy:
    return DialogSpy(monkeypatch)


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of the test's own, and a working directory that is not in it."""
    home = tmp_path / "ana"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # no user-dirs.dirs there
    elsewhere = tmp_path / "install"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return home


def test_a_dialog_starts_in_documents_or_home_never_the_working_directory(
    qtbot: QtBot, spy: DialogSpy, user_home: Path
) -> None:
    widget = QWidget()  # on its own: no window remembers anything for it
    qtbot.addWidget(widget)
    assert default_folder() == user_home  # no Documents folder: home
    open_file(widget, "Open", FileKind.DOCUMENTS)
    (user_home / "Documents").mkdir()
    assert default_folder() == user_home / "Documents"
    open_file(widget, "Open", FileKind.DOCUMENTS)
    assert spy.opened_in == [user_home, user_home / "Documents"]
    assert Path.cwd() not in spy.opened_in


def test_the_window_remembers_the_last_folder_of_each_kind_of_file(
    qtbot: QtBot, spy: DialogSpy, user_home: Path, window: MainWindow, tmp_path: Path
) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    picture = photos / "cat.png"
    picture.write_bytes(b"")  # only its folder matters here
    attachments = window.chat_panel.attachments
    spy.answers = [str(picture)]
    attachments.choose_files()  # Attach…: the first time, in home
    qtbot.waitUntil(lambda: not attachments.busy)
    face_box = window.panels["Avatar"].face  # type: ignore[attr-defined]
    face_box.choose()  # a face is an image too: where the last image came from (cancelled)
    window.chat_panel.model_picker.choose_folder()  # a model is not: in home (cancelled)
    assert spy.opened_in == [user_home, photos, user_home]
    spy.answers = [str(tmp_path)]
    window.chat_panel.model_picker.choose_folder()
    window.chat_panel.model_picker.choose_folder()
    assert spy.opened_in[-1] == tmp_path  # the folder chosen last time
    assert window.recent_folders.start(FileKind.IMAGES) == photos
    picture.unlink()
    photos.rmdir()
    assert window.recent_folders.start(FileKind.IMAGES) == user_home  # gone: home again
