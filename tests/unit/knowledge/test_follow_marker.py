"""The marker that tells the window's start whether any folder is followed: what it says for
which database, and a damaged, hostile or unwritable file (never fatal, never believed)."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from app.knowledge.follow_marker import EMBEDDED, FollowMarker, database_key

SHARED = "postgresql://ana@db.example/notes"


def test_it_says_what_was_recorded_for_that_database_only(tmp_path: Path) -> None:
    marker = FollowMarker(tmp_path / "followed_folders.json")
    assert marker.says(EMBEDDED) is None  # never written: unknown
    marker.record(EMBEDDED, True)
    assert marker.says(EMBEDDED) is True
    assert marker.says(database_key(SHARED)) is None  # another database: unknown
    marker.record(EMBEDDED, False)
    assert marker.says(EMBEDDED) is False
    assert FollowMarker(tmp_path / "followed_folders.json").says(EMBEDDED) is False  # a restart


def test_a_shared_servers_connection_string_is_not_copied(tmp_path: Path) -> None:
    path = tmp_path / "followed_folders.json"
    FollowMarker(path).record(database_key(SHARED), True)
    text = path.read_text("utf-8")
    assert "db.example" not in text and "ana" not in text
    assert database_key(None) == database_key("") == EMBEDDED
    assert database_key(SHARED) != database_key(SHARED + "2")


@pytest.mark.parametrize(
    "content",
    [
        b'{"database": "embedded", "follow',  # cut by a crash
        b"[1, 2]",
        json.dumps({"database": "embedded", "following": "maybe"}).encode(),
        json.dumps({"database": "x" * 5000, "following": True}).encode(),
        b"\xff\xfe not text",
    ],
)
def test_a_damaged_or_hostile_marker_is_unknown_and_written_over(
    tmp_path: Path, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "followed_folders.json"
    path.write_bytes(content)
    marker = FollowMarker(path)
    with caplog.at_level(logging.WARNING):
        assert marker.says(EMBEDDED) is None
    assert "followed_folders.json" in caplog.text
    marker.record(EMBEDDED, True)
    assert marker.says(EMBEDDED) is True


def test_an_unwritable_folder_is_logged_not_raised(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    if os.geteuid() == 0:
        folder = tmp_path / "a-file"
        folder.write_text("not a folder")  # even root cannot write inside a file
    else:
        folder = tmp_path / "read-only"
        folder.mkdir(mode=0o500)
    marker = FollowMarker(folder / "followed_folders.json")
    with caplog.at_level(logging.WARNING):
        marker.record(EMBEDDED, True)
    assert "not saved" in caplog.text
    assert marker.says(EMBEDDED) is None
