"""The server's postmaster.pid read back: files that name no server, a half-written one."""

from __future__ import annotations

import pytest

from app.knowledge.database.pidfile import parse_postmaster


@pytest.mark.parametrize(
    "text",
    ["", "\n", "garbage\n", "-31379\n/data\n", "0\n", "\x00\xff", "12abc\n"],
    ids=["empty", "blank", "garbage", "negative", "zero", "binary", "suffix"],
)
def test_postmaster_files_that_name_no_server(text: str) -> None:
    parsed = parse_postmaster(text)
    assert parsed is None or parsed.pid < 0  # negative: a single-user backend, never ours


def test_a_half_written_postmaster_file_parses_without_its_status() -> None:
    parsed = parse_postmaster("4242\n/data\n1700000000\n5432\n")
    assert parsed is not None and parsed.pid == 4242 and parsed.status == ""
