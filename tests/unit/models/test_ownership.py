"""Which model folders Remove may delete: only real folders the app made in its models folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.models.ownership import MARKER
from app.models.registry import ModelRegistry
from tests.ui.fakes import fake_model_folder


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "data" / "models.json", tmp_path / "data" / "models")


def _entries(registry: ModelRegistry) -> list[dict[str, object]]:
    entries: list[dict[str, object]] = json.loads(registry.file.read_text())["models"]
    return entries


def _write(registry: ModelRegistry, entries: list[dict[str, object]], version: int = 2) -> None:
    registry.file.write_text(json.dumps({"version": version, "models": entries}))


def _installed_copy(registry: ModelRegistry, tmp_path: Path, name: str = "src") -> Path:
    """A model copied into the models folder, its entry's folder returned."""
    return registry.add_folder(fake_model_folder(tmp_path / name), copy=True).folder


def _everything(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


HOSTILE_FOLDERS = {
    "the models folder": lambda models: models,
    "x/.. of the models folder": lambda models: models / "tiny-chat" / "..",
    "the data folder": lambda models: models.parent,
    "a relative climb": lambda models: models / ".." / "models",
}


@pytest.mark.parametrize("folder_of", HOSTILE_FOLDERS.values(), ids=HOSTILE_FOLDERS.keys())
def test_an_owned_entry_naming_the_models_folder_deletes_nothing(
    registry: ModelRegistry, tmp_path: Path, folder_of: object
) -> None:
    copy = _installed_copy(registry, tmp_path)
    before = _everything(registry.models_dir.parent)
    [entry] = _entries(registry)
    hostile = {**entry, "id": "evil", "folder": str(folder_of(registry.models_dir))}  # type: ignore[operator]
    _write(registry, [entry, hostile])
    removal = registry.remove("evil")
    assert not removal.deleted and removal.kept is not None
    assert "evil was taken off the list, but its folder" in removal.kept
    assert "it is not a folder the app made inside its models folder" in removal.kept
    assert [m.id for m in registry.models()] == ["tiny-chat"]
    assert _everything(registry.models_dir.parent) == before
    assert registry.remove("tiny-chat").deleted and not copy.exists()


def test_a_link_in_the_models_folder_is_not_followed(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    outside = fake_model_folder(tmp_path / "outside")
    (outside / MARKER).write_text(json.dumps({"id": "linked"}))
    copy = _installed_copy(registry, tmp_path)
    (registry.models_dir / "linked").symlink_to(outside)
    [entry] = _entries(registry)
    linked = {**entry, "id": "linked", "folder": str(registry.models_dir / "linked")}
    _write(registry, [entry, linked])
    removal = registry.remove("linked")
    assert removal.kept is not None and (outside / "openvino_model.xml").is_file()
    assert (registry.models_dir / "linked").is_symlink() and copy.is_dir()


def test_a_folder_outside_the_models_folder_is_kept_even_with_a_marker(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    elsewhere = fake_model_folder(tmp_path / "elsewhere")
    (elsewhere / MARKER).write_text(json.dumps({"id": "tiny-chat"}))
    in_place = registry.add_folder(elsewhere)
    [entry] = _entries(registry)
    _write(registry, [{**entry, "owned": True}])
    removal = registry.remove(in_place.id)
    assert removal.kept is not None and (elsewhere / "openvino_model.xml").is_file()


def test_only_folders_holding_their_own_marker_are_deleted(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    first = _installed_copy(registry, tmp_path, "a")
    second = _installed_copy(registry, tmp_path, "b")
    assert json.loads((first / MARKER).read_text()) == {"id": first.name}
    unmarked = registry.models_dir / "by-hand"
    unmarked.mkdir()
    (unmarked / "notes.txt").write_text("mine")
    entries = _entries(registry)
    by_hand = {**entries[0], "id": "by-hand", "folder": str(unmarked)}
    # Another model's entry pointing at the first copy: its marker names the first model.
    twin = {**entries[0], "id": "twin"}
    _write(registry, [*entries, by_hand, twin])
    assert registry.remove("by-hand").kept is not None and unmarked.is_dir()
    assert not registry.deletes_files(registry.get("twin"))
    assert registry.remove("twin").kept is not None and first.is_dir()
    assert registry.deletes_files(registry.get(second.name))
    assert registry.remove(second.name).deleted and not second.exists()
    assert not list(registry.models_dir.glob(".deleting-*"))


def test_a_folder_that_cannot_be_renamed_is_said_not_a_crash(
    registry: ModelRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = _installed_copy(registry, tmp_path)

    def refused(path: Path, target: Path) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(Path, "rename", refused)  # as a folder held open on Windows, or 0500
    removal = registry.remove(copy.name)
    monkeypatch.undo()
    assert removal.kept is not None and "could not be deleted: Permission denied" in removal.kept
    assert registry.models() == [] and (copy / "openvino_model.xml").is_file()


def test_an_older_list_has_its_copies_marked_once(registry: ModelRegistry, tmp_path: Path) -> None:
    copy = _installed_copy(registry, tmp_path)
    (copy / MARKER).unlink()  # as an older version left it
    [entry] = _entries(registry)
    hostile = {**entry, "id": "models", "folder": str(registry.models_dir)}
    _write(registry, [entry, hostile], version=1)
    again = ModelRegistry(registry.file, registry.models_dir)
    assert {m.id for m in again.models()} == {"tiny-chat", "models"}
    assert json.loads(registry.file.read_text())["version"] == 2
    assert (copy / MARKER).is_file() and not (registry.models_dir / MARKER).exists()
    assert again.remove("models").kept is not None and copy.is_dir()
    assert again.remove("tiny-chat").deleted and not copy.exists()
    assert registry.models_dir.is_dir()


def test_a_newer_list_gets_no_markers_from_its_entries(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    copy = _installed_copy(registry, tmp_path)
    (copy / MARKER).unlink()  # edited behind the app's back after the list was marked
    removal = registry.remove(copy.name)
    assert removal.kept is not None and copy.is_dir()
