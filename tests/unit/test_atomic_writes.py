"""The one atomic writer (``pipelines.files``): modes, owner, nothing left behind."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.storage.atomic import write_bytes_atomic as app_write_bytes
from pipelines.files import (
    PRIVATE_FILE,
    TEMP_PREFIX,
    copy_atomic,
    replacing,
    staged_folder,
    usual_file_mode,
    write_bytes_atomic,
    write_text_atomic,
)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask of 0: a file made with the default mode would be 0666, readable by all."""
    old = os.umask(0)
    yield
    os.umask(old)


def test_the_app_writes_through_the_pipelines_writer() -> None:
    assert app_write_bytes is write_bytes_atomic


@pytest.mark.usefixtures("open_umask")
def test_a_new_file_is_private_whatever_the_umask(tmp_path: Path) -> None:
    target = tmp_path / "new" / "settings.json"  # its folder is made too
    write_text_atomic(target, "{}\n")
    assert target.read_text("utf-8") == "{}\n" and _mode(target) == PRIVATE_FILE
    write_text_atomic(target, "{“ä”: 1}")  # replaced, still private, UTF-8
    assert target.read_bytes() == "{“ä”: 1}".encode() and _mode(target) == PRIVATE_FILE
    assert [p.name for p in target.parent.iterdir()] == ["settings.json"]


@pytest.mark.usefixtures("open_umask")
def test_an_asked_mode_is_given_exactly(tmp_path: Path) -> None:
    target = tmp_path / "pg_hba.conf"
    write_bytes_atomic(target, b"local all all trust\n", mode=0o640)
    assert _mode(target) == 0o640


@pytest.mark.skipif(os.name == "nt" or os.geteuid() != 0, reason="only root gives files away")
def test_an_owner_is_given_where_allowed(tmp_path: Path) -> None:
    target = tmp_path / "pg_hba.conf"
    write_text_atomic(target, "host all all 0.0.0.0/0 scram-sha-256\n", owner=(65534, 65534))
    assert (target.stat().st_uid, target.stat().st_gid) == (65534, 65534)


def test_a_failed_atomic_write_leaves_the_old_file_and_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "list.json"
    write_text_atomic(target, "old")
    with pytest.raises(TypeError):
        write_bytes_atomic(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_text("utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["list.json"]


def test_a_half_written_file_is_never_listed_as_a_result(tmp_path: Path) -> None:
    with replacing(tmp_path / "a.json", suffix=".tmp") as temp:
        temp.write_text("{", "utf-8")
        assert list(tmp_path.glob("*.json")) == []


def test_temp_files_of_a_killed_writer_are_removed_by_the_next_write(tmp_path: Path) -> None:
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    left = tmp_path / f"{TEMP_PREFIX}{gone.stdout.strip()}-abc.tmp"
    left.write_text("half a file")
    write_text_atomic(tmp_path / "conversation.json", "{}")
    assert [p.name for p in tmp_path.iterdir()] == ["conversation.json"]


@pytest.mark.usefixtures("open_umask")
def test_a_copy_is_whole_and_takes_the_asked_mode(tmp_path: Path) -> None:
    source = tmp_path / "clip.wav"
    source.write_bytes(os.urandom(3 << 20))  # more than one copy buffer
    private, shared = tmp_path / "voice" / "reference.wav", tmp_path / "shared.wav"
    private.parent.mkdir()
    copy_atomic(source, private, mode=PRIVATE_FILE)
    copy_atomic(source, shared)
    assert private.read_bytes() == shared.read_bytes() == source.read_bytes()
    # The user's usual mode: from the umask read at start-up, not today's 0.
    assert (_mode(private), _mode(shared)) == (PRIVATE_FILE, usual_file_mode())
    with pytest.raises(FileNotFoundError):
        copy_atomic(tmp_path / "gone.wav", shared)
    assert shared.read_bytes() == source.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clip.wav", "shared.wav", "voice"]


def test_a_staged_folder_appears_whole_or_not_at_all(tmp_path: Path) -> None:
    voice = tmp_path / "voices" / "abc"
    with pytest.raises(OSError), staged_folder(voice) as stage:
        write_text_atomic(stage / "meta.json", "{}")
        raise OSError(28, "No space left on device")
    assert list(voice.parent.iterdir()) == []  # neither the voice nor its stage
    with staged_folder(voice) as stage:
        assert stage.parent == voice.parent and stage.name.startswith(TEMP_PREFIX)
        write_text_atomic(stage / "meta.json", "{}")
        assert not voice.exists()
    assert [p.name for p in voice.parent.iterdir()] == ["abc"]
    assert _mode(voice) == 0o700 and (voice / "meta.json").read_text("utf-8") == "{}"
