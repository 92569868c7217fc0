"""A followed folder against the stored states: new and changed files by mtime and size (no
file read), documents whose file is gone, a walk stopped between folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.knowledge.folder_scan import scan_folder
from pipelines.core import CancelToken
from pipelines.rag.followed_store import FileState


def _state(path: Path) -> FileState:
    found = path.stat()
    return FileState("hash", found.st_mtime, found.st_size)


def test_only_new_and_changed_files_are_listed_and_gone_ones_named(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    (root / "sub").mkdir(parents=True)
    (root / ".git").mkdir()
    same, touched, new = root / "same.txt", root / "sub" / "touched.md", root / "new.txt"
    for path in (same, touched, new, root / ".git" / "config.txt", root / "~$x.docx"):
        path.write_text("text", "utf-8")
    (root / "link.txt").symlink_to(same)
    states = {str(same): _state(same), str(touched): _state(touched)}
    states[str(root / "deleted.txt")] = FileState("hash", 1.0, 4)
    os.utime(touched, (1.0, 1.0))
    result = scan_folder(root, states, [], CancelToken())
    assert sorted(result.changed) == sorted([touched, new])
    assert result.gone == [str(root / "deleted.txt")]
    assert result.complete and result.seen == 3


def test_a_stopped_scan_says_so_and_names_nothing_gone(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("text", "utf-8")
    cancel = CancelToken()
    cancel.cancel()
    result = scan_folder(tmp_path, {str(tmp_path / "b.txt"): FileState("h", 1.0, 1)}, [], cancel)
    assert not result.complete and result.gone == []


def test_a_missing_folder_raises_for_the_caller_to_say_why(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        scan_folder(tmp_path / "gone", {}, [], CancelToken())
