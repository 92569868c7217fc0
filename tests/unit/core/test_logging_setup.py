"""The console's log lines: a warning in one line, without its traceback."""

from __future__ import annotations

import logging

from app.core.logging_setup import OneLineFormatter


def test_the_console_says_a_warning_in_one_line_without_its_traceback() -> None:
    try:
        raise ValueError("deep\ninside")
    except ValueError as error:
        record = logging.LogRecord(
            "app.x",
            logging.WARNING,
            __file__,
            1,
            "could not %s",
            ("go\non",),
            (ValueError, error, None),
        )
    assert OneLineFormatter().format(record) == "WARNING: could not go on"
