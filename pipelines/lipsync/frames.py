"""Decoded video frames kept for random access, in memory up to a budget, then on disk.

Ping-pong looping plays the source backwards, so the frames shown again must stay available
after decoding; a minute of 720p is ~4 GB of pixels. Frames beyond :data:`MEMORY_BUDGET` go
to a raw file in a private temp folder (read back through a memory map, as fast as the
encoder needs) that :meth:`FrameStore.close` removes, a cancel included; one left by a killed
process is removed by the next job (:func:`pipelines.files.temp_folder`).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.core import Closing
from pipelines.files import temp_folder

MEMORY_BUDGET = 768 * 1024 * 1024

Image = npt.NDArray[np.uint8]


class FrameStore(Closing):
    """Frames of one size, appended in order, read back by index."""

    def __init__(self, memory_budget: int = MEMORY_BUDGET, scratch: Path | None = None) -> None:
        self._budget = memory_budget
        self._scratch = scratch  # where frames spill (None: the system's temp folder)
        self._memory: list[Image] = []
        self._shape: tuple[int, ...] | None = None
        self._folder: Path | None = None
        self._file: Any = None
        self._spilled = 0
        self._map: np.memmap[Any, np.dtype[np.uint8]] | None = None

    def __len__(self) -> int:
        return len(self._memory) + self._spilled

    @property
    def shape(self) -> tuple[int, ...]:
        """``(height, width, 3)`` of every frame."""
        if self._shape is None:
            raise IndexError("no frames")
        return self._shape

    @property
    def on_disk(self) -> int:
        """How many frames went to the temp file."""
        return self._spilled

    def append(self, frame: Image) -> None:
        """Keep ``frame`` (same shape as the first one)."""
        if self._shape is None:
            self._shape = frame.shape
        elif frame.shape != self._shape:
            raise ValueError(f"frame of shape {frame.shape}, expected {self._shape}")
        if self._file is None and (len(self._memory) + 1) * frame.nbytes <= self._budget:
            self._memory.append(frame)
            return
        if self._file is None:
            self._folder = temp_folder(self._scratch)
            self._file = (self._folder / "frames.raw").open("wb")
        self._file.write(np.ascontiguousarray(frame).tobytes())
        self._spilled += 1
        self._map = None

    def __getitem__(self, index: int) -> Image:
        if index < len(self._memory):
            return self._memory[index]
        offset = index - len(self._memory)
        if not 0 <= offset < self._spilled:
            raise IndexError(index)
        if self._map is None:
            assert self._file is not None and self._folder is not None
            self._file.flush()
            self._map = np.memmap(
                self._folder / "frames.raw",
                dtype=np.uint8,
                mode="r",
                shape=(self._spilled, *self.shape),
            )
        frame: Image = np.asarray(self._map[offset])
        return frame

    def close(self) -> None:
        """Drop the frames and remove the temp file (safe to call twice)."""
        self._memory = []
        self._map = None
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None
        self._spilled = 0
