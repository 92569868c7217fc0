"""A streaming callback that plays the user who clicks Stop part-way through an answer."""

from __future__ import annotations

from pipelines.core import CancelToken


class StopAfter:
    """Records the streamed chunks and cancels ``cancel`` once ``count`` of them arrived."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.cancel = CancelToken()
        self.chunks: list[str] = []

    def __call__(self, text: str) -> None:
        self.chunks.append(text)
        if len(self.chunks) == self.count:
            self.cancel.cancel()
