"""Which folders may be followed (one sentence for each refusal) and which files in them are."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.knowledge.follow_rules import checked_folder, is_followed_file, is_followed_name


@pytest.mark.parametrize(
    ("name", "followed"),
    [
        ("report.docx", True),
        ("notes.md", True),
        ("Notes.TXT", True),
        ("~$report.docx", False),  # Word's owner file while it is open
        (".~lock.report.docx#", False),  # LibreOffice's lock
        (".#notes.md", False),  # Emacs's lock
        ("notes.md~", False),  # a backup copy
        ("notes.md.swp", False),  # vim's swap file
        (".notes.md", False),  # hidden
        ("download.pdf.part", False),
        ("photo.raw", False),  # not a supported type
    ],
)
def test_supported_visible_files_are_followed_and_editor_leftovers_are_not(
    name: str, followed: bool
) -> None:
    assert is_followed_name(name) is followed


def test_files_in_hidden_or_excluded_folders_are_not_followed(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    assert is_followed_file(root / "sub" / "a.txt", root)
    assert not is_followed_file(root / ".git" / "a.txt", root)
    assert not is_followed_file(root / "app" / "logs" / "a.log", root, [root / "app"])
    assert not is_followed_file(tmp_path / "elsewhere.txt", root)


def test_a_folder_that_cannot_be_followed_is_refused_in_one_sentence(tmp_path: Path) -> None:
    app_home = tmp_path / "home"
    (app_home / "data").mkdir(parents=True)
    file = tmp_path / "a.txt"
    file.write_text("text", "utf-8")
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    cases = {
        tmp_path / "missing": "does not exist",
        file: "is a file",
        loop: "loop of links",
        app_home / "data": "app's own folders",
        app_home: "app's own folders",
    }
    for folder, sentence in cases.items():
        with pytest.raises(UserError, match=sentence) as refused:
            checked_folder(folder, [app_home])
        assert refused.value.field == "folder" and "\n" not in str(refused.value)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_folder_is_refused(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0)
    with pytest.raises(UserError, match="permission denied"):
        checked_folder(locked, [])


def test_a_followable_folder_comes_back_resolved(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    assert checked_folder(link, [tmp_path / "home"]) == real.resolve()
