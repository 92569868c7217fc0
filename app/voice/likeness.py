"""How much a voice sounds like its clip: the figure "sounds 0.83 like the clip", and where it
is kept.

Why: cloning is only worth showing if it is measured, so users can compare clips and engines.
The likeness of a voice is the speaker similarity (:mod:`pipelines.voice.speaker_similarity`,
resemblyzer's GE2E) between the voice's reference clip and the same voice's speech made by
the engine in use, speaking :data:`LIKENESS_TEXT` (about 7 s). It is stored in the voice's
folder as ``likeness.json`` with the engine and the encoder that made it, so a figure from
another engine, model or encoder is never shown as the current one: it is measured again.

A damaged or hostile ``likeness.json`` is not fatal: it reads as "no figure" (and is
measured again), never as a number.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from app.core.storage.atomic import write_text_atomic
from app.core.storage.json_files import Damaged, read_json_object
from pipelines.core import Cancelled, CancelToken

log = logging.getLogger(__name__)

LIKENESS_FILE = "likeness.json"
MAX_LIKENESS_BYTES = 4096
LIKENESS_TEXT = (
    "The quick brown fox jumps over the lazy dog.",
    "Pack my box with five dozen liquor jugs.",
    "How vexingly quick daft zebras jump, while the wizard quietly hums.",
)
"""Pangram-like sentences: every English letter and a spread of sounds, about 7 s spoken
(SpeechT5: 6.5–8 s), enough for four or five GE2E partials."""
VERSION = 1

Samples = npt.NDArray[np.float32]
SpeakSentence = Callable[[str, CancelToken], Iterable[Samples]]
"""Speaks one sentence in the voice being measured; yields its audio (at the given rate)."""


class Measure(Protocol):
    """What measures two clips (:class:`~pipelines.voice.speaker_similarity.SpeakerSimilarity`)."""

    def embed(self, samples: npt.NDArray[Any], rate: int = ..., *, trim: bool = ...) -> Samples:
        """The clip's unit embedding."""
        ...

    def similarity(self, first: Samples, second: Samples) -> float:
        """How alike two embeddings are (0–1)."""
        ...


@dataclass(frozen=True)
class Likeness:
    """A voice's measured likeness and what it was measured with."""

    value: float
    """Cosine of the two GE2E embeddings: 1 = the same voice; ~0.75 and below sounds different."""
    engine: str
    """The engine and model that spoke (``speecht5:/path/to/model``)."""
    encoder: str
    """The encoder that measured (its weights' SHA-256, short)."""
    measured: float = 0.0
    """When (seconds since the epoch)."""

    def matches(self, engine: str, encoder: str) -> bool:
        """Whether this figure is of the engine and encoder in use now."""
        return self.engine == engine and self.encoder == encoder


def read_likeness(folder: Path) -> Likeness | None:
    """The figure stored in a voice folder; None when there is none or it is damaged (logged:
    it is measured again, never shown as a number)."""
    path = folder / LIKENESS_FILE
    try:
        data = read_json_object(path, max_bytes=MAX_LIKENESS_BYTES)
    except FileNotFoundError:
        return None
    except OSError as error:
        log.warning("cannot read %s: %s", path, error)
        return None
    if isinstance(data, Damaged):
        log.warning("%s is %s; the likeness is measured again", path, data.reason)
        return None
    value, engine, encoder = data.get("value"), data.get("engine"), data.get("encoder")
    measured = data.get("measured", 0.0)
    number = value if isinstance(value, int | float) and not isinstance(value, bool) else None
    fits = (
        number is not None
        and math.isfinite(number)
        and -1.0 <= number <= 1.0
        and isinstance(engine, str)
        and isinstance(encoder, str)
        and isinstance(measured, int | float)
    )
    if number is None or not fits:
        log.warning("%s does not hold a likeness; it is measured again", path)
        return None
    return Likeness(float(number), str(engine), str(encoder), float(measured))


def write_likeness(folder: Path, likeness: Likeness) -> None:
    """Store ``likeness`` in the voice folder (atomically, private like the voice's files).

    Raises:
        OSError: the folder refused it (the old figure, if any, stays whole).
    """
    data = {
        "version": VERSION,
        "value": round(likeness.value, 6),
        "engine": likeness.engine,
        "encoder": likeness.encoder,
        "measured": likeness.measured,
    }
    write_text_atomic(folder / LIKENESS_FILE, json.dumps(data, ensure_ascii=False, indent=1))


def current_value(folder: Path, engine: str, encoder: str) -> float | None:
    """The stored figure when it is of ``engine`` and ``encoder`` (None: measure it)."""
    stored = read_likeness(folder)
    return stored.value if stored is not None and stored.matches(engine, encoder) else None


def measure_likeness(
    reference: Samples,
    reference_rate: int,
    speak: SpeakSentence,
    speech_rate: int,
    measure: Measure,
    cancel: CancelToken | None = None,
) -> float:
    """How alike the voice's speech (``speak`` saying :data:`LIKENESS_TEXT`) sounds to
    ``reference``.

    Raises:
        Cancelled: ``cancel`` was set (between sentences).
        InvalidInputError: a clip cannot be measured (silent, too short…).
    """
    cancel = cancel or CancelToken()
    pieces: list[Samples] = []
    for sentence in LIKENESS_TEXT:
        if cancel.cancelled:
            raise Cancelled("likeness cancelled")
        pieces.extend(
            np.asarray(piece, np.float32).reshape(-1) for piece in speak(sentence, cancel)
        )
        if cancel.cancelled:
            raise Cancelled("likeness cancelled")
    speech = np.concatenate(pieces) if pieces else np.zeros(0, np.float32)
    clip_embedding = measure.embed(np.asarray(reference, np.float32), reference_rate)
    speech_embedding = measure.embed(speech, speech_rate)
    return float(measure.similarity(clip_embedding, speech_embedding))


def likeness_now(value: float, engine: str, encoder: str) -> Likeness:
    """A figure measured just now (rounded as it is stored, so both read the same)."""
    return Likeness(round(value, 6), engine, encoder, time.time())
