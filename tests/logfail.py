"""Fail a test that logs an unexpected ERROR (after qutebrowser's ``tests/helpers/logfail.py``).

An ERROR record is how the app reports what went wrong where nobody catches it: a worker's
exception in the UI, a failed clean-up, a file that could not be written in the background.
A test that passes while one is logged hides a bug, so every ERROR (or CRITICAL) record logged
during a test's setup, call or teardown fails it — from any thread.

A test that means to provoke one says so:

- ``@pytest.mark.logs_error("regex")``: ERROR records whose message, or the exception logged
  with it as ``Type: text``, matches ``regex`` (``re.search``) are expected; others still fail
  the test. Without a pattern every ERROR record is expected.
- or it asks for ``caplog`` and sets its level to ERROR or below (``caplog.set_level`` or
  ``caplog.at_level``): it reads the records itself.

Registered by ``tests/conftest.py``; a test of the guard itself is
``tests/unit/tests/test_logfail.py``.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Generator

import pytest

MARKER = "logs_error"


class _Collector(logging.Handler):
    """Keeps every unexpected ERROR-or-worse record, from whatever thread logged it.

    Whether a record is expected is decided when it is logged: ``caplog.at_level`` sets the
    level only for the ``with`` block.
    """

    def __init__(self, item: pytest.Item) -> None:
        super().__init__(level=logging.ERROR)
        self.item = item
        self.records: list[logging.LogRecord] = []
        self._records_lock = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        if _expected(self.item, record):
            return
        with self._records_lock:
            self.records.append(record)

    def take(self) -> list[logging.LogRecord]:
        with self._records_lock:
            taken, self.records = self.records, []
        return taken


class LogFailPlugin:
    """The pytest plugin: one collector on the root logger around each test phase."""

    @pytest.hookimpl
    def pytest_configure(self, config: pytest.Config) -> None:
        config.addinivalue_line(
            "markers",
            f"{MARKER}(pattern=None): the test expects ERROR records (matching the regex "
            "pattern, or any without one); others still fail it",
        )

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, object, object]:
        return (yield from _guarded(item, "setup"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, object, object]:
        return (yield from _guarded(item, "call"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> Generator[None, object, object]:
        return (yield from _guarded(item, "teardown"))


def _guarded(item: pytest.Item, phase: str) -> Generator[None, object, object]:
    collector = _Collector(item)
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        result = yield  # an exception of the phase itself propagates untouched
    finally:
        root.removeHandler(collector)
    unexpected = collector.take()
    if unexpected:
        lines = "\n".join(_describe(record) for record in unexpected)
        pytest.fail(f"unexpected ERROR logged during {phase}:\n{lines}", pytrace=False)
    return result


def _expected(item: pytest.Item, record: logging.LogRecord) -> bool:
    text = record.getMessage()
    if record.exc_info and record.exc_info[1] is not None:
        text += f"\n{type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
    for marker in item.iter_markers(MARKER):
        pattern = marker.args[0] if marker.args else marker.kwargs.get("pattern")
        if pattern is None or re.search(pattern, text):
            return True
    return _caplog_level(item) <= record.levelno


def _caplog_level(item: pytest.Item) -> int:
    """The level the test's ``caplog`` was set to, or above CRITICAL when it set none.

    ``caplog.set_level``/``at_level`` set the level of the handler that ``caplog.records``
    reads; its default (NOTSET) means the test did not say it looks at ERROR records.
    """
    funcargs = getattr(item, "funcargs", {})
    caplog = funcargs.get("caplog")
    if not isinstance(caplog, pytest.LogCaptureFixture) or caplog.handler.level == logging.NOTSET:
        return logging.CRITICAL + 1
    return caplog.handler.level


def _describe(record: logging.LogRecord) -> str:
    where = f"{record.name} ({record.pathname}:{record.lineno}, thread {record.threadName})"
    text = f"  {record.levelname} {where}: {record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        text += f"\n    {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
    return text
