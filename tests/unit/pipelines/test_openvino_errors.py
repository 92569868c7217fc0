"""``first_line``: the one helper that turns a (non-OpenVINO) error into the words shown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.openvino_errors import first_line


def test_an_os_error_is_its_first_line(tmp_path: Path) -> None:
    with pytest.raises(OSError) as missing:
        (tmp_path / "gone.txt").open()
    expected = f"[Errno 2] No such file or directory: '{tmp_path / 'gone.txt'}'"
    assert first_line(missing.value) == expected


def test_a_json_error_says_where() -> None:
    with pytest.raises(ValueError) as broken:
        json.loads('{"a": ')
    assert first_line(broken.value) == "Expecting value: line 1 column 7 (char 6)"


def test_only_the_first_line_with_text_is_kept() -> None:
    with pytest.raises(subprocess.CalledProcessError) as failed:
        subprocess.run([sys.executable, "-c", "raise SystemExit(3)"], check=True)
    error = RuntimeError(f"\n  \n  {failed.value}  \nTraceback (most recent call last):\n  ...")
    assert first_line(error) == str(failed.value)


def test_long_lines_are_cut_to_the_limit() -> None:
    error = ValueError("x" * 1000)
    assert first_line(error) == "x" * 300
    assert first_line(error, 120) == "x" * 120
    assert first_line(error, limit=None) == "x" * 1000


def test_an_empty_message_gives_the_type_name() -> None:
    assert first_line(KeyboardInterrupt()) == "KeyboardInterrupt"
    assert first_line(OSError(" \n ")) == "OSError"
