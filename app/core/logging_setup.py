"""Application logging: a rotating file in the logs folder, warnings also to stderr.

The file keeps the whole story (tracebacks included); the terminal gets one line per message,
in the app's own words, never a traceback. The log quotes file names, model ids and errors
about the user's documents, so its folder is 0700 and each log file — the current one and the
rotated ``.1`` … ``.5`` — is 0600 (older ones are tightened when logging starts).
"""

from __future__ import annotations

import io
import logging
import logging.handlers
import os
from collections.abc import Callable
from pathlib import Path

from app.core.storage.atomic import PRIVATE_FILE, private_folder, tighten

_FORMAT = "%(asctime)s %(levelname)-7s %(threadName)s %(name)s: %(message)s"

FILE_ONLY = {"file_only": True}
"""``extra=`` for a record the terminal must not show (the caller says it in its own words)."""


def configure_logging(
    log_file: Path | None,
    *,
    verbose: bool = False,
    before_console: Callable[[], None] | None = None,
    console_text: Callable[[str], str] | None = None,
) -> None:
    """Send INFO and above to ``log_file`` (rotated at 2 MB × 5) and warnings to stderr.

    ``log_file`` None logs to stderr only (the app's folders could not be made; the command
    that needs them says why). ``before_console`` runs before a record is written to stderr
    (the CLI ends its progress line there); ``console_text`` makes each line safe for the
    terminal (the CLI's :func:`app.cli.terminal.shown`: messages carry file names and other
    outside text). Safe to call more than once: earlier handlers installed by this function
    are replaced.
    """
    root = logging.getLogger()
    stop_logging()
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    console = _Console(before_console)
    console.setLevel(logging.DEBUG if verbose else logging.WARNING)
    console.addFilter(_ForTheTerminal(own_only=not verbose))
    console.setFormatter(OneLineFormatter(console_text))
    _install(root, console)
    if log_file is None:
        return
    try:
        private_folder(log_file.parent)
        for old in [log_file, *log_file.parent.glob(f"{log_file.name}.*")]:
            tighten(old)  # written by a version that left them 0644
        file_handler = _PrivateRotatingFile(
            log_file, maxBytes=2_000_000, backupCount=5, encoding="utf-8"
        )
    except OSError as error:
        # A read-only log folder must not stop the app; say so where a person can see it.
        logging.getLogger(__name__).warning("cannot write log file %s: %s", log_file, error)
        return
    file_handler.setFormatter(logging.Formatter(_FORMAT))
    _install(root, file_handler)


def stop_logging() -> None:
    """Remove and close the handlers :func:`configure_logging` installed (the CLI's ``main``
    ends with this, so a caller in the same process — a test — keeps no stale handler)."""
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_ov_studio", False):
            root.removeHandler(handler)
            handler.close()


def _install(root: logging.Logger, handler: logging.Handler) -> None:
    handler._ov_studio = True  # type: ignore[attr-defined]
    root.addHandler(handler)


class _PrivateRotatingFile(logging.handlers.RotatingFileHandler):
    """A rotating log whose files are created 0600 (a rotated file is the renamed current one,
    so it keeps that mode)."""

    def _open(self) -> io.TextIOWrapper:
        # Created 0600 first (a file that exists keeps its mode): the handler then appends.
        os.close(os.open(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT, PRIVATE_FILE))
        return super()._open()


class _Console(logging.StreamHandler):  # type: ignore[type-arg]
    """stderr, after ``before`` has run (it puts the terminal's cursor on a fresh line)."""

    def __init__(self, before: Callable[[], None] | None) -> None:
        super().__init__()
        self._before = before

    def emit(self, record: logging.LogRecord) -> None:
        """Write the record, first calling ``before``."""
        if self._before is not None:
            self._before()
        super().emit(record)


class OneLineFormatter(logging.Formatter):
    """``LEVEL: message`` on one line: no traceback, no stack (the log file has them)."""

    def __init__(self, clean: Callable[[str], str] | None = None) -> None:
        super().__init__()
        self._clean = clean

    def format(self, record: logging.LogRecord) -> str:
        """The record's level and message, line breaks turned into spaces (then cleaned)."""
        line = f"{record.levelname}: {' '.join(record.getMessage().splitlines())}"
        return self._clean(line) if self._clean is not None else line


class _ForTheTerminal(logging.Filter):
    """Drops records marked :data:`FILE_ONLY` and, unless verbose, libraries' records: their
    warnings (pypdf on a damaged file …) belong in the log file, the terminal gets the app's
    own messages only."""

    def __init__(self, *, own_only: bool) -> None:
        super().__init__()
        self._own_only = own_only

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "file_only", False):
            return False
        own = record.name.split(".", 1)[0] in {"app", "pipelines", "ui", "__main__"}
        return own or not self._own_only
