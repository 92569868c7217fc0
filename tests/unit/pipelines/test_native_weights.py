"""Releasing mapped weight pages: which mappings count as a model's weights, and a released
read-only mapping reads the same bytes again (a writable one is never advised)."""

from __future__ import annotations

import mmap
import os
from pathlib import Path

import pytest

from pipelines.native_weights import (
    UNSUPPORTED_REASON,
    release_weight_pages,
    releases_supported,
    weight_mappings,
)
from tests.mapped_memory import resident_bytes

linux_only = pytest.mark.skipif(not releases_supported(), reason=UNSUPPORTED_REASON)

SIZE = 4 * 2**20


def test_the_folders_bin_files_are_its_weights(tmp_path: Path) -> None:
    folder = tmp_path / "my model"
    folder.mkdir()
    maps = "\n".join(
        [
            f"7f0000000000-7f0000100000 r--s 00000000 08:01 11 {folder}/openvino_model.bin",
            f"7f0000100000-7f0000200000 rw-s 00000000 08:01 11 {folder}/openvino_model.bin",
            f"7f0000200000-7f0000300000 r--s 00000000 08:01 12 {folder}/old.bin (deleted)",
            f"7f0000300000-7f0000400000 r--p 00000000 08:01 13 {folder}/openvino_model.xml",
            f"7f0000400000-7f0000500000 r--s 00000000 08:01 14 {tmp_path}/other.bin",
            "7f0000500000-7f0000600000 rw-p 00000000 00:00 0 ",
            "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]",
        ]
    )
    found = weight_mappings(folder, maps)
    assert [(m.start, m.size, m.writable, m.path.name) for m in found] == [
        (0x7F0000000000, 0x100000, False, "openvino_model.bin"),
        (0x7F0000100000, 0x100000, True, "openvino_model.bin"),
    ]


@linux_only
def test_a_released_read_only_mapping_reads_the_same_again(tmp_path: Path) -> None:
    weights = tmp_path / "openvino_model.bin"
    content = os.urandom(SIZE)
    weights.write_bytes(content)
    with weights.open("rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as view:
        assert view[:] == content  # every page faulted in
        assert resident_bytes(weights) >= SIZE // 2
        assert release_weight_pages(tmp_path) == SIZE
        assert resident_bytes(weights) < SIZE // 2
        assert view[:] == content


@linux_only
def test_a_writable_mapping_is_left_alone(tmp_path: Path) -> None:
    weights = tmp_path / "openvino_model.bin"
    weights.write_bytes(bytes(SIZE))
    with weights.open("r+b") as file, mmap.mmap(file.fileno(), 0) as view:
        view[: SIZE // 2] = b"\x01" * (SIZE // 2)
        assert release_weight_pages(tmp_path) == 0
        assert resident_bytes(weights) >= SIZE // 2
        assert view[0] == 1


def test_elsewhere_nothing_is_released(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pipelines.native_weights.sys.platform", "darwin")
    assert release_weight_pages(tmp_path) == 0
