"""Downloading a model from the Hugging Face hub: resumable, verified, installed whole.

``huggingface_hub`` provides the hub's API, URLs, headers and HTTP client (it honours
``HF_ENDPOINT``, ``HF_HOME`` and a token). Files arrive as ``.part`` files in a staging folder
and are continued with an HTTP Range request after a kill, a sleep or a dropped connection —
``hf_hub_download`` itself (1.x) restarts a file from zero in every new process. Every file is
then checked against the hub's metadata — size, and sha256 for LFS files — and only a fully
verified folder is renamed into place and registered. A partial or corrupt download is never
shown as installed. One download per model at a time, across processes (a lock file). The hub
id and every listed file name are checked before any byte is fetched (``hub_files.py``): a
name that would land outside the model's folder refuses the whole model.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from app.core.errors import StorageError, UserError
from app.core.model_tasks import TASK_NAMES, ModelTask
from app.core.texts import tr
from app.models.download_checks import check_free_space, verify_file
from app.models.download_lock import download_lock
from app.models.download_meter import DownloadProgress, Meter
from app.models.hub_files import (
    WORKING_SUFFIX,
    RemoteFile,
    check_file_list,
    model_id_of,
    refuse_gguf_only,
    remove_links,
)
from app.models.hub_reach import is_unreachable, unreachable_message
from app.models.inspect import detect_task, read_config, task_from
from app.models.registry import InstalledModel, ModelRegistry
from pipelines.core import Cancelled, CancelToken
from pipelines.openvino_errors import first_line

log = logging.getLogger(__name__)

PART_SUFFIX = WORKING_SUFFIX
CHUNK_BYTES = 1024 * 1024
"""Bytes between progress reports and cancel checks."""
HTTP_TIMEOUT_S = 20.0


def staging_dir(models_dir: Path, model_id: str) -> Path:
    """Where a model's files arrive before they are verified (kept to resume)."""
    return models_dir / f".staging-{model_id}"


class Downloader:
    """Downloads catalog (or any hub) models into the registry's models folder."""

    def __init__(
        self, registry: ModelRegistry, endpoint: str | None = None, token: str | None = None
    ) -> None:
        self.registry = registry
        self.endpoint = endpoint or os.environ.get("HF_ENDPOINT") or None
        self.token = token

    def download(
        self,
        hub_id: str,
        cancel: CancelToken | None = None,
        on_progress: Callable[[DownloadProgress], None] | None = None,
        *,
        task: ModelTask | None = None,
        licence: str = "",
    ) -> InstalledModel:
        """Download ``hub_id``, verify it and register it.

        Raises:
            UserError: unknown id, offline, not enough disk space, a corrupt file, or a folder
                that is not a model of ``task``; nothing is registered.
            BusyError: the same model is being downloaded (here or by another process).
            Cancelled: ``cancel`` was set; the staged files stay to resume later.
        """
        cancel = cancel or CancelToken()
        hub_id = hub_id.strip()
        model_id = model_id_of(hub_id)
        models_dir = self.registry.models_dir
        final = models_dir / model_id
        if final.exists() or final.is_symlink():
            raise UserError(
                tr("{model_id} is already installed in {final}.").format(
                    model_id=model_id, final=final
                ),
                field="model",
            )
        with self.claim(model_id) as staging:
            files, revision = self.remote_files(hub_id, staging)
            refuse_gguf_only(hub_id, files)
            total = sum(f.size for f in files)
            check_free_space(models_dir, total)
            meter = Meter(total, on_progress, cancel)
            if task is not None:
                self._check_task_first(hub_id, revision, files, staging, meter, task)
            for remote in files:
                self.fetch(hub_id, revision, remote, staging, meter)
            for remote in files:
                verify_file(staging / remote.name, remote)
            detected = detect_task(staging)
            if task is not None and detected not in (task, ModelTask.UNKNOWN):
                raise UserError(
                    tr("{hub_id} is not a {task} model.").format(hub_id=hub_id, task=task.value),
                    field="model",
                )
            staging.rename(final)
            try:
                return self.registry.register_owned(
                    final,
                    task or detected,
                    source="catalog",
                    hub_id=hub_id,
                    licence=licence,
                )
            except (UserError, StorageError):
                shutil.rmtree(final, ignore_errors=True)
                raise

    @contextlib.contextmanager
    def claim(self, model_id: str) -> Iterator[Path]:
        """Hold ``model_id``'s download lock and give its staging folder (kept between runs to
        resume; anything a download never writes there removed first).

        Raises:
            BusyError: the same model is being downloaded (here or by another process).
        """
        models_dir = self.registry.models_dir
        models_dir.mkdir(parents=True, exist_ok=True)
        with download_lock(models_dir / f".{model_id}.lock", model_id):
            staging = staging_dir(models_dir, model_id)
            remove_links(staging)  # before the names are resolved against it
            yield staging

    def _check_task_first(
        self,
        hub_id: str,
        revision: str,
        files: list[RemoteFile],
        staging: Path,
        meter: Meter,
        task: ModelTask,
    ) -> None:
        """Refuse a model of another task from its file list and config.json, before the
        gigabytes: only the (small) config is fetched."""
        config: dict[str, Any] = {}
        for remote in files:
            if remote.name == "config.json":
                self.fetch(hub_id, revision, remote, staging, meter)
                config = read_config(staging)
        detected = task_from({f.name for f in files if f.name.endswith(".xml")}, config)
        if detected not in (task, ModelTask.UNKNOWN):
            raise UserError(
                tr("{hub_id} is {kind}, not {wanted}.").format(
                    hub_id=hub_id, kind=TASK_NAMES[detected], wanted=TASK_NAMES[task]
                ),
                field="model",
            )

    def remote_files(self, hub_id: str, staging: Path) -> tuple[list[RemoteFile], str]:
        """The files to fetch and the revision, after every listed name and size is checked.

        Raises:
            UserError: no such model, offline, a malformed answer, or a file list naming
                something outside the model's folder (then nothing is fetched and an earlier
                run's staging folder is removed).
        """
        from huggingface_hub import HfApi
        from huggingface_hub.errors import (
            GatedRepoError,
            HfHubHTTPError,
            RepositoryNotFoundError,
        )

        api = HfApi(endpoint=self.endpoint, token=self.token)
        try:
            info = api.model_info(hub_id, files_metadata=True)
        except RepositoryNotFoundError as error:
            raise UserError(
                tr("There is no model “{hub_id}” on the hub.").format(hub_id=hub_id), field="model"
            ) from error
        except GatedRepoError as error:
            raise UserError(
                tr("“{hub_id}” needs you to accept its licence on the hub and a token.").format(
                    hub_id=hub_id
                ),
                field="model",
            ) from error
        except HfHubHTTPError as error:
            if error.response is not None and error.response.status_code == 404:
                raise UserError(
                    tr("There is no model “{hub_id}” on the hub.").format(hub_id=hub_id),
                    field="model",
                ) from error
            raise UserError(unreachable_message(self.endpoint), field="model") from error
        except OSError as error:
            raise UserError(unreachable_message(self.endpoint), field="model") from error
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            # huggingface_hub builds its ModelInfo from whatever JSON the endpoint sent.
            log.warning("malformed model info for %s", hub_id, exc_info=error)
            raise UserError(
                tr(
                    "The hub's answer about {hub_id} is not a model description ({problem})."
                ).format(hub_id=hub_id, problem=first_line(error, 200)),
                field="model",
            ) from error
        except Exception as error:
            if type(error).__module__.startswith(("httpx", "httpcore")):
                raise UserError(unreachable_message(self.endpoint), field="model") from error
            raise
        siblings = info.siblings or []
        try:
            check_file_list(hub_id, [s.rfilename for s in siblings], staging)
        except UserError:
            shutil.rmtree(staging, ignore_errors=True)  # an earlier run's files of this id
            raise
        files = [
            RemoteFile(s.rfilename, _size_of(hub_id, s), s.lfs.sha256 if s.lfs else "")
            for s in siblings
            if not s.rfilename.startswith(".")
        ]
        if not files:
            raise UserError(tr("“{hub_id}” has no files.").format(hub_id=hub_id), field="model")
        return files, str(info.sha or "main")

    def fetch(
        self,
        hub_id: str,
        revision: str,
        remote: RemoteFile,
        staging: Path,
        meter: Meter,
        stored_as: str = "",
    ) -> None:
        """Fetch ``remote`` into ``staging`` (as ``stored_as``, else under its listed name),
        continuing a ``.part`` file an earlier run left.

        Raises:
            UserError: the connection failed (what arrived is kept to resume).
            Cancelled: the meter's cancel token was set.
        """
        from huggingface_hub import get_session, hf_hub_url, hf_raise_for_status

        # Public and documented (package reference, "Utilities"); the package re-exports it
        # without marking the re-export, which mypy's strict mode flags.
        from huggingface_hub.utils import build_hf_headers  # type: ignore[attr-defined]

        target = staging / (stored_as or remote.name)
        if target.is_file() and target.stat().st_size == remote.size:
            meter.file_done(remote)  # fetched before an interruption: go on past it
            return
        part = target.with_name(target.name + PART_SUFFIX)
        part.parent.mkdir(parents=True, exist_ok=True)
        # The names were checked before the first fetch; a link made since would show here.
        if not part.parent.resolve().is_relative_to(staging.resolve()):
            raise UserError(
                tr("{name} would be written outside {staging}.").format(
                    name=remote.name, staging=staging
                ),
                field="model",
            )
        have = part.stat().st_size if part.is_file() else 0
        if have > remote.size:
            part.unlink()  # not the file the hub has now
            have = 0
        headers = build_hf_headers(token=self.token)
        if have:
            headers["Range"] = f"bytes={have}-"
        url = hf_hub_url(hub_id, remote.name, revision=revision, endpoint=self.endpoint)
        meter.begin(remote, have)
        try:
            if have < remote.size:
                with get_session().stream(
                    "GET", url, headers=headers, follow_redirects=True, timeout=HTTP_TIMEOUT_S
                ) as response:
                    hf_raise_for_status(response)
                    mode = "ab" if have and response.status_code == 206 else "wb"
                    if mode == "wb" and have:
                        meter.begin(remote, 0)  # the server sent the whole file again
                    with _open_part(part, append=mode == "ab") as handle:
                        for chunk in response.iter_bytes(CHUNK_BYTES):
                            meter.advance(len(chunk))  # raises Cancelled before the write
                            handle.write(chunk)
        except Cancelled:
            raise
        except Exception as error:
            log.warning("download of %s/%s failed", hub_id, remote.name, exc_info=error)
            if is_unreachable(error):  # the hub went away between two files
                raise UserError(
                    tr("{unreachable} What arrived is kept: download again to resume.").format(
                        unreachable=unreachable_message(self.endpoint)
                    ),
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


def _open_part(part: Path, *, append: bool) -> BinaryIO:
    """Open a ``.part`` file for writing without following a link planted in its place."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
    flags |= getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    return os.fdopen(os.open(part, flags, 0o644), "ab" if append else "wb")


def _size_of(hub_id: str, sibling: Any) -> int:
    """A listed file's size in bytes (a hostile list could give anything)."""
    size = sibling.size if sibling.size is not None else (sibling.lfs.size if sibling.lfs else 0)
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        raise UserError(
            tr(
                "The model {hub_id} was refused: its file list gives {rfilename} the size {size!r}."
            ).format(hub_id=hub_id, rfilename=sibling.rfilename, size=str(size)[:40]),
            field="model",
        )
    return size
