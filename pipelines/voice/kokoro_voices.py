"""Kokoro's voices: style packs, read and checked, and blends of two of them.

A Kokoro voice is a *style pack*: ``[510, 1, 256]`` float32, one 256-d style vector per
phoneme-sequence length (row ``n − 1`` for ``n`` phonemes; the model's context is 512 tokens,
two of them the boundary pads). The packs ship in an ``.npz`` file, one array per voice name.
A pack with another shape or a NaN would give silence or a crash deep inside the model, so each
is checked when read and again when given to :meth:`KokoroSynthesizer.speak`.

Blending is linear in style space (what Kokoro's own tools do): ``(1 − w)·a + w·b`` row by row.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipelines.core import InvalidInputError, ModelLoadError

PACK_ROWS = 510
STYLE_SIZE = 256
PACK_SHAPE = (PACK_ROWS, 1, STYLE_SIZE)
MAX_PACKS_BYTES = 64 << 20
"""A voice file larger than this is refused before it is read (five packs take 2.6 MB)."""

StylePack = npt.NDArray[np.float32]


@dataclass(frozen=True)
class VoiceBlend:
    """Two packs mixed: ``weight`` 0 is ``first`` alone, 1 is ``second`` alone."""

    first: StylePack
    second: StylePack
    weight: float = 0.5


KokoroVoice = StylePack | VoiceBlend


def check_pack(pack: npt.ArrayLike, name: str = "The voice") -> StylePack:
    """``pack`` as a contiguous float32 ``[510, 1, 256]`` array (a ``[510, 256]`` one is given
    its middle axis).

    Raises:
        InvalidInputError: another shape, or values that are not finite (``field="voice"``).
    """
    array = np.asarray(pack)
    if array.shape == (PACK_ROWS, STYLE_SIZE):
        array = array.reshape(PACK_SHAPE)
    if array.shape != PACK_SHAPE or not np.issubdtype(array.dtype, np.floating):
        raise InvalidInputError(
            f"{name} is not a Kokoro voice: a voice has {PACK_ROWS} × {STYLE_SIZE} style values, "
            f"this one has the shape {array.shape}.",
            field="voice",
        )
    if not np.isfinite(array).all():
        raise InvalidInputError(
            f"{name} is damaged: some of its style values are not numbers.", field="voice"
        )
    return np.ascontiguousarray(array, dtype=np.float32)


def resolve_voice(voice: KokoroVoice) -> StylePack:
    """The one pack ``voice`` stands for (a blend mixed), checked.

    Raises:
        InvalidInputError: a damaged pack, or a blend weight outside [0, 1] (``field="voice"``).
    """
    if not isinstance(voice, VoiceBlend):
        return check_pack(voice)
    weight = float(voice.weight)
    if not 0.0 <= weight <= 1.0:
        raise InvalidInputError(
            f"A blend of two voices takes a weight from 0 to 1, not {weight:g}.", field="voice"
        )
    first = check_pack(voice.first, "The first voice of the blend")
    second = check_pack(voice.second, "The second voice of the blend")
    return np.ascontiguousarray((1.0 - weight) * first + weight * second, dtype=np.float32)


def style_for(pack: StylePack, phonemes: int) -> npt.NDArray[np.float32]:
    """The ``[1, 256]`` style row for a sequence of ``phonemes`` tokens (1–510)."""
    row = min(max(phonemes, 1), PACK_ROWS) - 1
    return np.ascontiguousarray(pack[row].reshape(1, STYLE_SIZE))


def read_voice_packs(path: Path) -> dict[str, StylePack]:
    """Every pack in the ``.npz`` file ``path``, by name, each checked.

    Raises:
        ModelLoadError: missing, too large, not an ``.npz``, empty, or holding a damaged pack
            (``field="voice"``: the message names the pack).
    """
    try:
        size = path.stat().st_size
    except OSError:
        raise ModelLoadError(f"The voice file {path} is missing.", field="voice") from None
    if size > MAX_PACKS_BYTES:
        raise ModelLoadError(
            f"{path.name} is {size / 2**20:.0f} MB; Kokoro voice files are a few MB.",
            field="voice",
        )
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ModelLoadError(
            f"{path.name} is not a Kokoro voice file (an .npz of style packs): {error}.",
            field="voice",
        ) from None
    if not arrays:
        raise ModelLoadError(f"{path.name} holds no voices.", field="voice")
    packs: dict[str, StylePack] = {}
    for name, array in arrays.items():
        try:
            packs[name] = check_pack(array, f"The voice “{name}” in {path.name}")
        except InvalidInputError as error:
            raise ModelLoadError(str(error), field="voice") from None
    return packs
