"""Pictures written where the user asked (the command line's ``-o``, *Save as…*): checked
before any work, each written whole with its settings inside, never half a file.

A request for several pictures writes ``out.png``, ``out-2.png``, ``out-3.png``…; each goes
through the app's one atomic writer (:func:`pipelines.files.replacing`) with its temp file in
the app's scratch folder, so a Ctrl+C or a kill leaves nothing in the user's folder.
"""

from __future__ import annotations

from pathlib import Path

from app.core.errors import StorageError
from app.core.texts import tr
from app.images.picture_metadata import png_bytes
from pipelines.files import check_output_file, replacing
from pipelines.images import ImageResult, ImageSettings, Picture

SUFFIX = ".png"


def output_paths(output: Path, count: int) -> list[Path]:
    """Where ``count`` pictures asked to go to ``output`` are written."""
    return [
        output if number == 1 else output.with_name(f"{output.stem}-{number}{output.suffix}")
        for number in range(1, count + 1)
    ]


def check_output(output: Path, count: int) -> list[Path]:
    """The paths ``count`` pictures will be written to, once ``output`` is known to be a
    ``.png`` in a folder that exists and can be written.

    Raises:
        InvalidInputError: another suffix, a folder, a missing or read-only folder
            (``field="output"``).
    """
    check_output_file(output.expanduser(), SUFFIX, "Pictures")
    return output_paths(output.expanduser(), count)


def write_pictures(result: ImageResult, output: Path, scratch: Path | None = None) -> list[Path]:
    """Write every picture of ``result`` (see :func:`output_paths`) with its settings.

    Raises:
        InvalidInputError: as :func:`check_output`.
        StorageError: a file could not be written, a full disk say (the earlier ones stay;
            none is half-written; ``field="output"``).
    """
    paths = check_output(output, len(result.pictures))
    for path, picture in zip(paths, result.pictures, strict=True):
        _write(path, png_bytes(picture, result.settings), scratch)
    return paths


def write_picture(
    picture: Picture, settings: ImageSettings | None, output: Path, scratch: Path | None = None
) -> Path:
    """Write one picture, with ``settings`` inside when it has them (an upscaled picture of
    one from outside the app has none).

    Raises:
        InvalidInputError, StorageError: as :func:`write_pictures`.
    """
    path = check_output(output, 1)[0]
    _write(path, png_bytes(picture, settings), scratch)
    return path


def _write(path: Path, data: bytes, scratch: Path | None) -> None:
    try:
        with replacing(path, scratch) as temp:
            temp.write_bytes(data)
    except OSError as error:
        raise StorageError(
            tr("The picture could not be written to {path}: {reason}.").format(
                path=path, reason=error.strerror or error
            ),
            field="output",
        ) from error
