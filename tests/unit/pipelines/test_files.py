"""Results are written through a temp file that a killed process cannot leave in the user's
folder (or that the next job removes): pipelines/files.py."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipelines.files import TEMP_PREFIX, remove_stale_temp_files, replacing, temp_folder

ROOT = Path(__file__).resolve().parents[3]
OTHER_FILE_SYSTEM = Path("/dev/shm")  # tmpfs on Linux: not the file system of tmp_path


def test_a_result_is_written_in_the_scratch_folder_and_renamed_into_place(tmp_path: Path) -> None:
    target = tmp_path / "out" / "video.mp4"
    target.parent.mkdir()
    scratch = tmp_path / "scratch"
    with replacing(target, scratch) as temp:
        assert temp.parent == scratch and temp.name.startswith(f"{TEMP_PREFIX}{os.getpid()}-")
        assert temp.suffix == ".mp4"
        temp.write_bytes(b"video")
        assert list(target.parent.iterdir()) == []  # nothing in the user's folder meanwhile
    assert target.read_bytes() == b"video" and list(scratch.iterdir()) == []
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~mask  # not mkstemp's 0600


def test_a_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path: Path) -> None:
    target = tmp_path / "video.mp4"
    target.write_bytes(b"old")
    scratch = tmp_path / "scratch"
    with pytest.raises(RuntimeError), replacing(target, scratch) as temp:
        temp.write_bytes(b"half")
        raise RuntimeError("encoder failed")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scratch", "video.mp4"]
    assert list(scratch.iterdir()) == []


@pytest.fixture
def other_file_system() -> Iterator[Path]:
    if not OTHER_FILE_SYSTEM.is_dir():
        pytest.skip("no second file system to write to")
    folder = Path(tempfile.mkdtemp(dir=OTHER_FILE_SYSTEM))
    yield folder
    for entry in folder.iterdir():
        entry.unlink()
    folder.rmdir()


def test_a_scratch_folder_on_another_file_system_is_not_used(
    tmp_path: Path, other_file_system: Path
) -> None:
    if other_file_system.stat().st_dev == tmp_path.stat().st_dev:
        pytest.skip(f"{OTHER_FILE_SYSTEM} is on the same file system as {tmp_path}")
    target = tmp_path / "video.mp4"
    with replacing(target, other_file_system) as temp:
        # A rename across file systems is a copy: the temp file goes beside the target.
        assert temp.parent == tmp_path and temp.name.startswith(f"{TEMP_PREFIX}{os.getpid()}-")
        temp.write_bytes(b"video")
    assert target.read_bytes() == b"video" and list(other_file_system.iterdir()) == []


_KILLED_WRITER = """
import sys
from pathlib import Path
from pipelines.files import replacing, temp_folder
scratch = Path(sys.argv[2]) if len(sys.argv) > 2 else None
with replacing(Path(sys.argv[1]), scratch) as temp:
    temp.write_bytes(b"half a video")
    spill = temp_folder(scratch)
    (spill / "frames.raw").write_bytes(b"frames")
    print(temp, spill, flush=True)
    sys.stdin.read()  # until killed
"""


def _killed_writer(*arguments: Path) -> list[Path]:
    """Paths a writer had in use when it was killed with SIGKILL (nothing cleaned up)."""
    writer = subprocess.Popen(
        [sys.executable, "-c", _KILLED_WRITER, *map(str, arguments)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert writer.stdout is not None and writer.stdin is not None
    left = [Path(p) for p in writer.stdout.readline().split()]
    writer.send_signal(signal.SIGKILL)
    writer.wait(30)
    writer.stdin.close()
    writer.stdout.close()
    assert all(p.exists() for p in left) and len(left) == 2
    return left


def test_what_a_killed_writer_leaves_beside_a_result_goes_at_the_next_write(
    tmp_path: Path,
) -> None:
    target = tmp_path / "video.mp4"
    temp, spill = _killed_writer(target)
    assert temp.parent == tmp_path
    mine = tmp_path / f"{TEMP_PREFIX}{os.getpid()}-live.mp4"
    mine.write_bytes(b"a live process's")  # not stale: kept
    with replacing(target) as fresh:
        fresh.write_bytes(b"video")
    assert not temp.exists() and mine.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([mine.name, "video.mp4"])
    remove_stale_temp_files(spill.parent)  # the system's temp folder: a spill of a dead pid
    assert not spill.exists()


def test_a_killed_writer_leaves_nothing_in_the_users_folder_with_a_scratch_folder(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    scratch = tmp_path / "scratch"
    temp, spill = _killed_writer(out / "video.mp4", scratch)
    assert list(out.iterdir()) == []
    assert {temp.parent, spill.parent} == {scratch}
    temp_folder(scratch).rmdir()  # the next job's first use cleans the scratch folder
    assert list(scratch.iterdir()) == []
