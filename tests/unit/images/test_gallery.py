"""The gallery: pictures saved whole with their settings, listed newest first, deletable, and
nothing committed lost when the process is killed mid-save."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.core.errors import StorageError, UserError
from app.images.gallery import INDEX, Gallery
from app.images.picture_metadata import png_bytes, read_settings
from pipelines.images import ImageSettings, Mode

REPO = Path(__file__).resolve().parents[3]


def _settings(seed: int = 1, prompt: str = "a fox") -> ImageSettings:
    return ImageSettings(Mode.TEXT_TO_IMAGE, prompt, "", 32, 16, 4, 8.5, 1, seed, 1.0, "lcm")


def _picture(value: int = 0) -> np.ndarray:
    return np.full((16, 32, 3), value, np.uint8)


def test_saved_pictures_are_listed_newest_first_with_their_settings(tmp_path: Path) -> None:
    gallery = Gallery(tmp_path / "pictures")
    first = gallery.save([_picture(1), _picture(2)], _settings(seed=1))
    second = gallery.save([_picture(3)], _settings(seed=2, prompt="a cat"))
    items = gallery.items()
    assert [item.name for item in items] == [
        second[0].name,
        *sorted((item.name for item in first), reverse=True),
    ]
    assert items[0].settings == _settings(seed=2, prompt="a cat")
    with Image.open(items[-1].path) as image:
        assert np.asarray(image)[0, 0, 0] == 1
    assert read_settings(items[-1].path) == _settings(seed=1)
    assert oct((tmp_path / "pictures").stat().st_mode & 0o777) == "0o700"


def test_a_deleted_picture_is_gone_for_good(tmp_path: Path) -> None:
    gallery = Gallery(tmp_path)
    [kept] = gallery.save([_picture()], _settings(seed=1))
    [deleted] = gallery.save([_picture()], _settings(seed=2))
    gallery.delete(deleted.name)
    assert [item.name for item in gallery.items()] == [kept.name]
    assert not deleted.path.exists()
    with pytest.raises(UserError, match="There is no picture") as missing:
        gallery.delete(deleted.name)
    assert missing.value.field == "picture"


def test_undo_puts_a_deleted_picture_back_in_its_place(tmp_path: Path) -> None:
    gallery = Gallery(tmp_path)
    [older] = gallery.save([_picture(1)], _settings(seed=1))
    [newer] = gallery.save([_picture(2)], _settings(seed=2))
    data = older.path.read_bytes()
    gallery.delete(older.name)
    gallery.restore(older, data)
    assert [item.name for item in gallery.items()] == [newer.name, older.name]
    assert gallery.items()[1] == older and older.path.read_bytes() == data
    stranger = older.__class__(tmp_path.parent / older.name, older.created, older.settings)
    with pytest.raises(UserError, match="There is no picture"):
        gallery.restore(stranger, data)  # only into the gallery's own folder


def test_a_picture_saved_without_its_index_entry_comes_back(tmp_path: Path) -> None:
    gallery = Gallery(tmp_path)
    gallery.save([_picture()], _settings(seed=1))
    # A kill between the PNG's rename and the index's: the file is there, its entry is not.
    orphan = tmp_path / "picture-1700000000000-9-1.png"
    orphan.write_bytes(png_bytes(_picture(9), _settings(seed=9)))
    names = [item.name for item in gallery.items()]
    assert orphan.name in names and len(names) == 2
    index = json.loads((tmp_path / INDEX).read_text())
    assert orphan.name in [entry["file"] for entry in index["pictures"]]


def test_an_entry_whose_file_was_deleted_is_dropped(tmp_path: Path) -> None:
    gallery = Gallery(tmp_path)
    [item] = gallery.save([_picture()], _settings())
    item.path.unlink()  # a kill between deleting the file and rewriting the index
    assert gallery.items() == []
    assert json.loads((tmp_path / INDEX).read_text())["pictures"] == []


@pytest.mark.parametrize(
    "index",
    [
        "{broken",
        json.dumps({"pictures": "nope"}),
        json.dumps({"pictures": [42, {"file": 3}, {"file": "../../etc/passwd"}]}),
        json.dumps({"pictures": [{"file": "x.png", "created": "now", "settings": []}]}),
    ],
)
def test_a_damaged_index_is_rebuilt_from_the_pictures(tmp_path: Path, index: str) -> None:
    gallery = Gallery(tmp_path)
    [item] = gallery.save([_picture()], _settings(seed=5))
    (tmp_path / INDEX).write_text(index)
    [listed] = gallery.items()
    assert listed.name == item.name and listed.settings == _settings(seed=5)


def test_only_the_gallerys_own_pictures_are_listed(tmp_path: Path) -> None:
    gallery = Gallery(tmp_path)
    (tmp_path / "holiday.png").write_bytes(png_bytes(_picture(), _settings()))
    (tmp_path / "picture-1-1-1.png").write_bytes(b"not a png")
    assert gallery.items() == []
    with pytest.raises(UserError):
        gallery.delete("holiday.png")
    assert (tmp_path / "holiday.png").exists()


def test_a_full_disk_is_one_sentence_and_leaves_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gallery = Gallery(tmp_path)

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("app.images.gallery.write_bytes_atomic", full)
    with pytest.raises(StorageError, match=r"could not be saved in .*No space left on device"):
        gallery.save([_picture()], _settings())
    assert list(tmp_path.glob("picture-*")) == []


SAVER = """
import sys
from pathlib import Path
import numpy as np
from app.images.gallery import Gallery
from pipelines.images import ImageSettings, Mode
gallery = Gallery(Path(sys.argv[1]))
for seed in range(10_000):
    settings = ImageSettings(Mode.TEXT_TO_IMAGE, "p", "", 256, 256, 4, 8.5, 1, seed, 1.0, "m")
    [item] = gallery.save([np.full((256, 256, 3), seed % 255, np.uint8)], settings)
    print(item.name, flush=True)
"""


def test_kill_9_mid_save_loses_nothing_committed(tmp_path: Path) -> None:
    folder = tmp_path / "pictures"
    child = subprocess.Popen(
        [sys.executable, "-c", SAVER, str(folder)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert child.stdout is not None
    committed = [child.stdout.readline().strip() for _ in range(5)]
    os.kill(child.pid, signal.SIGKILL)  # somewhere in the middle of the next saves
    child.wait()
    committed += [line.strip() for line in child.stdout if line.strip()]
    listed = {item.name: item for item in Gallery(folder).items()}
    assert set(committed) <= set(listed)  # every save that returned is there
    for item in listed.values():  # and every listed picture is whole
        with Image.open(item.path) as image:
            image.load()
            assert image.size == (256, 256)
        assert item.settings.prompt == "p"
