"""The installed-model registry: tasks, contracts, precision, copies, missing folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.errors import UserError
from app.models.inspect import ModelTask
from app.models.registry import ModelRegistry
from tests.ui.fakes import embedding_model_folder, fake_model_folder


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "data" / "models.json", tmp_path / "data" / "models")


def test_real_fixture_models_are_recognised_with_their_precision(
    registry: ModelRegistry, fixture_models: Path
) -> None:
    chat = registry.add_folder(fixture_models / "llm-int4")
    int8 = registry.add_folder(fixture_models / "llm-int8")
    embedder = registry.add_folder(fixture_models / "embedding")
    reranker = registry.add_folder(fixture_models / "reranker")
    assert (chat.task, chat.precision) == (ModelTask.CHAT, "int4")
    assert (int8.task, int8.precision) == (ModelTask.CHAT, "int8")
    assert (embedder.task, embedder.precision) == (ModelTask.EMBEDDING, "int8")
    assert reranker.task == ModelTask.RERANK
    assert all(m.usable and m.size_bytes > 0 and not m.owned for m in registry.models())
    assert [m.id for m in registry.models(ModelTask.CHAT)] == ["llm-int4", "llm-int8"]


def test_the_registry_survives_a_restart(registry: ModelRegistry, tmp_path: Path) -> None:
    added = registry.add_folder(fake_model_folder(tmp_path), source="local")
    again = ModelRegistry(registry.file, registry.models_dir)
    assert [m.id for m in again.models()] == [added.id]
    assert json.loads(registry.file.read_text())["models"][0]["task"] == "chat"


def test_a_deleted_folder_shows_as_missing_not_a_crash(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    folder = fake_model_folder(tmp_path)
    registry.add_folder(folder)
    shutil.rmtree(folder)
    [model] = registry.models()
    assert model.status == "missing" and not model.usable
    assert "is gone" in model.problems[0]


def test_a_damaged_folder_says_which_files_are_missing(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    folder = fake_model_folder(tmp_path)
    registry.add_folder(folder)
    (folder / "openvino_detokenizer.xml").unlink()
    [model] = registry.models()
    assert model.status == "broken" and "openvino_detokenizer.xml" in model.problems[0]


@pytest.mark.parametrize(
    ("make", "task", "message"),
    [
        (lambda root: root / "nowhere", None, "There is no folder"),
        (lambda root: (root / "empty").mkdir() or root / "empty", None, "not an OpenVINO model"),
        (lambda root: embedding_model_folder(root), ModelTask.CHAT, "not a chat model"),
    ],
)
def test_bad_folders_are_refused(
    registry: ModelRegistry, tmp_path: Path, make: object, task: ModelTask | None, message: str
) -> None:
    folder = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(UserError, match=message) as error:
        registry.add_folder(folder, task)
    assert error.value.field == "model"
    assert registry.models() == []


def test_a_chat_model_without_its_tokenizer_is_refused(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    folder = fake_model_folder(tmp_path)
    (folder / "openvino_tokenizer.xml").unlink()
    with pytest.raises(UserError, match=r"lacks openvino_tokenizer\.xml"):
        registry.add_folder(folder)


def test_copies_are_owned_and_deleted_in_place_folders_are_only_forgotten(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    source = fake_model_folder(tmp_path / "src")
    copied = registry.add_folder(source, copy=True)
    assert copied.owned and copied.folder.parent == registry.models_dir
    assert (copied.folder / "openvino_model.xml").is_file()
    embedder = embedding_model_folder(tmp_path)
    (embedder / "openvino_tokenizer.xml").write_text("<net/>")
    in_place = registry.add_folder(embedder, ModelTask.EMBEDDING)
    with pytest.raises(UserError, match="already installed"):
        registry.add_folder(embedder, ModelTask.EMBEDDING)
    registry.remove(copied.id)
    registry.remove(in_place.id)
    assert not copied.folder.exists() and source.is_dir() and in_place.folder.is_dir()
    assert registry.models() == [] and registry.total_size() == 0
    assert list(registry.models_dir.iterdir()) == []


def test_ids_stay_unique(registry: ModelRegistry, tmp_path: Path) -> None:
    first = registry.add_folder(fake_model_folder(tmp_path / "a"))
    second = registry.add_folder(fake_model_folder(tmp_path / "b"))
    assert (first.id, second.id) == ("tiny-chat", "tiny-chat-2")
    with pytest.raises(UserError, match="No installed model has the id"):
        registry.get("nope")


def test_an_unreadable_registry_is_set_aside(registry: ModelRegistry) -> None:
    registry.file.parent.mkdir(parents=True)
    registry.file.write_text("{broken")
    assert registry.models() == []
    assert list(registry.file.parent.glob("models.broken-*.json"))
