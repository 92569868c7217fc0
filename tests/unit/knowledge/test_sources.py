"""Which files an ingest reads: folders walked without following links out of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.knowledge.sources import expand_sources, nothing_to_add, stored_files


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """Files the user never chose: a secret, and a folder of other documents."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "other").mkdir(parents=True)
    (elsewhere / "shadow").write_text("root:$6$secret-hash:19000:0:99999:7:::")
    (elsewhere / "other" / "plan.txt").write_text("Not part of the chosen folder.")
    return elsewhere


@pytest.fixture
def folder(tmp_path: Path, outside: Path) -> Path:
    chosen = tmp_path / "docs"
    (chosen / "sub").mkdir(parents=True)
    (chosen / "a.txt").write_text("A real document.")
    (chosen / "sub" / "b.md").write_text("Another one, in a sub-folder.")
    (chosen / "notes.txt").symlink_to(outside / "shadow")  # out: not followed
    (chosen / "more").symlink_to(outside / "other", target_is_directory=True)  # out
    (chosen / "gone.txt").symlink_to(outside / "deleted.txt")  # out, and dangling
    (chosen / "shadow").symlink_to(outside / "shadow")  # out, but no document type: unlisted
    (chosen / "latest.md").symlink_to(chosen / "sub" / "b.md")  # in: read once, as b.md
    (chosen / "sub" / "up").symlink_to(chosen, target_is_directory=True)  # a loop of folders
    (chosen / "self.txt").symlink_to(chosen / "self.txt")  # a loop of one link
    (chosen / ".hidden.txt").symlink_to(outside / "shadow")  # hidden: skipped as always
    return chosen


def test_links_out_of_the_folder_are_refused_and_links_inside_read_once(
    folder: Path, outside: Path
) -> None:
    found = expand_sources([folder])
    assert found.files == [folder / "a.txt", folder / "sub" / "b.md"]
    assert found.missing == []
    assert dict(found.refused) == {
        folder / "more": (
            f"more is a link to a folder outside docs ({outside / 'other'}): links that leave "
            "a chosen folder are not followed."
        ),
        folder / "notes.txt": (
            f"notes.txt is a link to a file outside docs ({outside / 'shadow'}): links that "
            "leave a chosen folder are not followed."
        ),
        folder / "gone.txt": (
            f"gone.txt is a link to a file outside docs ({outside / 'deleted.txt'}): links "
            "that leave a chosen folder are not followed."
        ),
    }


def test_a_file_or_folder_picked_directly_is_read_through_its_link(
    tmp_path: Path, folder: Path, outside: Path
) -> None:
    picked = tmp_path / "picked.txt"
    picked.symlink_to(outside / "other" / "plan.txt")
    shortcut = tmp_path / "shortcut"
    shortcut.symlink_to(folder, target_is_directory=True)
    found = expand_sources([picked, shortcut])
    # The user's own choice: stored as the real file and folder it points to.
    assert found.files == [
        outside / "other" / "plan.txt",
        folder / "a.txt",
        folder / "sub" / "b.md",
    ]
    assert [link for link, _ in found.refused] == [
        folder / "more",
        folder / "gone.txt",
        folder / "notes.txt",
    ]


def test_a_stored_document_that_became_a_link_is_not_read_again(
    folder: Path, outside: Path
) -> None:
    replaced = folder / "sub" / "b.md"
    replaced.unlink()
    replaced.symlink_to(outside / "shadow")
    found = stored_files([folder / "a.txt", replaced])
    assert found.files == [folder / "a.txt"]
    assert found.refused == [
        (
            replaced,
            "b.md has become a link since it was added: it is not read again (add the file it "
            "points to itself if you want it).",
        )
    ]


def test_a_folder_of_only_links_out_says_so(tmp_path: Path, outside: Path) -> None:
    only_links = tmp_path / "links"
    only_links.mkdir()
    (only_links / "notes.txt").symlink_to(outside / "shadow")
    (only_links / "plan.txt").symlink_to(outside / "other" / "plan.txt")
    found = expand_sources([only_links])
    assert found.files == [] and len(found.refused) == 2
    assert nothing_to_add([only_links], found).endswith(
        "files (hidden files and folders are skipped; 2 links leading out of it were not followed)."
    )
