"""Pictures written where the user asked: names for a batch, checked first, written whole."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.core.errors import StorageError
from app.images.picture_files import check_output, output_paths, write_pictures
from pipelines.core import InvalidInputError
from pipelines.images import ImageResult, ImageSettings, Mode

SETTINGS = ImageSettings(Mode.TEXT_TO_IMAGE, "a fox", "", 8, 4, 4, 8.5, 2, 3, 1.0, "lcm")
RESULT = ImageResult((np.zeros((4, 8, 3), np.uint8), np.full((4, 8, 3), 9, np.uint8)), SETTINGS)


def test_a_batch_is_numbered_after_the_first(tmp_path: Path) -> None:
    assert [p.name for p in output_paths(tmp_path / "fox.png", 3)] == [
        "fox.png",
        "fox-2.png",
        "fox-3.png",
    ]
    written = write_pictures(RESULT, tmp_path / "fox.png", tmp_path / "scratch")
    with Image.open(written[1]) as second:
        assert second.getpixel((0, 0)) == (9, 9, 9) and "ov-studio" in second.text
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["fox-2.png", "fox.png"]


def test_a_bad_output_is_refused_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"saved as \.png") as refused:
        check_output(tmp_path / "fox.jpg", 1)
    assert refused.value.field == "output"
    with pytest.raises(InvalidInputError, match="does not exist"):
        check_output(tmp_path / "no" / "fox.png", 1)


def test_a_full_disk_is_a_sentence_and_leaves_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(self: Path, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    with pytest.raises(StorageError, match=r"could not be written to .*No space left") as error:
        write_pictures(RESULT, tmp_path / "fox.png", tmp_path / "scratch")
    assert error.value.field == "output"
    monkeypatch.undo()
    assert list(tmp_path.glob("*.png")) == []
    assert list((tmp_path / "scratch").iterdir()) == []
