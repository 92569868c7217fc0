"""The terminal side of a long CLI job: its progress line on stderr, and Ctrl+C.

One self-rewriting progress line, ended before anything else is printed there.
A progress line is rewritten in place with ``\\r`` and has no newline while its job runs.
Whatever is printed next — the result, an error, "stopped" after Ctrl+C — must start on a
fresh line, or it is glued to the progress text ("…about 0 s lefterror: stopped"). So a line
is ended when its ``with`` block ends, however it ends; and the CLI's error handler calls
:func:`end_open_line` before it writes, for a line whose command did not use ``with`` or for an
exception that left it open.

Ctrl+C, the same for every job (:func:`interruptible`): the first one asks the job to stop and
says so at once (a job may need a moment: a conversion kills its process, an ingest finishes
its document); the job then ends cleanly, keeping or removing what it made as its command says,
and the CLI exits 1. A second Ctrl+C quits at once (exit 130).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import threading
import weakref
from collections.abc import Iterator
from types import FrameType
from typing import TextIO

from app.cli.exits import Stopped
from app.cli.terminal import shown
from pipelines.core import Cancelled, CancelToken, Closing

WIDTH = 120
"""Longest progress text (a wrapped line could not be rewritten in place)."""
STOPPING = "stopping… (press Ctrl+C again to quit at once)"
"""Said on the first Ctrl+C, while the job winds down."""

# Which line is open on which stream. Where a stream's cursor is, is state of the stream
# itself (one terminal per process), so it is kept beside it rather than passed around.
_OPEN: weakref.WeakKeyDictionary[TextIO, ProgressLine] = weakref.WeakKeyDictionary()


class ProgressLine(Closing):
    """A progress line on ``stream`` (default: stderr when constructed)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream if stream is not None else sys.stderr
        self._shown = 0  # characters on the line now (0: no line open)
        self._silenced = False  # the job was asked to stop: its progress is no longer news

    def show(self, text: str) -> None:
        """Replace the line's text (one line, cut at :data:`WIDTH` characters)."""
        if self._silenced:
            return
        text = shown(" ".join(text.split()))[:WIDTH]  # file names: outside text
        # Spaces blank out the end of a longer text shown before.
        padding = " " * max(self._shown - len(text), 0)
        with _ctrl_c_held():  # the Ctrl+C handler sees the line before or after, never mid-way
            if self._silenced:
                return
            self._shown = max(len(text), 1)
            _OPEN[self._stream] = self
            self._stream.write(f"\r{text}{padding}")
            self._stream.flush()

    def end(self) -> None:
        """End the line with a newline, if one is open: the next text starts on its own line."""
        if self._shown:
            self._stream.write("\n")
            self._stream.flush()
            self._shown = 0
        if _OPEN.get(self._stream) is self:
            del _OPEN[self._stream]

    def silence(self) -> bool:
        """Show nothing more (the job was asked to stop). True when a line was open: the
        caller ends it with the newline it writes next."""
        self._silenced = True
        was_open, self._shown = self._shown > 0, 0
        return was_open

    def close(self) -> None:
        """End the line (a ``with`` block does it however the block ends)."""
        self.end()


def end_open_line(stream: TextIO) -> None:
    """End the progress line open on ``stream``, if any (before printing a message)."""
    line = _OPEN.get(stream)
    if line is not None:
        line.end()


def forget_open_line(stream: TextIO) -> None:
    """Forget a line its command ended with a newline of its own (no second newline later)."""
    _OPEN.pop(stream, None)


@contextlib.contextmanager
def interruptible(stopped: str, stream: TextIO | None = None) -> Iterator[CancelToken]:
    """Run a job's block with Ctrl+C wired to the token it yields.

    The first Ctrl+C cancels the token and says :data:`STOPPING` on ``stream`` (default
    stderr); a second raises KeyboardInterrupt. A job that ends by raising ``Cancelled``
    becomes :class:`Stopped` with the message ``stopped`` (what was kept or removed). A job
    that returns its partial result instead (chat, ingest) is checked by its command. The
    previous SIGINT handler is back when the block ends.
    """
    cancel = CancelToken()
    previous = signal.signal(signal.SIGINT, cancel_on_interrupt(cancel, stream))
    try:
        yield cancel
    except Cancelled:
        raise Stopped(stopped) from None
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold SIGINT back on the main thread for a moment: its handler runs when the block ends.

    Python runs a signal handler between any two bytecodes of the main thread; one that ran
    between writing a progress text and noting it would end the line twice (a blank line).
    """
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal,
        "pthread_sigmask",  # Windows: no signal masks
    ):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def cancel_on_interrupt(cancel: CancelToken, stream: TextIO | None = None) -> signal._HANDLER:
    """A SIGINT handler: the first Ctrl+C cancels ``cancel`` and says :data:`STOPPING` on
    ``stream`` (default: stderr when called), a second raises KeyboardInterrupt (the CLI then
    exits 130)."""

    def handler(signum: int, frame: FrameType | None) -> None:
        if cancel.cancelled:  # a second Ctrl+C stops the program
            raise KeyboardInterrupt
        cancel.cancel()
        _say_stopping(stream if stream is not None else sys.stderr)

    return handler


def _say_stopping(stream: TextIO) -> None:
    """End the open progress line, silence it, and say :data:`STOPPING` on its own line."""
    line = _OPEN.pop(stream, None)
    text = STOPPING + "\n"
    if line is not None and line.silence():
        text = "\n" + text
    try:
        fd = stream.fileno()
    except (OSError, ValueError, io.UnsupportedOperation):
        stream.write(text)  # not a file (a test's StringIO)
        stream.flush()
        return
    # Straight to the file descriptor: this runs inside a signal handler, which may interrupt
    # the stream's own write, and a buffered stream refuses a reentrant call.
    os.write(fd, text.encode(stream.encoding or "utf-8", "replace"))
