"""The app's atomic writer is the pipelines' one (``pipelines.files``)."""

from __future__ import annotations

from app.core.storage.atomic import write_bytes_atomic as app_write_bytes
from pipelines.files import write_bytes_atomic


def test_the_app_writes_through_the_pipelines_writer() -> None:
    assert app_write_bytes is write_bytes_atomic
