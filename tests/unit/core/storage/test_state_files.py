"""State files: read back as written, ignored with a note when damaged or hostile, never
half-written — not even by a writer killed with SIGKILL in the middle of a write."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from app.core.errors import StorageError
from app.core.storage.state_files import read_state, write_state


class Example(BaseModel):
    count: int = Field(0, ge=0, le=1_000_000)
    names: list[str] = Field(default_factory=list, max_length=1000)


def test_what_is_written_is_read_back(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    write_state(path, Example(count=3, names=["a"]))
    assert read_state(path, Example) == Example(count=3, names=["a"])
    assert path.stat().st_mode & 0o077 == 0  # the user's only


def test_no_file_is_a_first_start_and_says_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        assert read_state(tmp_path / "missing.json", Example) is None
    assert not caplog.records


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe{}",
        b'{"count": 3',
        b'{"count": -1}',
        b'{"count": 1e999}',
        b'{"count": "' + b"9" * 100 + b'"}',
        b'{"names": [' + b'"x",' * 2000 + b'"x"]}',
        b"[" * 10_000 + b"]" * 10_000,
        b"{}" + b" " * (5 * 1024 * 1024),
    ],
    ids=["utf-16", "cut", "out of bounds", "overflow", "long text", "too many", "deep", "huge"],
)
def test_a_damaged_or_hostile_file_is_ignored_with_a_note(
    tmp_path: Path, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert read_state(path, Example) is None
    [note] = caplog.records
    assert note.levelno == logging.WARNING and str(path) in note.getMessage()


def test_a_folder_that_cannot_be_written_is_a_storage_error(tmp_path: Path) -> None:
    (tmp_path / "state.json").mkdir()
    with pytest.raises(StorageError, match=r"Could not save state\.json"):
        write_state(tmp_path / "state.json", Example())


WRITER = """
import sys
from pydantic import BaseModel
from app.core.storage.state_files import write_state

class Example(BaseModel):
    count: int = 0
    names: list[str] = []

path = sys.argv[1]
for count in range(1_000_000):
    write_state(__import__("pathlib").Path(path), Example(count=count, names=["x" * 200] * 200))
    print(count, flush=True)
"""


def test_a_writer_killed_at_any_moment_leaves_a_readable_file(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    for _ in range(30):  # many writes done; the kill lands in the middle of another
        writer.stdout.readline()
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    state = read_state(path, Example)
    assert state is not None and state.count >= 29 and len(state.names) == 200
