"""Native decoders that print to the console themselves, silenced where a user's file is read.

The app says what is wrong with a file in one sentence; the libraries that found it out must
not say it first, in their own words. Inside OpenCV, libpng ("libpng error: PNG input buffer
is incomplete") and libjpeg ("Corrupt JPEG data: …") write to file descriptor 2 directly, and
so does mpg123 inside libsndfile ("Note: Illegal Audio-MPEG-Header …"): no log level reaches
them. So decoding a user's file runs with descriptor 2 pointed at the null device. OpenCV's
own logger ("[ERROR:0@…] global grfmt_png.cpp …") is set to silent too, when
:func:`decode_image` first loads OpenCV. FFmpeg (inside PyAV) logs nothing unless asked
(``av.logging`` is off by default), and OpenVINO prints nothing on these paths.

Descriptor 2 belongs to the whole process: while one decode runs, another thread's writes to
stderr are lost too. Decodes take milliseconds, and the app's own messages go through the
log file or are written by the CLI's main thread after the job, so that is accepted.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

# Descriptor 2 is process-wide state, so its redirection is counted process-wide: the first
# of overlapping decodes (two threads) silences it, the last one restores it.
_LOCK = threading.Lock()
_depth = 0
_saved: int | None = None
_opencv_quiet = False


@contextlib.contextmanager
def quiet_native_output() -> Iterator[None]:
    """Point file descriptor 2 at the null device for the block (native libraries' prints)."""
    _silence()
    try:
        yield
    finally:
        _restore()


def decode_image(data: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8] | None:
    """OpenCV's ``imdecode`` (BGR) of a file's bytes, None when they are not an image it can
    decode — without OpenCV, libpng or libjpeg printing why."""
    cv2 = _opencv()
    if not data.size:
        return None
    with quiet_native_output():
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return None if decoded is None else np.asarray(decoded, dtype=np.uint8)


def _opencv() -> Any:
    """OpenCV, with its logger silenced (once)."""
    global _opencv_quiet
    import cv2

    if not _opencv_quiet:
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        _opencv_quiet = True
    return cv2


def _silence() -> None:
    global _depth, _saved
    with _LOCK:
        _depth += 1
        if _depth > 1:
            return
        with contextlib.suppress(ValueError, OSError):
            sys.stderr.flush()  # what Python wrote before goes out first
        try:
            saved = os.dup(2)
        except OSError:
            return  # no descriptor 2 (a windowed app on Windows): nothing to silence
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, 2)
        finally:
            os.close(null)
        _saved = saved


def _restore() -> None:
    global _depth, _saved
    with _LOCK:
        _depth -= 1
        if _depth > 0 or _saved is None:
            return
        os.dup2(_saved, 2)
        os.close(_saved)
        _saved = None
