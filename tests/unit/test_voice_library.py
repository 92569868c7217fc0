"""The voice library: whole voices or none, names, damaged folders."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from app.errors import StorageError, UserError
from app.voices import TEMP_PREFIX, VoiceLibrary


def _vector(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(512).astype(np.float32)


@pytest.fixture
def clip(tmp_path: Path) -> Path:
    path = tmp_path / "clip.wav"
    path.write_bytes(b"RIFF stand-in for a wav")
    return path


def test_add_list_get_rename_remove(tmp_path: Path, clip: Path) -> None:
    library = VoiceLibrary(tmp_path / "voices")
    assert library.voices() == []
    ana = library.add("  Ana   Lopes ", _vector(1), clip, 7.5)
    library.add("bruno", _vector(2), clip, 12.0)
    assert [v.name for v in library.voices()] == ["Ana Lopes", "bruno"]
    assert library.get("ana lopes").id == ana.id
    vector = ana.embedding()
    assert vector.shape == (512,) and abs(float(np.linalg.norm(vector)) - 1.0) < 1e-6
    assert ana.reference.read_bytes() == clip.read_bytes()
    assert ana.reference_seconds == 7.5
    renamed = library.rename("Ana Lopes", "Ana")
    assert renamed.id == ana.id and library.get("ana").name == "Ana"
    library.remove("ana")
    assert [v.name for v in library.voices()] == ["bruno"]
    assert not any(p.name.startswith(TEMP_PREFIX) for p in (tmp_path / "voices").iterdir())


@pytest.mark.parametrize(
    ("name", "message"),
    [("   ", "Give the voice a name"), ("x" * 61, "at most 60"), ("BRUNO", "already a voice")],
)
def test_bad_names_are_refused(tmp_path: Path, clip: Path, name: str, message: str) -> None:
    library = VoiceLibrary(tmp_path)
    library.add("Bruno", _vector(2), clip, 6.0)
    with pytest.raises(UserError, match=message) as error:
        library.add(name, _vector(3), clip, 6.0)
    assert error.value.field == "name"
    assert len(library.voices()) == 1


def test_wrong_embeddings_are_refused(tmp_path: Path, clip: Path) -> None:
    library = VoiceLibrary(tmp_path)
    with pytest.raises(UserError, match="expected 512"):
        library.add("a", np.ones(256, np.float32), clip, 6.0)
    with pytest.raises(UserError, match="all zeros"):
        library.add("a", np.zeros(512, np.float32), clip, 6.0)
    assert library.voices() == []


def test_a_failed_creation_leaves_nothing_and_damages_nothing(tmp_path: Path, clip: Path) -> None:
    library = VoiceLibrary(tmp_path / "voices")
    first = library.add("First", _vector(1), clip, 6.0)
    before = sorted(p.name for p in first.folder.iterdir())
    with pytest.raises(StorageError, match="Could not save the voice"):
        library.add("Second", _vector(2), tmp_path / "missing.wav", 6.0)
    assert [v.name for v in library.voices()] == ["First"]
    assert sorted(p.name for p in first.folder.iterdir()) == before
    assert not any(p.name.startswith(".") for p in (tmp_path / "voices").iterdir())


def test_unknown_voice_lists_the_known_ones(tmp_path: Path, clip: Path) -> None:
    library = VoiceLibrary(tmp_path)
    library.add("Ana", _vector(1), clip, 6.0)
    with pytest.raises(UserError, match="no voice named “Zoe” \\(voices: Ana\\)") as error:
        library.get("Zoe")
    assert error.value.field == "voice"


def test_damaged_voices_are_reported_not_fatal(tmp_path: Path, clip: Path) -> None:
    library = VoiceLibrary(tmp_path)
    good = library.add("Good", _vector(1), clip, 6.0)
    broken = library.add("Broken", _vector(2), clip, 6.0)
    (broken.folder / "voice.json").write_text("{not json")
    assert [v.name for v in library.voices()] == ["Good"]
    assert len(library.problems) == 1 and broken.folder.name in library.problems[0]
    (good.folder / "embedding.npy").write_bytes(b"garbage")
    with pytest.raises(StorageError, match="is damaged"):
        library.get("Good").embedding()
    meta = json.loads((good.folder / "voice.json").read_text())
    assert meta["name"] == "Good"
