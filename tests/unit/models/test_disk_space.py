"""What the models take on disk: each file once, hard links shared with files outside the
app's folders said apart, and the user's own files never counted as the app's copies."""

from __future__ import annotations

from pathlib import Path

from app.models import DiskUse, disk_use


def _file(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"w" * size)
    return path


def test_each_file_is_counted_once_and_hard_links_out_of_the_app_are_shared(
    tmp_path: Path,
) -> None:
    models, converted, mine = tmp_path / "models", tmp_path / "gguf", tmp_path / "mine"
    _file(models / "a" / "weights.bin", 1000)
    (models / "b").mkdir()
    (models / "b" / "weights.bin").hardlink_to(models / "a" / "weights.bin")  # one file, 2 names
    yours = _file(mine / "big.gguf", 3000)
    (models / "c").mkdir()
    (models / "c" / "big.gguf").hardlink_to(yours)  # a copy made as a hard link to your file
    _file(converted / "0123" / "openvino_model.bin", 500)
    elsewhere = _file(mine / "other" / "openvino_model.bin", 700)
    (models / "link").symlink_to(mine / "other", target_is_directory=True)  # not followed
    listed = [models / "a", models / "c" / "big.gguf", yours, elsewhere.parent]
    assert disk_use(models, converted, listed) == DiskUse(
        models=4000, converted=500, shared=3000, elsewhere=700
    )


def test_nothing_there_takes_nothing(tmp_path: Path) -> None:
    use = disk_use(tmp_path / "models", tmp_path / "gguf", [tmp_path / "gone"])
    assert use == DiskUse() and use.app_copies == 0
