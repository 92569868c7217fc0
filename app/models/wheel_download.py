"""A model that ships inside a Python wheel: fetched from PyPI, checked, converted in-process.

Why: resemblyzer's GE2E speaker-similarity weights (Apache-2.0) are published only inside its
wheel, and no OpenVINO export exists. The catalog pins the wheel's real PyPI address and
SHA-256; *Download…* fetches it (resumable, like a hub download: a ``.part`` file continued
with a Range request), refuses anything whose hash differs, and converts it with
:mod:`app.models.resemblyzer_convert` (no torch, no toolchain, no code from the file runs).
*Convert…* does the same from a wheel or ``.pt`` the user already has. The model folder
appears whole or not at all; a hostile file (not a zip, a zip bomb, a path-traversal entry —
only the one weights member is ever read, never extracted) is refused in one sentence.

Fetching and checking the pinned file is :mod:`app.models.package_files`'s (shared with the
Kokoro download, :mod:`app.models.kokoro_download`); tests point it at a stand-in server with
``OV_STUDIO_PYPI_FILES_URL``.
"""

from __future__ import annotations

import shutil
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

from app.core.errors import StorageError, UserError
from app.core.model_tasks import ModelTask
from app.core.texts import tr
from app.models.catalog import CatalogEntry
from app.models.download import Downloader
from app.models.download_checks import check_free_space
from app.models.download_meter import DownloadProgress, Meter
from app.models.entries import InstalledModel
from app.models.hub_files import RemoteFile
from app.models.package_files import fetch_packages
from app.models.registry import ModelRegistry
from app.models.resemblyzer_convert import ConversionError, convert
from pipelines.core import Cancelled, CancelToken
from pipelines.openvino_errors import first_line

MODEL_ID = "resemblyzer-ge2e"
CONVERTING = "converting to OpenVINO"
"""The progress line's file name while the wheel is converted (a second or two)."""


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
    downloader = Downloader(registry)
    with downloader.claim(MODEL_ID) as staging:
        check_free_space(registry.models_dir, 2 * entry.size_bytes)  # the wheel and its IR
        meter = Meter(entry.size_bytes, on_progress, cancel)
        (wheel,) = fetch_packages(entry.packages, staging, meter)
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
