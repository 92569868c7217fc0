"""Tensors out of ``.pt`` files without torch: both of torch's layouts, and hostile files."""

from __future__ import annotations

import io
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

from app.models.torch_checkpoint import LEGACY_MAGIC, CheckpointReadError, read_state


def _saved(value: object, *, legacy: bool) -> bytes:
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    buffer = io.BytesIO()
    torch.save(value, buffer, _use_new_zipfile_serialization=not legacy)
    return buffer.getvalue()


@pytest.mark.parametrize("legacy", [True, False], ids=["legacy", "zip"])
def test_tensors_read_back_exactly(legacy: bool) -> None:
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    state = {
        "step": 7,
        "model_state": {
            "weight": base,
            "transposed": base.t(),  # a strided view of the same storage
            "slice": base[1:, 2:],  # an offset into it
            "ids": torch.tensor([3, -1], dtype=torch.int64),
        },
    }
    loaded = read_state(_saved(state, legacy=legacy))
    assert loaded["step"] == 7
    for key, tensor in state["model_state"].items():
        np.testing.assert_array_equal(loaded["model_state"][key], tensor.numpy())
        assert loaded["model_state"][key].dtype == tensor.numpy().dtype


class _Shell:
    """Unpickles into a shell command: what a hostile checkpoint would carry."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        import os

        return os.system, (f"touch {self.marker}",)


def test_a_checkpoint_asking_for_code_is_refused_and_nothing_runs(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    legacy = b"".join(
        pickle.dumps(part, protocol=2) for part in (LEGACY_MAGIC, 1001, {}, _Shell(marker))
    )
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as writer:
        writer.writestr("archive/data.pkl", pickle.dumps(_Shell(marker), protocol=2))
    for raw in (legacy, archive.getvalue()):
        with pytest.raises(CheckpointReadError, match="not allowed"):
            read_state(raw)
    assert not marker.exists()


@pytest.mark.parametrize(
    "raw",
    [b"", b"not a checkpoint at all", pickle.dumps(12345, protocol=2), b"PK\x03\x04broken"],
    ids=["empty", "text", "wrong-magic", "broken-zip"],
)
def test_files_that_are_not_checkpoints_are_refused(raw: bytes) -> None:
    with pytest.raises(CheckpointReadError):
        read_state(raw)


def test_a_checkpoint_cut_short_is_refused() -> None:
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    raw = _saved({"weight": torch.ones(64, 64)}, legacy=True)
    with pytest.raises(CheckpointReadError, match="ends in the middle"):
        read_state(raw[:-100])
