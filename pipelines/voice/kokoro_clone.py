"""A Kokoro voice made from a clip: a style pack found by listening, scored by a speaker encoder.

Kokoro has no encoder from a clip to its style vector (StyleTTS 2's style encoder is not in the
export), so the clip's voice is *searched for*: candidate packs are spoken and each is scored by
the speaker similarity (:mod:`pipelines.voice.speaker_similarity`, resemblyzer's GE2E) of its
speech to the clip. The candidates are affine mixtures of the installed packs, with one set of
weights for the timbre half of the style (the first 128 values, which condition the decoder)
and one for the prosody half (the last 128, which condition the duration and pitch predictor):

    pack = Σᵢ tᵢ · Pᵢ[..., :128]  ⊕  Σᵢ pᵢ · Pᵢ[..., 128:],   Σ t = Σ p = 1

Mixing whole packs row by row keeps Kokoro's length dependence (one style per phoneme count).
Weights may leave [0, 1] — that is how a voice outside the presets is reached (a low male
voice from four female ones) — but stay within :data:`WEIGHT_LIMITS`: far outside, the speech
degrades into noise that an encoder can still score.

Why this and not a search in the full 256-d space: the score of one spoken phrase moves with
every detail of a style, so random directions find phrase-specific luck (tried: +0.06 on the
search phrase, nothing on other sentences). The mixture space has 2·K dimensions, every point
in it sounds like speech, and a cross-entropy search (a seeded Gaussian, refitted to the best
candidates each round) settles in a few dozen syntheses. The final choice is among the best few
candidates, each heard again saying a *different* phrase, so the one kept is the one whose
likeness does not depend on the words.

No torch: everything here is numpy plus the two OpenVINO models the caller already loaded.
Deterministic for a seed (OpenVINO's CPU inference is); cancellable between syntheses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pipelines.core import Cancelled, CancelToken, InvalidInputError, Progress
from pipelines.voice.kokoro_voices import PACK_SHAPE, StylePack, check_pack

TIMBRE = slice(0, 128)
PROSODY = slice(128, 256)
SEARCH_TEXT = "She sells fresh fish by the harbour every Saturday, and the gulls wait nearby."
"""What each candidate says while searching (≈ 4.5 s: three GE2E partials). Not the likeness
figure's sentences (:mod:`app.voice.likeness`) nor the benchmark's: the figure shown to the
user is measured on words the search never heard."""
CHECK_TEXT = "A warm cup of tea is waiting for you in the kitchen."
"""The second phrase the best candidates say before one is kept."""
WEIGHT_LIMITS = (-1.0, 2.0)
"""How far a mixture weight may go: beyond, some voices crackle or mumble (heard with Whisper
in ``benchmarks/bench_voice_clone.py``)."""
FIELD = "voice"

Float32Array = npt.NDArray[np.float32]
ProgressCallback = Callable[[Progress], None]


class Speaks(Protocol):
    """What speaks a pack (:class:`~pipelines.voice.kokoro.KokoroSynthesizer`)."""

    def speak(
        self, text: str, voice: Any, *, speed: float = ..., cancel: CancelToken | None = ...
    ) -> Iterable[Any]:
        """Chunks with ``samples`` at ``rate``."""
        ...


class Embeds(Protocol):
    """What measures a voice (:class:`~pipelines.voice.speaker_similarity.SpeakerSimilarity`)."""

    def embed(self, samples: npt.NDArray[Any], rate: int = ..., *, trim: bool = ...) -> Any:
        """A unit embedding."""
        ...


@dataclass(frozen=True)
class CloneSettings:
    """How hard to search. The defaults take ≈ 60 syntheses of a 4.5 s phrase (1–3 minutes
    on a 2-core CPU)."""

    seed: int = 0
    rounds: int = 6
    population: int = 8
    elite: int = 3
    spread: float = 0.5
    """The first round's standard deviation of each mixture weight."""
    finalists: int = 3
    search_text: str = SEARCH_TEXT
    check_text: str = CHECK_TEXT

    @property
    def total_steps(self) -> int:
        """Syntheses of a full search, for a progress bar (presets + mean, rounds, finalists)."""
        return self.rounds * self.population + self.finalists


@dataclass(frozen=True)
class Mixture:
    """Mixture weights over the base packs (each sums to 1)."""

    timbre: Float32Array
    prosody: Float32Array

    def pack(self, bases: npt.NDArray[np.float32]) -> StylePack:
        """The style pack of these weights over ``bases`` ``[K, 510, 1, 256]``."""
        mixed = np.empty(PACK_SHAPE, np.float32)
        mixed[..., TIMBRE] = np.tensordot(self.timbre, bases[..., TIMBRE], axes=1)
        mixed[..., PROSODY] = np.tensordot(self.prosody, bases[..., PROSODY], axes=1)
        return check_pack(mixed, "The derived voice")


@dataclass(frozen=True)
class CloneResult:
    """A derived pack and what the search heard."""

    pack: StylePack
    score: float
    """Similarity of the pack's speech to the clip (mean of the two phrases)."""
    mixture: Mixture
    base_names: tuple[str, ...]
    preset_scores: dict[str, float]
    """Each base pack's similarity to the clip on the search phrase."""
    syntheses: int
    seconds: float
    history: list[float] = field(default_factory=list)
    """The best search-phrase score after each round."""


def derive_style(
    clip: npt.NDArray[Any],
    rate: int,
    bases: Mapping[str, StylePack],
    speaker: Speaks,
    measure: Embeds,
    *,
    settings: CloneSettings | None = None,
    cancel: CancelToken | None = None,
    on_progress: ProgressCallback | None = None,
) -> CloneResult:
    """A Kokoro style pack whose speech sounds like ``clip`` (mono, ``rate`` Hz).

    ``bases``: the packs to mix (the model's presets); ``speaker`` speaks them, ``measure``
    embeds speech (both loaded by the caller, used one call at a time).

    Raises:
        InvalidInputError: the clip cannot be measured (silent, too short…: one sentence,
            ``field="voice"``), or fewer than two base packs.
        Cancelled: ``cancel`` was set (between syntheses).
    """
    settings = settings or CloneSettings()
    cancel = cancel or CancelToken()
    started = time.perf_counter()
    names = tuple(sorted(bases))
    if len(names) < 2:
        raise InvalidInputError(
            "A voice is derived by mixing the model's own voices; this model has fewer than two.",
            field=FIELD,
        )
    stack = np.stack([check_pack(bases[name], f"The voice “{name}”") for name in names])
    target = np.asarray(measure.embed(np.asarray(clip, np.float32), rate), np.float64)
    search = _Search(stack, target, speaker, measure, settings, cancel, on_progress)
    count = len(names)
    preset_scores = {
        name: search.score(_one_hot(index, count), f"Listening to {name}")
        for index, name in enumerate(names)
    }
    best_preset = int(np.argmax(list(preset_scores.values())))
    history = search.cross_entropy(_one_hot(best_preset, count))
    mixture, score = search.final_choice()
    return CloneResult(
        pack=mixture.pack(stack),
        score=score,
        mixture=mixture,
        base_names=names,
        preset_scores=preset_scores,
        syntheses=search.syntheses,
        seconds=time.perf_counter() - started,
        history=history,
    )


class _Search:
    """The state of one search: every candidate heard so far and its score."""

    def __init__(
        self,
        stack: npt.NDArray[np.float32],
        target: npt.NDArray[np.float64],
        speaker: Speaks,
        measure: Embeds,
        settings: CloneSettings,
        cancel: CancelToken,
        on_progress: ProgressCallback | None,
    ) -> None:
        self.stack, self.target = stack, target
        self.speaker, self.measure = speaker, measure
        self.settings, self.cancel, self.on_progress = settings, cancel, on_progress
        self.rng = np.random.default_rng(settings.seed)
        self.heard: list[tuple[float, npt.NDArray[np.float64]]] = []
        self.syntheses = 0
        self.total = len(stack) + settings.total_steps

    def similarity(self, point: npt.NDArray[np.float64], text: str) -> float:
        if self.cancel.cancelled:
            raise Cancelled("voice derivation cancelled")
        pack = _mixture(point).pack(self.stack)
        chunks = list(self.speaker.speak(text, pack, cancel=self.cancel))
        self.syntheses += 1
        if not chunks:
            return -1.0
        audio = np.concatenate([np.asarray(chunk.samples, np.float32) for chunk in chunks])
        try:
            embedding = np.asarray(self.measure.embed(audio, int(chunks[0].rate)), np.float64)
        except InvalidInputError:  # a candidate that came out (nearly) silent
            return -1.0
        return float(embedding @ self.target / (np.linalg.norm(embedding) or 1.0))

    def score(self, point: npt.NDArray[np.float64], message: str) -> float:
        """The search phrase's similarity at ``point`` (kept in :attr:`heard`)."""
        value = self.similarity(point, self.settings.search_text)
        self.heard.append((value, point))
        self._progress("search", message)
        return value

    def cross_entropy(self, start: npt.NDArray[np.float64]) -> list[float]:
        """Rounds of Gaussian sampling around the best candidates; the best score per round."""
        settings = self.settings
        mean = start.copy()
        spread = np.full_like(start, settings.spread)
        history = []
        for round_index in range(settings.rounds):
            points = mean + spread * self.rng.standard_normal((settings.population, mean.size))
            points = np.array([_within_limits(point) for point in points])
            message = f"Searching: round {round_index + 1} of {settings.rounds}"
            scores = [self.score(point, message) for point in points]
            ranked = sorted(self.heard, key=lambda pair: -pair[0])[: settings.elite]
            elite = np.array([point for _score, point in ranked])
            mean = elite.mean(axis=0)
            spread = np.maximum(elite.std(axis=0), 0.05 * settings.spread)
            history.append(max(max(scores), ranked[0][0]))
        return history

    def final_choice(self) -> tuple[Mixture, float]:
        """Of the best few candidates, the one with the best mean over both phrases."""
        ranked = sorted(self.heard, key=lambda pair: -pair[0])
        finalists: list[tuple[float, npt.NDArray[np.float64]]] = []
        for value, point in ranked:
            if all(np.abs(point - kept).max() > 1e-6 for _v, kept in finalists):
                finalists.append((value, point))
            if len(finalists) == self.settings.finalists:
                break
        best: tuple[float, npt.NDArray[np.float64]] = (-2.0, finalists[0][1])
        for value, point in finalists:
            check = self.similarity(point, self.settings.check_text)
            self._progress("check", "Checking the best candidates")
            mean = (value + check) / 2.0
            if mean > best[0]:
                best = (mean, point)
        return _mixture(best[1]), best[0]

    def _progress(self, stage: str, message: str) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(stage, self.syntheses, self.total, message))


def _one_hot(index: int, count: int) -> npt.NDArray[np.float64]:
    """The point that is base pack ``index`` alone (timbre and prosody weights)."""
    point = np.zeros(2 * count)
    point[index] = point[count + index] = 1.0
    return point


def _within_limits(point: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    low, high = WEIGHT_LIMITS
    return np.concatenate([_normalised(half, low, high) for half in np.split(point, 2)])


def _normalised(weights: npt.NDArray[np.float64], low: float, high: float) -> npt.NDArray[Any]:
    """``weights`` shifted to sum to 1, then clipped to the limits (and shifted again)."""
    for _ in range(4):
        weights = np.clip(weights + (1.0 - weights.sum()) / weights.size, low, high)
    return weights


def _mixture(point: npt.NDArray[np.float64]) -> Mixture:
    timbre, prosody = np.split(np.asarray(point, np.float64), 2)
    return Mixture(
        (timbre / timbre.sum()).astype(np.float32), (prosody / prosody.sum()).astype(np.float32)
    )
