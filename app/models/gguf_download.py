"""Downloading one GGUF file of a hub repository (``models pull REPO --file NAME.gguf``).

A GGUF repository holds one model per file (its quantizations), so one file is fetched, with
the machinery of :mod:`app.models.download`: resumable ``.part`` file, size and LFS sha256
checked against the hub's listing, one download per model at a time (a lock file). The name
asked for is untrusted input: it must be a plain file path that the repository's listing
holds, ending in ``.gguf``; it is stored flat (``sub/dir/x.gguf`` becomes ``x.gguf``) in a
folder of its own, so nothing is written outside the models folder. The verified file is
read with the ``gguf`` package before it is installed: one OpenVINO GenAI could not run
(damaged, cut short, not GGUF, no tokenizer, an architecture or weight type its reader lacks)
is refused and deleted, and no entry is written.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from app.core.errors import StorageError, UserError
from app.core.texts import tr
from app.models.download import PART_SUFFIX, Downloader
from app.models.download_checks import check_free_space, verify_file
from app.models.download_meter import DownloadProgress, Meter
from app.models.hub_files import (
    RemoteFile,
    gguf_choices,
    gguf_file_name,
    model_id_of,
    shown_name,
)
from app.models.registry import InstalledModel, gguf_model_id
from pipelines.core import CancelToken
from pipelines.gguf import (
    GgufInfo,
    check_tokenizer,
    is_gguf_path,
    read_gguf_info,
    unsupported_reason,
)


def download_gguf(
    downloader: Downloader,
    hub_id: str,
    name: str,
    cancel: CancelToken | None = None,
    on_progress: Callable[[DownloadProgress], None] | None = None,
    *,
    licence: str = "",
) -> InstalledModel:
    """Download the GGUF file ``name`` of ``hub_id``, verify it, check it runs here, and
    register it as the app's own copy (``models_dir/<id>/<file>.gguf``).

    Raises:
        UserError: a bad hub id or file name, a name the repository does not list, offline,
            not enough disk space, bytes that do not match the listing, a file OpenVINO
            GenAI cannot run, or the model already installed; nothing is registered.
        BusyError: the same file is being downloaded (here or by another process).
        Cancelled: ``cancel`` was set; what arrived stays to resume later.
    """
    cancel = cancel or CancelToken()
    hub_id = hub_id.strip()
    model_id_of(hub_id)  # a valid repository id before anything else
    stored = gguf_file_name(hub_id, name)
    model_id = gguf_model_id(stored)
    registry = downloader.registry
    models_dir = registry.models_dir
    final = models_dir / model_id
    if final.exists() or final.is_symlink() or any(m.id == model_id for m in registry.models()):
        raise UserError(
            tr("{model_id} is already installed.").format(model_id=model_id), field="model"
        )
    with downloader.claim(model_id) as staging:
        files, revision = downloader.remote_files(hub_id, staging)
        remote = _listed(hub_id, name, files)
        _keep_only(staging, stored)
        check_free_space(models_dir, remote.size)
        meter = Meter(remote.size, on_progress, cancel)
        downloader.fetch(hub_id, revision, remote, staging, meter, stored_as=stored)
        verify_file(staging / stored, remote)
        try:
            info = _runnable_info(staging / stored)
        except UserError:
            shutil.rmtree(staging, ignore_errors=True)  # verified, but useless: not kept
            raise
        staging.rename(final)
        try:
            return registry.register_owned_gguf(
                final / stored, info, source="catalog", hub_id=hub_id, licence=licence
            )
        except (UserError, StorageError):
            shutil.rmtree(final, ignore_errors=True)
            raise


def _listed(hub_id: str, name: str, files: list[RemoteFile]) -> RemoteFile:
    """The listing's entry of ``name``.

    Raises:
        UserError: the repository does not list it; the sentence names the GGUF files it has.
    """
    for remote in files:
        if remote.name == name:
            return remote
    ggufs = [f for f in files if is_gguf_path(Path(f.name))]
    choices = f"its GGUF files are {gguf_choices(ggufs)}" if ggufs else "it has no GGUF file"
    raise UserError(
        tr("{hub_id} has no file “{file}”: {choices}.").format(
            hub_id=hub_id, file=shown_name(name), choices=choices
        ),
        field="model",
    )


def _keep_only(staging: Path, stored: str) -> None:
    """Leave in the staging folder only this file (or its part): an earlier, different
    download into the same folder would otherwise be installed with it."""
    if not staging.is_dir():
        return
    keep = {stored, stored + PART_SUFFIX}
    for entry in staging.iterdir():
        if entry.name in keep:
            continue
        if entry.is_dir():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def _runnable_info(path: Path) -> GgufInfo:
    """The file's metadata, read and checked as ``models add`` does.

    Raises:
        UserError: not a complete GGUF file, no tokenizer inside, or a model this OpenVINO's
            GGUF reader cannot build (``field="model"``).
    """
    info = read_gguf_info(path)  # its InvalidInputError is a UserError
    check_tokenizer(path, info)
    unsupported = unsupported_reason(path, info)
    if unsupported:
        raise UserError(unsupported, field="model")
    return info
