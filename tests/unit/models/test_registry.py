"""The installed-model registry: tasks, contracts, precision, copies, missing folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.registry import ModelRegistry
from tests.ui.fakes import embedding_model_folder, fake_model_folder


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "data" / "models.json", tmp_path / "data" / "models")


def test_real_fixture_models_are_recognised_with_their_precision(
    registry: ModelRegistry,
    chat_model_dir: Path,
    int4_model_dir: Path,
    embedding_model_dir: Path,
    reranker_model_dir: Path,
) -> None:
    chat = registry.add_folder(int4_model_dir)
    int8 = registry.add_folder(chat_model_dir)
    embedder = registry.add_folder(embedding_model_dir)
    reranker = registry.add_folder(reranker_model_dir)
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
    assert registry.models() == []
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


# -- damaged entries and files (issue 12, item 9) ----------------------------------------------


def _write_entries(registry: ModelRegistry, entries: list[object]) -> None:
    registry.file.parent.mkdir(parents=True, exist_ok=True)
    registry.file.write_text(json.dumps({"version": 1, "models": entries}), encoding="utf-8")


BAD_ENTRIES = {
    "text size_bytes": ({"size_bytes": "4 GB"}, "“size_bytes” is not a number"),
    "numeric folder": ({"folder": 5}, "“folder” is not text"),
    "relative folder": ({"folder": "models/x"}, "not an absolute path"),
    "unknown task": ({"task": "telepathy"}, "“telepathy” is not a task"),
    "no id": ({"id": None}, "“id” is missing"),
    "text owned": ({"owned": "yes"}, "“owned” is not true or false"),
    "negative added": ({"added": -1}, "“added” is not a number"),
    "list task": ({"task": ["chat"]}, "“task” is not text"),
}


@pytest.mark.parametrize(("change", "reason"), BAD_ENTRIES.values(), ids=BAD_ENTRIES.keys())
def test_a_bad_entry_is_broken_and_the_others_work(
    registry: ModelRegistry, tmp_path: Path, change: dict[str, object], reason: str
) -> None:
    good = registry.add_folder(fake_model_folder(tmp_path / "good"))
    entry = json.loads(registry.file.read_text())["models"][0]
    bad = {**entry, "id": "bad", "folder": str(fake_model_folder(tmp_path / "bad")), **change}
    _write_entries(registry, [entry, bad])
    models = {model.id: model for model in registry.models()}
    assert models[good.id].usable and models[good.id].status == "ok"
    [broken] = [model for model in models.values() if model.id != good.id]
    assert broken.status == "broken" and not broken.usable
    assert (
        reason in broken.problems[0]
        and "entry in the model list is damaged" in (broken.problems[0])
    )
    assert [m.id for m in registry.models(ModelTask.CHAT) if m.usable] == [good.id]
    # Adding another model keeps the broken entry for the user to see and remove.
    registry.add_folder(fake_model_folder(tmp_path / "third", "third"))
    assert len(json.loads(registry.file.read_text())["models"]) == 3
    registry.remove(broken.id)
    assert sorted(m.id for m in registry.models()) == sorted([good.id, "third"])
    assert (tmp_path / "bad" / "tiny-chat").is_dir()  # a damaged entry's folder is kept


def test_entries_that_are_not_objects_get_a_removable_id(registry: ModelRegistry) -> None:
    _write_entries(registry, [3, "chat", None])
    models = registry.models()
    assert [m.id for m in models] == ["entry-1", "entry-2", "entry-3"]
    assert all(m.status == "broken" and "not a JSON object" in m.problems[0] for m in models)
    registry.remove("entry-2")
    assert json.loads(registry.file.read_text())["models"] == [3, None]


def test_a_damaged_owned_entry_never_deletes_its_folder(
    registry: ModelRegistry, tmp_path: Path
) -> None:
    copy = registry.add_folder(fake_model_folder(tmp_path / "src"), copy=True)
    entry = json.loads(registry.file.read_text())["models"][0]
    _write_entries(registry, [{**entry, "size_bytes": "lots"}])
    [model] = registry.models()
    assert model.status == "broken" and not model.owned
    registry.remove(model.id)
    assert registry.models() == [] and (copy.folder / "openvino_model.xml").is_file()


WHOLE_FILE_DAMAGE = {
    "not UTF-8": b'{"models": ["\xff"]}',
    "UTF-16": json.dumps({"models": []}).encode("utf-16"),
    "nested": b'{"models": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "not an object": b"[]",
    "models not a list": b'{"models": {"id": "x"}}',
    "a huge number": b'{"models": [{"size_bytes": 1e999}]}',
}


@pytest.mark.parametrize("content", WHOLE_FILE_DAMAGE.values(), ids=WHOLE_FILE_DAMAGE.keys())
def test_a_damaged_model_list_is_set_aside_once(
    registry: ModelRegistry, tmp_path: Path, content: bytes
) -> None:
    registry.file.parent.mkdir(parents=True)
    registry.file.write_bytes(content)
    assert registry.check_file() == registry.problems
    [problem] = registry.problems
    assert "model list was damaged" in problem
    [backup] = registry.file.parent.glob("models.broken-*.json")
    assert backup.read_bytes() == content and str(backup) in problem
    added = registry.add_folder(fake_model_folder(tmp_path))
    again = ModelRegistry(registry.file, registry.models_dir)
    assert [m.id for m in again.models()] == [added.id] and again.problems == []
