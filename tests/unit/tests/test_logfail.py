"""The guard that fails a test on an unexpected ERROR log (tests/logfail.py), run on its own.

The inner sessions run in this process, so their ERROR records reach this test's guard too:
this test declares them (which is also how a real test does).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.logs_error("inner-")

CONFTEST = """
from tests.logfail import LogFailPlugin

def pytest_configure(config):
    config.pluginmanager.register(LogFailPlugin(), "logfail")
"""

INNER = """
import logging
import threading

import pytest

log = logging.getLogger("inner")


def test_unexpected_error_fails():
    log.error("inner-boom %d", 1)


def fail_in_background():
    log.error("inner-worker failed")


def test_error_from_a_worker_thread_fails():
    worker = threading.Thread(target=fail_in_background, name="worker")
    worker.start()
    worker.join()


def test_warning_passes():
    log.warning("inner-just a warning")


@pytest.mark.logs_error("inner-expected")
def test_declared_error_passes():
    log.error("inner-expected failure")


@pytest.mark.logs_error("ValueError: inner-declared")
def test_declared_exception_passes():
    try:
        raise ValueError("inner-declared")
    except ValueError:
        log.exception("inner-a job failed")


@pytest.mark.logs_error("inner-expected")
def test_other_error_than_declared_fails():
    log.error("inner-surprise")


def test_error_read_through_caplog_passes(caplog):
    with caplog.at_level(logging.ERROR):
        log.error("inner-read by the test")
    assert caplog.records[0].getMessage() == "inner-read by the test"


def test_caplog_without_a_level_fails(caplog):
    log.error("inner-not looked at")


@pytest.fixture
def noisy_teardown():
    yield
    log.error("inner-clean-up failed")


def test_error_in_teardown_is_an_error(noisy_teardown):
    pass


def test_own_failure_is_not_masked():
    log.error("inner-before the assert")
    assert 1 == 2
"""


def test_unexpected_error_logs_fail_the_test_that_logged_them(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=5, failed=5, errors=1)  # the teardown error's call passed
    result.stdout.fnmatch_lines(
        [
            "*::test_unexpected_error_fails FAILED*",
            "*::test_error_from_a_worker_thread_fails FAILED*",
            "*::test_warning_passes PASSED*",
            "*::test_declared_error_passes PASSED*",
            "*::test_declared_exception_passes PASSED*",
            "*::test_other_error_than_declared_fails FAILED*",
            "*::test_error_read_through_caplog_passes PASSED*",
            "*::test_caplog_without_a_level_fails FAILED*",
            "*::test_error_in_teardown_is_an_error PASSED*",
            "*::test_error_in_teardown_is_an_error ERROR*",
            "*::test_own_failure_is_not_masked FAILED*",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "*unexpected ERROR logged during call:",
            "*ERROR inner (*test_inner.py:*, thread worker): inner-worker failed",
        ]
    )
    result.stdout.fnmatch_lines(
        ["*unexpected ERROR logged during teardown:", "*ERROR inner *: inner-clean-up failed"]
    )
    # A test that fails on its own reports its own assertion, not the log.
    result.stdout.fnmatch_lines(["*def test_own_failure_is_not_masked*", "*assert 1 == 2"])
