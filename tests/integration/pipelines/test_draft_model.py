"""Draft model paths: hostile ones give a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.draft_model import draft_folder

pytestmark = [pytest.mark.integration, pytest.mark.real_model]


@pytest.mark.parametrize("kind", ["junk folder", "empty gguf", "nul", "missing", "text file"])
def test_hostile_draft_paths_give_a_sentence(
    kind: str, tmp_path: Path, converted_gguf_cache: Path
) -> None:
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "openvino_model.xml").write_text("<not a model")
    (tmp_path / "empty.gguf").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("hello")
    path = {
        "junk folder": junk,
        "empty gguf": tmp_path / "empty.gguf",
        "nul": Path(f"{tmp_path}/a\x00b"),
        "missing": tmp_path / "gone.gguf",
        "text file": tmp_path / "notes.txt",
    }[kind]
    with pytest.raises(InvalidInputError) as caught:
        draft_folder(path, converted_gguf_cache)
    assert caught.value.field == "draft_model"
    assert "\n" not in str(caught.value) and str(caught.value).endswith(".")
