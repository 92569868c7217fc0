"""The one atomic writer (``pipelines.files``): modes, owner, nothing left behind; results written
through a temp file that a killed process cannot leave in the user's folder (or that the next
job removes); and no writer touching the process-wide umask."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from pipelines.files import (
    PRIVATE_FILE,
    TEMP_PREFIX,
    copy_atomic,
    remove_stale_temp_files,
    replacing,
    staged_folder,
    temp_folder,
    usual_file_mode,
    write_bytes_atomic,
    write_text_atomic,
)
from pipelines.lipsync.mp4 import Mp4Writer
from pipelines.voice.audio import write_wav_atomic

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


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask of 0: a file made with the default mode would be 0666, readable by all."""
    old = os.umask(0)
    yield
    os.umask(old)


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


def test_writers_never_set_the_umask_while_another_thread_creates_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    changed: list[str] = []
    real_umask = os.umask

    def recording_umask(mask: int) -> int:
        changed.append(threading.current_thread().name)
        return real_umask(mask)

    monkeypatch.setattr(os, "umask", recording_umask)
    stop = threading.Event()
    modes: list[int] = []

    def create_files() -> None:
        number = 0
        while not stop.is_set():
            path = tmp_path / "other" / f"{number}.txt"
            path.write_bytes(b"x")  # mode from the umask, as any library's file
            modes.append(stat.S_IMODE(path.stat().st_mode))
            number += 1

    (tmp_path / "other").mkdir()
    creator = threading.Thread(target=create_files, name="creator")
    creator.start()
    try:
        for index in range(20):
            write_wav_atomic(tmp_path / f"speech-{index}.wav", np.zeros(1600, np.float32))
            with replacing(tmp_path / f"video-{index}.mp4") as temp:
                writer = Mp4Writer(temp, 25.0, 32, 32)
                writer.add_frame(np.zeros((32, 32, 3), np.uint8))
                writer.finish(np.zeros(1600, np.float32))
    finally:
        stop.set()
        creator.join()
    assert changed == []  # read once at import, never set again
    assert modes and set(modes) == {usual_file_mode()}
    assert stat.S_IMODE((tmp_path / "speech-0.wav").stat().st_mode) == usual_file_mode()
    assert stat.S_IMODE((tmp_path / "video-0.mp4").stat().st_mode) == usual_file_mode()
