"""The cancel token and progress."""

from __future__ import annotations

from pipelines.core import CancelToken, Progress


def test_cancel_token() -> None:
    token = CancelToken()
    assert not token.cancelled
    token.cancel()
    token.cancel()
    assert token.cancelled


def test_progress_fraction() -> None:
    assert Progress("x", 5, 10).fraction == 0.5
    assert Progress("x", 5).fraction is None
    assert Progress("x", 50, 10).fraction == 1.0
