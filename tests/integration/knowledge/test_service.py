"""KnowledgeService end to end: every format, bad files, incremental re-index, cancel, search."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.paths import AppPaths
from app.knowledge.database.embedded import DatabaseError
from app.knowledge.service import IngestProgress
from pipelines.core import CancelToken
from tests.documents import write_docx, write_pdf

pytestmark = pytest.mark.integration
CPU = [DeviceInfo("CPU", "Test CPU")]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus"
    (folder / "sub").mkdir(parents=True)
    (folder / "trams.txt").write_text("Lisbon's yellow trams climb steep hills.", encoding="utf-8")
    (folder / "notes.md").write_text("# Error codes\n\nError XJ-4471 means recalibrate.")
    write_pdf(folder / "guide.pdf", ["Page one is about bridges.", "Page two: sourdough bread."])
    write_docx(folder / "sub" / "report.docx", ["The rocket reached orbit after nine minutes."])
    (folder / "sub" / "page.html").write_text("<p>Simmer tomatoes with garlic.</p>")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 garbage")
    (folder / "binary.txt").write_bytes(b"\x00\x01\x02" * 50)
    (folder / "empty.md").write_bytes(b"")
    (folder / ".hidden").mkdir()
    (folder / ".hidden" / "secret.txt").write_text("never indexed")
    return folder


def test_ingest_every_format_and_report_bad_files(
    knowledge_context: AppContext, corpus: Path
) -> None:
    seen: list[IngestProgress] = []
    report = knowledge_context.knowledge.ingest("Docs", [corpus], on_progress=seen.append)
    assert sorted(Path(p).name for p in report.added) == [
        "guide.pdf",
        "notes.md",
        "page.html",
        "report.docx",
        "trams.txt",
    ]
    failed = {Path(path).name: message for path, message in report.failed}
    assert set(failed) == {"broken.pdf", "binary.txt", "empty.md"}
    assert "not a valid PDF" in failed["broken.pdf"]
    assert report.chunks >= 5 and not report.cancelled
    assert seen[-1].files_done == seen[-1].files_total == 8
    [collection] = knowledge_context.knowledge.collections()
    assert (collection.name, collection.documents) == ("Docs", 5)


def test_search_cites_file_and_page(knowledge_context: AppContext, corpus: Path) -> None:
    knowledge_context.knowledge.ingest("Docs", [corpus])
    [hit] = knowledge_context.knowledge.search("Docs", "how do I bake bread?", k=1)
    assert Path(hit.path).name == "guide.pdf" and hit.page == 2
    [keyword] = knowledge_context.knowledge.search("Docs", "XJ-4471", k=1)
    assert Path(keyword.path).name == "notes.md"


def test_reindex_skips_updates_and_removes(knowledge_context: AppContext, corpus: Path) -> None:
    knowledge_context.knowledge.ingest("Docs", [corpus])
    again = knowledge_context.knowledge.ingest("Docs", [corpus])
    assert len(again.skipped) == 5 and not again.added and again.chunks == 0
    (corpus / "trams.txt").write_text("Porto has a famous iron bridge.", encoding="utf-8")
    (corpus / "sub" / "page.html").unlink()
    changed = knowledge_context.knowledge.ingest("Docs", [corpus])
    assert [Path(p).name for p in changed.updated] == ["trams.txt"]
    assert [Path(p).name for p in changed.removed] == ["page.html"]
    assert knowledge_context.knowledge.collections()[0].documents == 4


def test_cancel_keeps_whole_documents_and_resume_finishes(
    knowledge_context: AppContext, corpus: Path
) -> None:
    cancel = CancelToken()

    def stop_after_five(progress: IngestProgress) -> None:
        # Sorted order: binary.txt, broken.pdf, empty.md fail; guide.pdf, notes.md are stored.
        if progress.files_done == 5:
            cancel.cancel()

    report = knowledge_context.knowledge.ingest("Docs", [corpus], cancel, stop_after_five)
    assert report.cancelled
    store = knowledge_context.knowledge.start()
    collection = knowledge_context.knowledge.collection("Docs")
    documents = store.documents(collection)
    assert sorted(Path(d.path).name for d in documents) == ["guide.pdf", "notes.md"]
    assert all(d.chunks > 0 for d in documents)
    resumed = knowledge_context.knowledge.ingest("Docs", [corpus])
    assert len(resumed.skipped) == len(documents)
    assert len(resumed.added) == 5 - len(documents)


def test_model_mismatch_is_refused_with_reindex_advice(knowledge_context: AppContext) -> None:
    store = knowledge_context.knowledge.start()
    store.create_collection("Old", "bge-base-en-v1.5", 768)
    with pytest.raises(UserError, match="Re-index the collection"):
        knowledge_context.knowledge.search("Old", "anything")


def test_query_errors(knowledge_context: AppContext, corpus: Path) -> None:
    with pytest.raises(UserError, match="no collection named"):
        knowledge_context.knowledge.search("Nope", "x")
    knowledge_context.knowledge.ingest("Docs", [corpus / "trams.txt"])
    with pytest.raises(UserError, match="Type something"):
        knowledge_context.knowledge.search("Docs", "   ")
    long_query = "trams " * 2000  # far past the model's 256-token limit: truncated, not refused
    assert knowledge_context.knowledge.search("Docs", long_query, k=1)


def test_missing_paths_are_reported(knowledge_context: AppContext, tmp_path: Path) -> None:
    (tmp_path / "trams.txt").write_text("Lisbon's yellow trams climb steep hills.")
    report = knowledge_context.knowledge.ingest(
        "Docs", [tmp_path / "nope.txt", tmp_path / "trams.txt"]
    )
    assert report.failed == [(str((tmp_path / "nope.txt").resolve()), "not found")]
    assert [Path(path).name for path in report.added] == ["trams.txt"]


def test_nothing_to_add_creates_nothing(knowledge_context: AppContext, tmp_path: Path) -> None:
    """A missing path, an empty folder, only unsupported files: one sentence, no collection."""
    missing = tmp_path / "nope"
    with pytest.raises(UserError, match=r"nope does not exist\.$") as error:
        knowledge_context.knowledge.ingest("Docs", [missing])
    assert error.value.field == "paths"
    with pytest.raises(UserError, match=r"None of these exist: .*nope, .*gone\.$"):
        knowledge_context.knowledge.ingest("Docs", [missing, tmp_path / "gone"])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(UserError, match=r"Nothing to add: the folder .*empty has no \.bmp, \.csv"):
        knowledge_context.knowledge.ingest("Docs", [empty])
    pictures = tmp_path / "pictures"
    (pictures / ".hidden").mkdir(parents=True)
    (pictures / "photo.heic").write_bytes(b"\x00\x00\x00\x18ftypheic")  # no decoder
    (pictures / ".hidden" / "notes.txt").write_text("hidden files are not read")
    with pytest.raises(
        UserError, match=r"\.pdf, .*\.webp, \.xlsx or source code files \(hidden files"
    ):
        knowledge_context.knowledge.ingest("Docs", [pictures])
    with pytest.raises(UserError, match=r"photo\.heic is not a supported type .*\.docx"):
        knowledge_context.knowledge.ingest("Docs", [pictures / "photo.heic"])
    assert knowledge_context.knowledge.collections() == []


def test_an_emptied_folder_still_removes_its_documents(
    knowledge_context: AppContext, tmp_path: Path
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "trams.txt").write_text("Lisbon's yellow trams climb steep hills.")
    knowledge_context.knowledge.ingest("Docs", [folder])
    (folder / "trams.txt").unlink()
    report = knowledge_context.knowledge.ingest("Docs", [folder])  # nothing to add, one to remove
    assert [Path(path).name for path in report.removed] == ["trams.txt"]
    assert knowledge_context.knowledge.documents("Docs") == []
    with pytest.raises(UserError, match="Nothing to add"):  # and now nothing to do at all
        knowledge_context.knowledge.ingest("Docs", [folder])


def test_unreachable_external_server(app_home: AppPaths, embedding_model_dir: Path) -> None:
    ctx = AppContext.create(app_home, CPU)
    ctx.settings.database_url = "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"
    with pytest.raises(DatabaseError, match="Cannot reach the database server"):
        ctx.knowledge.collections()


def test_the_ocr_switch_follows_a_renamed_collection_and_goes_with_a_deleted_one(
    knowledge_context: AppContext,
) -> None:
    knowledge, store = knowledge_context.knowledge, knowledge_context.settings_store
    knowledge.create_collection("Scans")
    knowledge.create_collection("Photos")
    store.update(collections_without_ocr=["Scans", "Elsewhere"])
    knowledge.rename_collection("Scans", "Receipts")
    assert store.settings.collections_without_ocr == ["Elsewhere", "Receipts"]
    knowledge.rename_collection("Photos", "Pictures")  # its switch is on: nothing to move
    assert store.settings.collections_without_ocr == ["Elsewhere", "Receipts"]
    knowledge.delete_collection("Receipts")
    assert store.settings.collections_without_ocr == ["Elsewhere"]
    knowledge.create_collection("Receipts")  # a new one of that name reads its pictures
    assert "Receipts" not in store.settings.collections_without_ocr
