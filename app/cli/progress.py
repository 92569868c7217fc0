"""The terminal side of a long CLI job: its progress line on stderr, and Ctrl+C.

One self-rewriting progress line, ended before anything else is printed there.
A progress line is rewritten in place with ``\\r`` and has no newline while its job runs.
Whatever is printed next — the result, an error, "stopped" after Ctrl+C — must start on a
fresh line, or it is glued to the progress text ("…about 0 s lefterror: stopped"). So a line
is ended when its ``with`` block ends, however it ends; and the CLI's error handler calls
:func:`end_open_line` before it writes, for a line whose command did not use ``with`` or for an
exception that left it open.

The first Ctrl+C asks the job to stop (it ends cleanly, keeping or removing what it made as
its command says); a second one stops the program at once.
"""

from __future__ import annotations

import signal
import sys
import weakref
from types import FrameType, TracebackType
from typing import TextIO

from pipelines.core import CancelToken

WIDTH = 120
"""Longest progress text (a wrapped line could not be rewritten in place)."""

# Which line is open on which stream. Where a stream's cursor is, is state of the stream
# itself (one terminal per process), so it is kept beside it rather than passed around.
_OPEN: weakref.WeakKeyDictionary[TextIO, ProgressLine] = weakref.WeakKeyDictionary()


class ProgressLine:
    """A progress line on ``stream`` (default: stderr when constructed)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._shown = 0  # characters on the line now (0: no line open)

    def show(self, text: str) -> None:
        """Replace the line's text (one line, cut at :data:`WIDTH` characters)."""
        text = " ".join(text.split())[:WIDTH]
        # Spaces blank out the end of a longer text shown before.
        self._stream.write(f"\r{text}{' ' * max(self._shown - len(text), 0)}")
        self._stream.flush()
        self._shown = max(len(text), 1)
        _OPEN[self._stream] = self

    def end(self) -> None:
        """End the line with a newline, if one is open: the next text starts on its own line."""
        if self._shown:
            self._stream.write("\n")
            self._stream.flush()
            self._shown = 0
        if _OPEN.get(self._stream) is self:
            del _OPEN[self._stream]

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.end()


def end_open_line(stream: TextIO) -> None:
    """End the progress line open on ``stream``, if any (before printing a message)."""
    line = _OPEN.get(stream)
    if line is not None:
        line.end()


def forget_open_line(stream: TextIO) -> None:
    """Forget a line its command ended with a newline of its own (no second newline later)."""
    _OPEN.pop(stream, None)


def cancel_on_interrupt(cancel: CancelToken) -> signal._HANDLER:
    """A SIGINT handler: the first Ctrl+C cancels ``cancel``, a second raises
    KeyboardInterrupt (the CLI then exits 130)."""

    def handler(signum: int, frame: FrameType | None) -> None:
        if cancel.cancelled:  # a second Ctrl+C stops the program
            raise KeyboardInterrupt
        cancel.cancel()

    return handler
