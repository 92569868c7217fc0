"""Managing collections and documents: names, file states, re-index and model rebuilds."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from app.context import AppContext
from app.core.errors import BusyError, UserError
from app.core.model_tasks import ModelTask
from app.knowledge.service import IngestProgress
from pipelines.core import CancelToken
from pipelines.rag.chunking import Chunk
from tests.documents import write_pdf

pytestmark = pytest.mark.integration


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    tram = tmp_path / "trams.txt"
    tram.write_text("Lisbon's yellow trams climb steep hills.", encoding="utf-8")
    bread = tmp_path / "bread.md"
    bread.write_text("Sourdough bread needs a starter and a long rise.", encoding="utf-8")
    guide = tmp_path / "guide.pdf"
    write_pdf(guide, ["Page one is about bridges.", "Page two is about rivers."])
    return [tram, bread, guide]


def test_create_rename_delete(knowledge_context: AppContext) -> None:
    knowledge = knowledge_context.knowledge
    created = knowledge.create_collection("  Team   notes ")
    assert created.name == "Team notes" and created.dim == 384
    with pytest.raises(UserError, match="already exists") as taken:
        knowledge.create_collection("Team notes")
    assert taken.value.field == "collection"
    with pytest.raises(UserError, match="needs a name"):
        knowledge.create_collection("   ")
    knowledge.create_collection("Other")
    with pytest.raises(UserError, match="already exists"):
        knowledge.rename_collection("Other", "Team notes")
    renamed = knowledge.rename_collection("Team notes", "Project")
    assert renamed.id == created.id
    assert [c.name for c in knowledge.collections()] == ["Other", "Project"]
    knowledge.delete_collection("Project")
    assert [c.name for c in knowledge.collections()] == ["Other"]
    with pytest.raises(UserError, match="no collection named"):
        knowledge.delete_collection("Project")


def test_documents_show_the_state_of_their_files(
    knowledge_context: AppContext, files: list[Path]
) -> None:
    knowledge_context.knowledge.ingest("Docs", files)
    rows = {row.name: row for row in knowledge_context.knowledge.documents("Docs")}
    assert {name: row.status for name, row in rows.items()} == {
        "bread.md": "indexed",
        "guide.pdf": "indexed",
        "trams.txt": "indexed",
    }
    assert rows["guide.pdf"].pages == 2 and rows["trams.txt"].pages is None
    assert all(row.chunks >= 1 and row.added_at for row in rows.values())
    files[0].write_text("Porto has a famous iron bridge.", encoding="utf-8")
    os.utime(files[0], (1_000_000_000, 1_000_000_000))
    files[1].unlink()
    states = {row.name: row.status for row in knowledge_context.knowledge.documents("Docs")}
    assert states == {"bread.md": "missing", "guide.pdf": "indexed", "trams.txt": "changed"}


def test_remove_documents_keeps_the_files(knowledge_context: AppContext, files: list[Path]) -> None:
    knowledge_context.knowledge.ingest("Docs", files)
    assert knowledge_context.knowledge.remove_documents("Docs", [str(files[0])]) == 1
    assert sorted(r.name for r in knowledge_context.knowledge.documents("Docs")) == [
        "bread.md",
        "guide.pdf",
    ]
    assert files[0].exists()
    hits = knowledge_context.knowledge.search("Docs", "yellow trams", k=5)
    assert hits and all(Path(hit.path).name != "trams.txt" for hit in hits)


def test_reindex_updates_changed_and_drops_missing(
    knowledge_context: AppContext, files: list[Path]
) -> None:
    knowledge_context.knowledge.ingest("Docs", files)
    files[0].write_text("Porto has a famous iron bridge over the Douro.", encoding="utf-8")
    files[1].unlink()
    report = knowledge_context.knowledge.reindex("Docs")
    assert [Path(p).name for p in report.updated] == ["trams.txt"]
    assert [Path(p).name for p in report.removed] == ["bread.md"]
    assert [Path(p).name for p in report.skipped] == ["guide.pdf"]
    [hit] = knowledge_context.knowledge.search("Docs", "iron bridge in Porto", k=1)
    assert Path(hit.path).name == "trams.txt" and "Douro" in hit.text


def _old_model_collection(knowledge_context: AppContext, files: list[Path]) -> None:
    """A collection indexed by "another model": same size vectors, foreign model id."""
    store = knowledge_context.knowledge.start()
    old = store.create_collection("Old", "some-other-model", 384)
    for index, path in enumerate(files[:2]):
        vectors = np.random.default_rng(index).standard_normal((1, 384)).astype(np.float32)
        store.replace_document(old, path, f"hash{index}", 0.0, None, [Chunk(0, None, "x")], vectors)


def test_reindex_rebuilds_a_collection_of_another_model(
    knowledge_context: AppContext, files: list[Path]
) -> None:
    _old_model_collection(knowledge_context, files)
    with pytest.raises(UserError, match="Re-index"):
        knowledge_context.knowledge.search("Old", "trams")
    report = knowledge_context.knowledge.reindex("Old")
    assert sorted(Path(p).name for p in report.updated) == ["bread.md", "trams.txt"]
    [collection] = knowledge_context.knowledge.collections()
    assert collection.name == "Old" and collection.embedding_model != "some-other-model"
    [hit] = knowledge_context.knowledge.search("Old", "yellow trams on hills", k=1)
    assert Path(hit.path).name == "trams.txt"


def test_a_stopped_rebuild_keeps_the_old_index(
    knowledge_context: AppContext, files: list[Path]
) -> None:
    _old_model_collection(knowledge_context, files)
    cancel = CancelToken()

    def stop_after_first(progress: IngestProgress) -> None:
        if progress.files_done == 1:
            cancel.cancel()

    report = knowledge_context.knowledge.reindex("Old", cancel, stop_after_first)
    assert report.cancelled
    [collection] = knowledge_context.knowledge.collections()
    assert (collection.name, collection.embedding_model) == ("Old", "some-other-model")
    assert collection.documents == 2


def test_one_writer_at_a_time(knowledge_context: AppContext, files: list[Path]) -> None:
    knowledge_context.knowledge.create_collection("Docs")
    blocked = CancelToken()

    def try_while_busy(progress: IngestProgress) -> None:
        if progress.files_done == 0 and not blocked.cancelled:
            blocked.cancel()
            with pytest.raises(BusyError):
                knowledge_context.knowledge.delete_collection("Docs")
            with pytest.raises(BusyError):
                knowledge_context.knowledge.reindex("Docs")

    report = knowledge_context.knowledge.ingest("Docs", files, on_progress=try_while_busy)
    assert blocked.cancelled and report.stored == 3


def test_external_database_info(knowledge_context: AppContext) -> None:
    info = knowledge_context.knowledge.info()
    assert (info.mode, info.running) == ("external", False)
    knowledge_context.knowledge.collections()
    info = knowledge_context.knowledge.info()
    assert info.running and info.size_bytes > 1_000_000
    assert "password" not in info.location


def test_a_changed_model_setting_is_loaded_on_next_use(
    knowledge_context: AppContext, embedding_model_dir: Path, tmp_path: Path
) -> None:
    first = knowledge_context.knowledge.embedder()
    assert knowledge_context.knowledge.embedder() is first  # loaded once
    copy = tmp_path / "minilm-copy"
    copy.symlink_to(embedding_model_dir, target_is_directory=True)
    knowledge_context.settings.models = knowledge_context.settings.models.with_folder(
        ModelTask.EMBEDDING, copy
    )
    second = knowledge_context.knowledge.embedder()
    assert second is not first and second.config.model_dir == copy


def test_a_rebuild_in_progress_is_not_listed_and_leftovers_are_cleared(
    knowledge_context: AppContext, files: list[Path]
) -> None:
    _old_model_collection(knowledge_context, files)
    seen: list[list[str]] = []

    def look(progress: IngestProgress) -> None:
        seen.append([c.name for c in knowledge_context.knowledge.collections()])

    store = knowledge_context.knowledge.start()
    store.create_collection("Old (re-indexing 20260101000000000000)", "x", 384)  # a crash's
    knowledge_context.knowledge.reindex("Old", on_progress=look)
    assert seen and all(names == ["Old"] for names in seen)
    assert [c.name for c in store.collections()] == ["Old"]


def test_choosing_another_embedding_model(
    knowledge_context: AppContext, embedding_model_dir: Path, chat_model_dir: Path, tmp_path: Path
) -> None:
    knowledge_context.knowledge.create_collection("Docs")
    with pytest.raises(UserError, match="is a chat model, not an OpenVINO embedding") as error:
        knowledge_context.knowledge.use_embedding_model(chat_model_dir)
    assert error.value.field == "embedding_model"
    assert (
        knowledge_context.settings.model_choice(ModelTask.EMBEDDING).folder == embedding_model_dir
    )  # the previous one stays
    copy = tmp_path / "bge-stand-in"
    shutil.copytree(embedding_model_dir, copy)
    config = json.loads((copy / "config.json").read_text())
    (copy / "config.json").write_text(json.dumps({**config, "_name_or_path": "bge-stand-in"}))
    embedder = knowledge_context.knowledge.use_embedding_model(copy)
    assert embedder.config.model_dir == copy and embedder.dim == 384
    with pytest.raises(UserError, match="Re-index the collection"):
        knowledge_context.knowledge.search("Docs", "anything")  # indexed with the other model id
