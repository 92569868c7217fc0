"""Application logging: a rotating file in the logs folder, warnings also to stderr."""

from __future__ import annotations

import logging
import logging.handlers
from pathlib import Path

_FORMAT = "%(asctime)s %(levelname)-7s %(threadName)s %(name)s: %(message)s"


def configure_logging(log_file: Path, *, verbose: bool = False) -> None:
    """Send INFO and above to ``log_file`` (rotated at 2 MB × 5) and warnings to stderr.

    Safe to call more than once: earlier handlers installed by this function are replaced.
    """
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_ov_studio", False):
            root.removeHandler(handler)
            handler.close()
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    try:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        file_handler: logging.Handler = logging.handlers.RotatingFileHandler(
            log_file, maxBytes=2_000_000, backupCount=5, encoding="utf-8"
        )
        file_handler.setFormatter(logging.Formatter(_FORMAT))
        file_handler._ov_studio = True  # type: ignore[attr-defined]
        root.addHandler(file_handler)
    except OSError as error:
        # A read-only log folder must not stop the app; say so where a person can see it.
        logging.getLogger(__name__).warning("cannot write log file %s: %s", log_file, error)
    console = logging.StreamHandler()
    console.setLevel(logging.DEBUG if verbose else logging.WARNING)
    if not verbose:
        # Libraries' warnings (pypdf on a damaged file …) belong in the log file; the
        # terminal gets the app's own messages only.
        console.addFilter(_OwnLoggers())
    console.setFormatter(logging.Formatter("%(levelname)s: %(message)s"))
    console._ov_studio = True  # type: ignore[attr-defined]
    root.addHandler(console)


class _OwnLoggers(logging.Filter):
    """Passes records from the app's own packages."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.name.split(".", 1)[0] in {"app", "pipelines", "ui", "__main__"}
