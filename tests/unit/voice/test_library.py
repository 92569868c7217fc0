"""The voice library: whole voices or none, names, damaged folders."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest

from app.core.errors import StorageError, UserError
from app.voice.library import VoiceLibrary
from pipelines.files import TEMP_PREFIX


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
    left = [p.name for p in (tmp_path / "voices").iterdir() if p.name.startswith(".")]
    assert left == []  # no stage of a new voice, no half-deleted one


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


# -- private files (issue 12, item 4) --------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_voices_are_private_to_the_user(tmp_path: Path, clip: Path) -> None:
    clip.chmod(0o644)
    library = VoiceLibrary(tmp_path / "voices")
    voice = library.add("Ana", _vector(1), clip, 6.0)
    assert _mode(library.folder) == 0o700 and _mode(voice.folder) == 0o700
    files = sorted(voice.folder.iterdir())
    assert [p.name for p in files] == ["embedding.npy", "reference.wav", "voice.json"]
    assert all(_mode(path) == 0o600 for path in files)
    library.rename("Ana", "Ana L")
    assert _mode(voice.folder / "voice.json") == 0o600


def test_the_files_are_never_readable_by_others_while_written(
    tmp_path: Path, clip: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Created with their mode, not chmod-ed afterwards: record each file's mode at the
    # moment it is renamed into place (and the voice folder's when it appears).
    seen: dict[str, int] = {}
    real_replace, real_rename = os.replace, Path.rename

    def replace(source: str, target: str) -> None:
        seen[Path(target).name] = _mode(Path(source))
        real_replace(source, target)

    def rename(self: Path, target: Path) -> Path:
        seen[self.name] = _mode(self)
        for child in self.iterdir():
            seen.setdefault(child.name, _mode(child))
        return real_rename(self, target)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(Path, "rename", rename)
    VoiceLibrary(tmp_path / "voices").add("Ana", _vector(1), clip, 6.0)
    # The voice folder is staged under pipelines.files' hidden temp name.
    assert {name: mode for name, mode in seen.items() if not name.startswith(TEMP_PREFIX)} == {
        "embedding.npy": 0o600,
        "voice.json": 0o600,
        "reference.wav": 0o600,
    }
    assert [mode for name, mode in seen.items() if name.startswith(TEMP_PREFIX)] == [0o700]


def test_voices_from_an_older_version_are_tightened(tmp_path: Path, clip: Path) -> None:
    library = VoiceLibrary(tmp_path / "voices")
    voice = library.add("Ana", _vector(1), clip, 6.0)
    outside = tmp_path / "outside.txt"
    outside.write_text("not the app's", encoding="utf-8")
    outside.chmod(0o644)
    (voice.folder / "link.txt").symlink_to(outside)
    library.folder.chmod(0o755)
    voice.folder.chmod(0o755)
    for path in voice.folder.iterdir():
        if not path.is_symlink():
            path.chmod(0o644)
    assert [v.name for v in VoiceLibrary(library.folder).voices()] == ["Ana"]
    assert _mode(library.folder) == 0o700 and _mode(voice.folder) == 0o700
    assert all(_mode(p) == 0o600 for p in voice.folder.iterdir() if not p.is_symlink())
    assert _mode(outside) == 0o644  # nothing outside the voices folder is touched


# -- damaged voices (issue 12, item 12) ------------------------------------------------------


def _npy(array: np.ndarray | np.generic) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def _npz() -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, embedding=_vector(1))
    return buffer.getvalue()


def _pickled() -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    return buffer.getvalue()


BAD_EMBEDDINGS = {
    "float64": (_npy(_vector(1).astype(np.float64)), "float64 values of shape (512,)"),
    "[1, 512]": (_npy(_vector(1)[None, :]), "shape (1, 512)"),
    "256 values": (_npy(_vector(1)[:256]), "shape (256,)"),
    "an int": (_npy(np.int64(5)), "int64 values of shape ()"),
    "text": (b"0.1 0.2 0.3\n", "not a saved array"),
    "empty": (b"", "not a saved array"),
    "truncated": (_npy(_vector(1))[:300], "not a saved array"),
    "npz archive": (_npz(), "not a saved array"),
    "pickled objects": (_pickled(), "not a saved array"),
    "NaN": (_npy(np.full(512, np.nan, np.float32)), "not numbers"),
    "zeros": (_npy(np.zeros(512, np.float32)), "all zeros"),
    "strings": (_npy(np.array(["a"] * 512)), "<U1 values"),
    "huge": (b"\x93NUMPY" + b"0" * 100_000, "far too large"),
}


@pytest.mark.parametrize(("content", "reason"), BAD_EMBEDDINGS.values(), ids=BAD_EMBEDDINGS.keys())
def test_a_damaged_embedding_makes_a_damaged_voice_that_can_be_removed(
    tmp_path: Path, clip: Path, content: bytes, reason: str
) -> None:
    library = VoiceLibrary(tmp_path / "voices")
    good = library.add("Good", _vector(1), clip, 6.0)
    bad = library.add("Bad", _vector(2), clip, 6.0)
    (bad.folder / "embedding.npy").write_bytes(content)
    assert [v.name for v in library.voices()] == ["Good"]
    [damaged] = library.damaged
    assert (damaged.name, damaged.id) == ("Bad", bad.id) and reason in damaged.reason
    assert library.problems == [damaged.message]
    with pytest.raises(StorageError, match="The voice “Bad” is damaged") as error:
        library.get("bad")
    assert error.value.field == "voice" and reason in str(error.value)
    with pytest.raises(StorageError, match="is damaged"):
        bad.embedding()  # a Voice read before the damage: its embedding is checked again
    with pytest.raises(UserError, match="damaged: delete it first"):
        library.add("BAD", _vector(3), clip, 6.0)
    library.remove("Bad")
    assert [v.name for v in library.voices()] == ["Good"] and library.damaged == []
    assert sorted(p.name for p in library.folder.iterdir()) == [good.id]


META_DAMAGE = {
    "nested": b'{"name": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "not UTF-8": b'{"name": "Bad\xff"}',
    "a list": b'["Bad"]',
    "a number for a name": b'{"name": 5}',
    "missing": None,
}


@pytest.mark.parametrize("content", META_DAMAGE.values(), ids=META_DAMAGE.keys())
def test_a_voice_without_readable_metadata_is_removed_by_its_folder_name(
    tmp_path: Path, clip: Path, content: bytes | None
) -> None:
    library = VoiceLibrary(tmp_path / "voices")
    library.add("Good", _vector(1), clip, 6.0)
    bad = library.add("Bad", _vector(2), clip, 6.0)
    meta = bad.folder / "voice.json"
    if content is None:
        meta.unlink()
    else:
        meta.write_bytes(content)
    assert [v.name for v in library.voices()] == ["Good"]
    [damaged] = library.damaged
    assert damaged.label == bad.id and "voice.json" in damaged.reason
    with pytest.raises(UserError, match="no voice named “Bad”"):
        library.get("Bad")
    library.remove(bad.id)
    assert [v.name for v in library.voices()] == ["Good"] and library.damaged == []
    assert not bad.folder.exists()


@pytest.mark.parametrize("name", ["..", "../voices", "/", str(Path.home()), ".new-x", "", "  "])
def test_remove_never_reaches_outside_the_voices_folder(tmp_path: Path, name: str) -> None:
    library = VoiceLibrary(tmp_path / "voices")
    broken = library.folder / "0123456789ab"
    broken.mkdir(parents=True)
    (library.folder / ".new-x").mkdir()
    with pytest.raises(UserError, match="There is no voice named"):
        library.remove(name)
    assert broken.is_dir() and (library.folder / ".new-x").is_dir()


def test_a_symlinked_folder_is_not_a_voice(tmp_path: Path, clip: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("x", encoding="utf-8")
    library = VoiceLibrary(tmp_path / "voices")
    library.add("Good", _vector(1), clip, 6.0)
    (library.folder / "abcdefabcdef").symlink_to(elsewhere, target_is_directory=True)
    assert [v.name for v in library.voices()] == ["Good"] and library.damaged == []
    with pytest.raises(UserError):
        library.remove("abcdefabcdef")
    assert (elsewhere / "keep.txt").is_file()


def test_remove_damaged_deletes_only_a_damaged_voice(tmp_path: Path, clip: Path) -> None:
    library = VoiceLibrary(tmp_path / "voices")
    broken = library.add("Bob", _vector(1), clip, 6.0)
    (broken.folder / "voice.json").write_text("[]", encoding="utf-8")
    # A healthy voice named like the damaged one's folder is never what the window deletes.
    healthy = library.add(broken.id, _vector(2), clip, 6.0)
    with pytest.raises(UserError, match="no longer there"):
        library.remove_damaged(healthy.id)
    with pytest.raises(UserError, match="no longer there"):
        library.remove_damaged("../voices")
    library.remove_damaged(broken.id)
    assert not broken.folder.exists() and healthy.folder.is_dir()
    assert [v.name for v in library.voices()] == [broken.id] and library.damaged == []
