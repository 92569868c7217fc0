"""The user's private data lives in 0700 folders; what the user saves elsewhere does not
(issue 12)."""

from __future__ import annotations

import logging
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from logging.handlers import RotatingFileHandler
from pathlib import Path

import pytest

from app.avatar.media import copy_result
from app.chat.storage import Conversation, ConversationStore
from app.core.logging_setup import configure_logging, stop_logging
from app.core.paths import HOME_ENV, AppPaths
from app.core.storage.atomic import private_folder, usual_file_mode


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The usual 022, so folders made with plain mkdir are 0755 as on most desktops."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def _home(tmp_path: Path) -> AppPaths:
    return AppPaths.from_environment({HOME_ENV: str(tmp_path / "home")})


def test_private_folders_of_older_versions_are_tightened_at_start(tmp_path: Path) -> None:
    paths = _home(tmp_path)
    for folder in (paths.conversations_dir, paths.voices_dir, paths.avatar_dir, paths.gallery_dir):
        folder.mkdir(parents=True)  # 0755: as an older version made them
    video = paths.avatar_dir / "avatar-1.mp4"
    video.write_bytes(b"video")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    paths.spoken_dir.symlink_to(outside, target_is_directory=True)
    paths.ensure()
    assert {folder.name: _mode(folder) for folder in paths.private_folders} == {
        "conversations": 0o700,
        "voices": 0o700,
        "spoken": 0o777,  # a symlink is left alone …
        "avatar": 0o700,
        "pictures": 0o700,
    }
    assert _mode(outside) == 0o755  # … and so is what it points to
    assert _mode(video) == 0o644  # the folder keeps others out; its files are not walked


def test_the_apps_folders_are_made_private_and_older_ones_tightened(tmp_path: Path) -> None:
    paths = _home(tmp_path)
    paths.ensure()
    assert [_mode(folder) for folder in paths.app_folders] == [0o700] * 4
    for folder in paths.app_folders:
        folder.chmod(0o755)  # as every earlier version made them
    settings = paths.config / "settings.json"
    settings.write_text("{}")
    paths.ensure()
    assert [_mode(folder) for folder in paths.app_folders] == [0o700] * 4
    assert _mode(paths.config.parent) == 0o755  # never the parent: the user's folder
    assert _mode(settings) == 0o644  # the folder keeps others out; its files are not walked


def test_an_app_folder_that_is_a_link_is_left_as_the_user_made_it(tmp_path: Path) -> None:
    paths = _home(tmp_path)
    elsewhere = tmp_path / "big-disk" / "cache"
    elsewhere.mkdir(parents=True)
    paths.cache.parent.mkdir(parents=True)
    paths.cache.symlink_to(elsewhere, target_is_directory=True)
    paths.ensure()
    assert _mode(elsewhere) == 0o755 and [_mode(f) for f in (paths.config, paths.data)] == [
        0o700,
        0o700,
    ]


def test_log_files_are_private_the_rotated_ones_too(tmp_path: Path) -> None:
    paths = _home(tmp_path)
    paths.logs.mkdir(parents=True)
    older = [paths.log_file, paths.log_file.with_name(f"{paths.log_file.name}.3")]
    for file in older:
        file.write_text("2020-01-01 INFO an older version's line\n")
        file.chmod(0o644)
    configure_logging(paths.log_file)
    try:
        assert _mode(paths.logs) == 0o700 and [_mode(f) for f in older] == [0o600, 0o600]
        paths.log_file.unlink()
        configure_logging(paths.log_file)  # a new file, made by the handler
        assert _mode(paths.log_file) == 0o600
        [handler] = [h for h in logging.getLogger().handlers if isinstance(h, RotatingFileHandler)]
        logging.getLogger("app.test").warning("before the rotation")
        handler.doRollover()
        logging.getLogger("app.test").warning("after the rotation")
    finally:
        stop_logging()
    rotated = paths.log_file.with_name(f"{paths.log_file.name}.1")
    assert "before the rotation" in rotated.read_text()
    assert "after the rotation" in paths.log_file.read_text()
    assert [_mode(rotated), _mode(paths.log_file)] == [0o600, 0o600]


def test_a_file_in_the_place_of_a_private_folder_is_not_changed(tmp_path: Path) -> None:
    paths = _home(tmp_path)
    paths.data.mkdir(parents=True)
    paths.avatar_dir.write_bytes(b"the user's file")
    paths.avatar_dir.chmod(0o644)
    paths.ensure()  # the app still starts: only what writes there fails
    assert _mode(paths.avatar_dir) == 0o644
    with pytest.raises(NotADirectoryError):
        private_folder(paths.avatar_dir)
    assert _mode(paths.avatar_dir) == 0o644


def test_conversations_are_private(tmp_path: Path) -> None:
    paths = _home(tmp_path)
    paths.ensure()
    store = ConversationStore(paths.conversations_dir)
    conversation = Conversation(id=store.new_id(), title="About my health", system_prompt="")
    store.save(conversation)
    assert _mode(paths.conversations_dir) == 0o700
    assert _mode(paths.conversations_dir / f"{conversation.id}.json") == 0o600
    assert _mode(paths.data) == 0o700  # an app folder (the parent of a user's is theirs)
    paths.conversations_dir.chmod(0o755)  # loosened behind the app's back
    store.save(conversation)
    assert _mode(paths.conversations_dir) == 0o700


def test_a_video_saved_elsewhere_keeps_the_usual_mode(tmp_path: Path) -> None:
    gallery = private_folder(tmp_path / "avatar")
    source = gallery / "avatar-1.mp4"
    source.write_bytes(b"video")
    source.chmod(0o600)
    (tmp_path / "shared").mkdir()
    target = copy_result(source, tmp_path / "shared" / "talk.mp4")
    assert _mode(target) == 0o644 == usual_file_mode()  # the user's to share, as "Save as…"
    # It follows the umask the user started the app with (read once, at start-up).
    started_private = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os; os.umask(0o077); from pipelines.files import usual_file_mode; "
            "print(oct(usual_file_mode()))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert started_private.stdout.strip() == "0o600"
