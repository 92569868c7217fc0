"""Writers never touch the process-wide umask: a file another thread creates meanwhile keeps
the user's mode. (They once set it from worker threads to learn it: a file created at that
moment got 0666.)"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import numpy as np
import pytest

from pipelines.files import replacing, usual_file_mode
from pipelines.lipsync.mp4 import Mp4Writer
from pipelines.voice.audio import write_wav_atomic


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
