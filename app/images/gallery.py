"""The gallery: every picture made, kept as a PNG that carries its settings, newest first.

The pictures are the truth; the index (``gallery.json``) is a list kept for speed and order.
Saving writes the PNG whole under a temp name and renames it into place, then rewrites the
index atomically; deleting removes the file first, then its index entry. So a kill -9 at any
moment loses nothing committed:

- killed before a PNG's rename: no file, no entry — the picture was never saved;
- killed between the rename and the index: the PNG exists without an entry, and the next
  listing adds it back from the settings inside it;
- killed between a delete and the index: the entry names a missing file, and the next listing
  drops it (a deleted picture never comes back).

Two processes saving at once (the window and the command line) can overwrite each other's
index; the same reconciliation puts any lost entry back. A damaged or hand-edited index is
read as far as it is usable (:mod:`app.images.picture_metadata` checks every value).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.errors import StorageError, UserError
from app.core.storage.atomic import private_folder, write_bytes_atomic, write_text_atomic
from app.core.storage.json_files import Damaged, read_json_object
from app.core.texts import tr
from app.images.picture_metadata import png_bytes, read_settings, stored_settings
from pipelines.images import ImageSettings, Picture

log = logging.getLogger(__name__)

INDEX = "gallery.json"
SUFFIX = ".png"
NAME_STEM = "picture-"
"""Pictures the gallery writes are named ``picture-<time in ms>-<seed>-<n>.png``; other files
in the folder are not the gallery's and are never listed nor deleted."""


@dataclass(frozen=True)
class GalleryItem:
    """One saved picture."""

    path: Path
    created: float
    """Seconds since the epoch."""
    settings: ImageSettings

    @property
    def name(self) -> str:
        """The file's name (what :meth:`Gallery.delete` takes)."""
        return self.path.name


class Gallery:
    """The pictures in ``folder`` (made private on first save); thread-safe within a process."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()

    def save(self, pictures: Sequence[Picture], settings: ImageSettings) -> list[GalleryItem]:
        """Keep each of ``pictures`` (one request's) with ``settings``; the new items.

        Raises:
            StorageError: the folder or a file cannot be written (disk full, no permission);
                pictures already saved stay, the one being written is not left half-made.
        """
        created = time.time()
        stamp = int(created * 1000)
        items = []
        with self._lock:
            try:
                private_folder(self.folder)
                for number, picture in enumerate(pictures, start=1):
                    path = self.folder / f"{NAME_STEM}{stamp}-{settings.seed}-{number}{SUFFIX}"
                    write_bytes_atomic(path, png_bytes(picture, settings))
                    items.append(GalleryItem(path, created, settings))
                entries = self._read_index()
                entries.extend(self._entry(item) for item in items)
                self._write_index(entries)
            except OSError as error:
                raise StorageError(
                    tr("The picture could not be saved in {folder}: {reason}.").format(
                        folder=self.folder, reason=error.strerror or error
                    )
                ) from error
        return items

    def items(self) -> list[GalleryItem]:
        """Every saved picture, newest first (the index brought in line with the files)."""
        with self._lock:
            return self._reconciled()

    def item(self, name: str) -> GalleryItem:
        """The saved picture named ``name``.

        Raises:
            UserError: no such picture (``field="picture"``).
        """
        for item in self.items():
            if item.name == name:
                return item
        raise UserError(
            tr("There is no picture {name} in the gallery.").format(name=name), field="picture"
        )

    def delete(self, name: str) -> None:
        """Delete the saved picture named ``name`` (the file first: see the module docstring).

        Raises:
            UserError: no such picture (``field="picture"``).
            StorageError: the file cannot be removed.
        """
        item = self.item(name)
        with self._lock:
            try:
                item.path.unlink(missing_ok=True)
                entries = [entry for entry in self._read_index() if entry.get("file") != name]
                self._write_index(entries)
            except OSError as error:
                raise StorageError(
                    tr("The picture {name} could not be deleted: {reason}.").format(
                        name=name, reason=error.strerror or error
                    )
                ) from error

    def restore(self, item: GalleryItem, data: bytes) -> None:
        """Put back a picture :meth:`delete` removed (Undo): ``data`` is its file's bytes, read
        before the delete; it takes its old place in the order.

        Raises:
            UserError: ``item`` is not a picture of this gallery (``field="picture"``).
            StorageError: the file cannot be written.
        """
        name = item.name
        if item.path.parent != self.folder or not name.startswith(NAME_STEM):
            raise UserError(
                tr("There is no picture {name} in the gallery.").format(name=name),
                field="picture",
            )
        with self._lock:
            try:
                private_folder(self.folder)
                write_bytes_atomic(item.path, data)
                entries = [entry for entry in self._read_index() if entry.get("file") != name]
                entries.append(self._entry(item))
                self._write_index(entries)
            except OSError as error:
                raise StorageError(
                    tr("The picture could not be saved in {folder}: {reason}.").format(
                        folder=self.folder, reason=error.strerror or error
                    )
                ) from error

    # -- the index ---------------------------------------------------------------------------

    def _reconciled(self) -> list[GalleryItem]:
        files = {path.name: path for path in self._picture_files()}
        items: dict[str, GalleryItem] = {}
        changed = False
        for entry in self._read_index():
            name = entry.get("file")
            settings = stored_settings(entry.get("settings"))
            created = entry.get("created")
            if not isinstance(name, str) or name not in files or name in items:
                changed = True  # a deleted file's entry, a duplicate, or garbage
                continue
            if settings is None or not isinstance(created, int | float):
                changed = True
                continue  # read again from the file below
            items[name] = GalleryItem(files[name], float(created), settings)
        for name, path in files.items():
            if name not in items:
                recovered = self._from_file(path)
                if recovered is not None:
                    items[name] = recovered
                    changed = True
        listed = sorted(items.values(), key=lambda item: (item.created, item.name), reverse=True)
        if changed:
            try:
                self._write_index([self._entry(item) for item in reversed(listed)])
            except OSError as error:  # a read-only gallery still lists
                log.warning("the gallery index could not be rewritten: %s", error)
        return listed

    def _picture_files(self) -> list[Path]:
        try:
            return [
                path
                for path in self.folder.glob(f"{NAME_STEM}*{SUFFIX}")
                if path.is_file() and not path.is_symlink()
            ]
        except OSError:
            return []

    @staticmethod
    def _from_file(path: Path) -> GalleryItem | None:
        """A picture saved without its index entry (a kill between the two writes)."""
        settings = read_settings(path)
        if settings is None:
            return None
        try:
            created = path.stat().st_mtime
        except OSError:
            return None
        return GalleryItem(path, created, settings)

    def _read_index(self) -> list[dict[str, Any]]:
        path = self.folder / INDEX
        try:
            data = read_json_object(path)
        except FileNotFoundError:
            return []
        except OSError as error:
            log.warning("the gallery index cannot be read: %s", error)
            return []
        if isinstance(data, Damaged):
            log.warning("the gallery index is %s: it is rebuilt from the pictures", data.reason)
            return []
        entries = data.get("pictures")
        return (
            [entry for entry in entries if isinstance(entry, dict)]
            if isinstance(entries, list)
            else []
        )

    def _write_index(self, entries: list[dict[str, Any]]) -> None:
        text = json.dumps({"version": 1, "pictures": entries}, ensure_ascii=False, indent=1)
        write_text_atomic(self.folder / INDEX, text)

    @staticmethod
    def _entry(item: GalleryItem) -> dict[str, Any]:
        return {"file": item.name, "created": item.created, "settings": item.settings.as_dict()}
