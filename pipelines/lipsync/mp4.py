"""Writing the result: H.264 + AAC in an mp4, never half-written.

OpenCV's pip wheels cannot write H.264, so frames and the speech are encoded with PyAV. The
file is written to a temp file (:func:`pipelines.files.replacing`: in the app's scratch folder
when it shares the target's file system, else hidden beside the target) and renamed onto the
target only when complete; on failure or cancel the temp file is removed, so no player,
gallery or user ever sees a broken video, and a killed run leaves none in the user's folder.
"""

from __future__ import annotations

import contextlib
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.files import check_output_file

AUDIO_RATE = 16_000
AAC_FRAME = 1024
MUXED_RATES = frozenset({8_000, 11_025, 12_000, 16_000, 22_050, 24_000, 32_000, 44_100, 48_000})
"""Sample rates the speech is muxed at as it comes (AAC's own): a voice's 24 kHz keeps its
top octave in the clip; any other rate is muxed at the model's 16 kHz."""

Image = npt.NDArray[np.uint8]


def check_output(path: Path) -> Path:
    """``path`` if an mp4 can be written there.

    Raises:
        InvalidInputError: not .mp4, a folder, in a missing folder, or in a folder that is not
            writable (``field="output"``).
    """
    return check_output_file(path, ".mp4", "Videos")


class Mp4Writer:
    """BGR frames of one size and mono speech (at ``audio_rate``, one of :data:`MUXED_RATES`)
    into an H.264 + AAC mp4."""

    def __init__(
        self, path: Path, fps: float, width: int, height: int, audio_rate: int = AUDIO_RATE
    ) -> None:
        import av

        self._rate = audio_rate
        self._container: Any = av.open(str(path), mode="w", format="mp4")
        try:
            self._video: Any = self._container.add_stream(
                "libx264", rate=Fraction(fps).limit_denominator(1001)
            )
            # yuv420p (what every player plays) needs even sizes: odd ones lose a pixel row.
            self._size = (width - width % 2, height - height % 2)
            self._video.width, self._video.height = self._size
            self._video.pix_fmt = "yuv420p"
            self._video.options = {"crf": "18", "preset": "veryfast"}
            self._audio: Any = self._container.add_stream("aac", rate=audio_rate, layout="mono")
        except BaseException:
            self.abort()
            raise

    def add_frame(self, image: Image) -> None:
        """Encode one frame."""
        import av

        width, height = self._size
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image[:height, :width]), "bgr24")
        for packet in self._video.encode(frame):
            self._container.mux(packet)

    def finish(self, samples: npt.NDArray[np.float32]) -> None:
        """Encode the speech, flush both streams and close the file."""
        import av

        for packet in self._video.encode(None):
            self._container.mux(packet)
        for start in range(0, len(samples), AAC_FRAME):
            piece = np.ascontiguousarray(samples[start : start + AAC_FRAME], dtype=np.float32)
            frame = av.AudioFrame.from_ndarray(piece[np.newaxis], format="fltp", layout="mono")
            frame.sample_rate = self._rate
            frame.pts = start
            for packet in self._audio.encode(frame):
                self._container.mux(packet)
        for packet in self._audio.encode(None):
            self._container.mux(packet)
        self._container.close()

    def abort(self) -> None:
        """Close without finishing (the caller removes the file)."""
        # Closing a broken container must not hide the error that broke it.
        with contextlib.suppress(Exception):
            self._container.close()
