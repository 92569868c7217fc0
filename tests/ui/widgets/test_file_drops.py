"""Dropped files: only local ones of the kinds a panel takes (ui.widgets.file_drops)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl

from ui.widgets.file_drops import local_paths


def test_web_links_are_left_out_and_suffixes_filter_files(tmp_path: Path) -> None:
    urls = [
        QUrl.fromLocalFile(str(tmp_path / "face.PNG")),
        QUrl.fromLocalFile(str(tmp_path / "notes.txt")),
        QUrl("https://example.com/face.png"),
        QUrl.fromLocalFile(str(tmp_path / "folder")),
    ]
    assert local_paths(urls) == [tmp_path / "face.PNG", tmp_path / "notes.txt", tmp_path / "folder"]
    assert local_paths(urls, (".png", ".jpg")) == [tmp_path / "face.PNG"]
    assert local_paths([], (".png",)) == []
