"""File paths as PostgreSQL text: valid names unchanged, other bytes escaped and kept."""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from pipelines.rag.storable import display_name, file_path, is_text, printable, stored_path


def test_a_utf8_path_is_stored_as_is() -> None:
    path = Path("/home/ana/Café notes/résumé 🚋.txt")
    assert stored_path(path) == (str(path), None)
    assert file_path(str(path), None) == path


def test_a_latin1_name_is_shown_escaped_and_found_by_its_bytes() -> None:
    path = Path(os.fsdecode(b"/archive/caf\xe9 menu.txt"))
    text, raw = stored_path(path)
    assert (text, raw) == ("/archive/caf\\xe9 menu.txt", b"/archive/caf\xe9 menu.txt")
    assert text.encode("utf-8")  # PostgreSQL text can hold it
    assert file_path(text, raw) == path
    assert display_name(path) == "caf\\xe9 menu.txt" == printable(path.name)


@given(st.binary(min_size=1, max_size=40).filter(lambda b: b"/" not in b and b"\0" not in b))
def test_any_file_name_round_trips(name: bytes) -> None:
    path = Path(os.fsdecode(b"/d/" + name))
    text, raw = stored_path(path)
    assert is_text(text)
    assert file_path(text, raw) == path
    assert (raw is None) == is_text(str(path))
