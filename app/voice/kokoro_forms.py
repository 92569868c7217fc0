"""A library voice's Kokoro form: the style pack derived from its clip, kept in its folder.

Every voice keeps the clip it was made from (``reference.wav``), so any engine can derive its
own form of the voice. SpeechT5's is the x-vector made with the voice; Kokoro's is a style pack
found by :func:`pipelines.voice.kokoro_clone.derive_style` (a search scored by the GE2E speaker
encoder: minutes, so it is made on demand, as a job, and kept).

It is stored as ``kokoro_voice.npz`` in the voice's folder: the pack ``[510, 1, 256]`` float32
and a small JSON record (``meta``: the Kokoro model it was derived for, the encoder that scored
it, the search's similarity to the clip, when). The whole file is written atomically, 0600. It
is keyed by the Kokoro model's identity (the SHA-256 of the ONNX it came from): a pack is only
meaningful to the model it was searched with, so another model reads it as "not made yet" and
derives its own. A damaged file (not an ``.npz``, another shape, NaN, a pickle, too large, a
broken record) is one sentence and is simply derived again.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.core.errors import StorageError, UserError
from app.core.storage.atomic import write_bytes_atomic
from app.core.texts import tr
from app.voice.engines import ClonedVoice
from app.voice.library import Voice
from app.voice.likeness import LIKENESS_FILE
from pipelines.core import CancelToken, InvalidInputError, Progress
from pipelines.voice.audio import MODEL_RATE, read_clip
from pipelines.voice.kokoro_clone import CloneSettings, Embeds, Speaks, derive_style
from pipelines.voice.kokoro_voices import StylePack, check_pack
from pipelines.voice.reference import check_reference

FORM_FILE = "kokoro_voice.npz"
MAX_FORM_BYTES = 4 << 20
"""A pack is 522 KB; anything much larger is not one."""
VERSION = 1


class FormDamagedError(Exception):
    """The stored Kokoro form cannot be read; ``reason`` says why in a phrase."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class KokoroForm:
    """A voice as the Kokoro model ``model`` speaks it."""

    pack: StylePack
    model: str
    """:func:`kokoro_model_id` of the model it was derived for."""
    encoder: str
    """The speaker-similarity encoder that scored the search."""
    score: float
    """How alike the derived voice sounded to the clip during the search (0–1)."""
    created: float

    def meta(self) -> dict[str, Any]:
        """The record stored beside the pack."""
        return {
            "version": VERSION,
            "model": self.model,
            "encoder": self.encoder,
            "score": round(float(self.score), 6),
            "created": self.created,
        }


def kokoro_model_id(folder: Path) -> str:
    """The identity of a Kokoro model folder: ``kokoro:`` and the short SHA-256 of the ONNX it
    was converted from (a converted folder records it; an installed one is hashed, once per
    file version). The same weights, converted or not, have the same identity."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        config = None
    conversion = config.get("conversion") if isinstance(config, dict) else None
    digest = conversion.get("source_sha256") if isinstance(conversion, dict) else None
    if isinstance(digest, str) and digest:
        return f"kokoro:{digest[:16]}"
    models = sorted(folder.glob("*.onnx"))
    if len(models) == 1:
        stat = models[0].stat()
        return f"kokoro:{_file_sha256(models[0], stat.st_size, stat.st_mtime_ns)[:16]}"
    return f"kokoro:{folder.resolve()}"


@functools.lru_cache(maxsize=8)
def _file_sha256(path: Path, size: int, mtime_ns: int) -> str:
    """SHA-256 of ``path`` (``size`` and ``mtime_ns`` key the cache: a new file is hashed)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_form(folder: Path) -> KokoroForm | None:
    """The Kokoro form stored in a voice folder (None: none made yet).

    Raises:
        FormDamagedError: the file is there but is not what :func:`write_form` writes.
    """
    path = folder / FORM_FILE
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FORM_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise FormDamagedError(f"{FORM_FILE}: {error.strerror or error}") from error
    if len(raw) > MAX_FORM_BYTES:
        raise FormDamagedError(f"{FORM_FILE} is far too large")
    try:
        with np.load(io.BytesIO(raw), allow_pickle=False) as archive:
            pack, meta_bytes = archive["pack"], archive["meta"]
        meta = json.loads(bytes(np.asarray(meta_bytes, np.uint8)).decode("utf-8"))
    except (OSError, ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile) as error:
        raise FormDamagedError(f"{FORM_FILE} is not a saved Kokoro voice") from error
    if pack.dtype != np.float32:
        raise FormDamagedError(f"{FORM_FILE} holds {pack.dtype} values, not float32")
    try:
        checked = check_pack(pack, FORM_FILE)
    except InvalidInputError as error:
        raise FormDamagedError(str(error).rstrip(".")) from error
    if not isinstance(meta, dict) or meta.get("version") != VERSION:
        raise FormDamagedError(f"{FORM_FILE} has no record of the model it was made for")
    model, encoder = meta.get("model"), meta.get("encoder")
    score, created = meta.get("score"), meta.get("created")
    if not isinstance(model, str) or not isinstance(encoder, str):
        raise FormDamagedError(f"{FORM_FILE} has no record of the model it was made for")
    return KokoroForm(checked, model, encoder, _number(score), _number(created))


def write_form(folder: Path, form: KokoroForm) -> None:
    """Store ``form`` in the voice folder, replacing any earlier one in one rename (0600).

    Raises:
        OSError: the disk refused it (the earlier file, if any, is left as it was).
    """
    meta = json.dumps(form.meta()).encode("utf-8")
    buffer = io.BytesIO()
    np.savez(
        buffer,
        pack=check_pack(form.pack, "The derived voice"),
        meta=np.frombuffer(meta, np.uint8),
    )
    write_bytes_atomic(folder / FORM_FILE, buffer.getvalue())


def new_form(pack: StylePack, model: str, encoder: str, score: float) -> KokoroForm:
    """A form derived just now."""
    return KokoroForm(check_pack(pack, "The derived voice"), model, encoder, score, time.time())


class FormState(StrEnum):
    """Whether a library voice can be spoken by the Kokoro model in use."""

    READY = "ready"
    MISSING = "missing"
    """Not made yet for this model (or made for another one)."""
    DAMAGED = "damaged"


def form_state(voice: Voice, model: str) -> tuple[FormState, str]:
    """The state of ``voice``'s Kokoro form for the model ``model`` and, when it is not ready,
    one sentence saying what to do (what the Voice panel shows next to the voice)."""
    try:
        form = read_form(voice.folder)
    except FormDamagedError as damage:
        return FormState.DAMAGED, str(_damaged(voice, damage))
    if form is None or form.model != model:
        return FormState.MISSING, str(_missing(voice))
    return FormState.READY, ""


def has_form(voice: Voice, model: str) -> bool:
    """Whether ``voice`` has a readable Kokoro form for the model ``model``."""
    return form_state(voice, model)[0] is FormState.READY


def cloned_voice(voice: Voice, model: str) -> ClonedVoice:
    """``voice`` as the Kokoro model ``model`` speaks it.

    Raises:
        UserError: its Kokoro form is not made yet for this model, or damaged
            (``field="voice"``): one sentence saying to make it.
    """
    try:
        form = read_form(voice.folder)
    except FormDamagedError as damage:
        raise _damaged(voice, damage) from damage
    if form is None or form.model != model:
        raise _missing(voice)
    return ClonedVoice(voice.name, form.pack)


def _missing(voice: Voice) -> UserError:
    return UserError(
        tr(
            "“{name}” has no Kokoro form yet: make it first (Make for Kokoro; it takes a few "
            "minutes), or choose a SpeechT5 model."
        ).format(name=voice.name),
        field="voice",
    )


def _damaged(voice: Voice, damage: FormDamagedError) -> UserError:
    return UserError(
        tr("The Kokoro form of “{name}” is damaged ({reason}); make it again.").format(
            name=voice.name, reason=damage.reason
        ),
        field="voice",
    )


def usable_clip(voice: Voice) -> npt.NDArray[np.float32]:
    """``voice``'s stored clip, judged as when the voice was made (silent, no speech, noisy,
    clipped, too short or too long: the first problem is the sentence).

    Raises:
        UserError: the clip is missing or cannot be used (``field="reference"``).
    """
    if not voice.reference.is_file():
        raise UserError(
            tr("The clip of “{name}” is missing, so no Kokoro form can be made of it.").format(
                name=voice.name
            ),
            field="reference",
        )
    reference = check_reference(read_clip(voice.reference, field="reference"))
    if reference.problems:
        raise UserError(
            tr("The clip of “{name}” cannot be used: {problem}").format(
                name=voice.name, problem=reference.problems[0].message
            ),
            field="reference",
        )
    return reference.samples


def derive_form(
    voice: Voice,
    clip: npt.NDArray[np.float32],
    speaker: Speaks,
    presets: dict[str, StylePack],
    measure: Embeds,
    model: str,
    encoder: str,
    *,
    settings: CloneSettings | None = None,
    cancel: CancelToken | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> KokoroForm:
    """Derive ``voice``'s Kokoro form from ``clip`` (its :func:`usable_clip`, 16 kHz) and
    store it (worker thread). A new form makes the voice's likeness figure stale: that is
    removed, to be measured again.

    Raises:
        UserError: the encoder cannot measure the clip (``field="reference"``).
        StorageError: the form could not be written (any earlier one is left whole).
        Cancelled: ``cancel`` was set (nothing is written).
    """
    try:
        result = derive_style(
            clip,
            MODEL_RATE,
            presets,
            speaker,
            measure,
            settings=settings,
            cancel=cancel,
            on_progress=on_progress,
        )
    except InvalidInputError as error:
        raise UserError(str(error), field="reference") from error
    form = new_form(result.pack, model, encoder, result.score)
    try:
        write_form(voice.folder, form)
        (voice.folder / LIKENESS_FILE).unlink(missing_ok=True)
    except OSError as error:
        raise StorageError(
            tr("Could not save the Kokoro form of “{name}”: {reason}").format(
                name=voice.name, reason=error.strerror or error
            )
        ) from error
    return form


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    number = float(value)
    return number if np.isfinite(number) else 0.0
