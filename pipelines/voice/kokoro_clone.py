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
search phrase, nothing on other sentences). The mixture space has 2·K dimensions and every point
in it sounds like speech. The search is model-based: each synthesis gives a whole 256-d GE2E
embedding, not just a score, so a linear map *mixture → embedding* is fitted (ridge) to
everything heard — the presets, a dozen random mixtures, then every step — and each step hears
the mixture whose predicted embedding is closest to the clip's, within a trust region around
the best heard so far (wider after a step that helped, narrower after one that did not). A
cross-entropy search on the score alone (tried first) stayed next to the best preset: +0.01.
The final choice is among the best few candidates, each heard again saying a *different*
phrase, so the one kept is the one whose likeness does not depend on the words.

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
CANDIDATES = 2000
"""Mixtures the map scores (no synthesis: a matrix product) to choose each step."""
RIDGE = 1e-2
DIRECTION_LIMIT = 2.0
"""How far along an extra direction a search may go (in presets' spreads)."""
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
    """How hard to search. The defaults take 39 syntheses of a 4.5 s phrase (2–6 minutes on
    a busy 2-core CPU)."""

    seed: int = 0
    initial: int = 12
    """Random mixtures heard first, around the presets' centre, to fit the first map."""
    steps: int = 20
    """Mixtures chosen one at a time by the map, each heard and added to it."""
    spread: float = 0.6
    """The standard deviation of the first mixtures' weights."""
    directions: int = 0
    """Extra random directions (each a 256-d style scaled by how much the presets differ in
    each value) added to the mixture space; 0: mixtures only."""
    radius: float = 0.5
    """The first trust region: how far (largest weight change) a step may go from the best."""
    finalists: int = 3
    search_text: str = SEARCH_TEXT
    check_text: str = CHECK_TEXT

    @property
    def total_steps(self) -> int:
        """Syntheses after the presets' own, for a progress bar."""
        return self.initial + self.steps + self.finalists


@dataclass(frozen=True)
class Mixture:
    """Mixture weights over the base packs (each sums to 1)."""

    timbre: Float32Array
    prosody: Float32Array
    offset: Float32Array | None = None
    """A ``[256]`` style added to every row (the search's extra directions), or none."""

    def pack(self, bases: npt.NDArray[np.float32]) -> StylePack:
        """The style pack of these weights over ``bases`` ``[K, 510, 1, 256]``."""
        mixed = np.empty(PACK_SHAPE, np.float32)
        mixed[..., TIMBRE] = np.tensordot(self.timbre, bases[..., TIMBRE], axes=1)
        mixed[..., PROSODY] = np.tensordot(self.prosody, bases[..., PROSODY], axes=1)
        if self.offset is not None:
            mixed += self.offset.reshape(1, 1, -1).astype(np.float32)
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
    target = target / (np.linalg.norm(target) or 1.0)
    search = _Search(stack, target, speaker, measure, settings, cancel, on_progress)
    preset_scores = {
        name: search.score(search.point(index), f"Listening to {name}")
        for index, name in enumerate(names)
    }
    search.random_start()
    history = search.guided_steps()
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
        rows = stack.mean(axis=1).reshape(len(stack), -1)  # each pack's mean style
        scale = rows.std(axis=0)
        self.directions = self.rng.standard_normal((settings.directions, scale.size)) * scale
        self.heard: list[tuple[float, npt.NDArray[np.float64], npt.NDArray[np.float64]]] = []
        self.syntheses = 0
        self.total = len(stack) + settings.total_steps

    def similarity(
        self, point: npt.NDArray[np.float64], text: str
    ) -> tuple[float, npt.NDArray[np.float64]]:
        """How alike ``point`` saying ``text`` sounds to the clip, and its embedding."""
        silent = (-1.0, np.zeros_like(self.target))
        if self.cancel.cancelled:
            raise Cancelled("voice derivation cancelled")
        pack = self.mixture(point).pack(self.stack)
        chunks = list(self.speaker.speak(text, pack, cancel=self.cancel))
        self.syntheses += 1
        if not chunks:
            return silent
        audio = np.concatenate([np.asarray(chunk.samples, np.float32) for chunk in chunks])
        try:
            embedding = np.asarray(self.measure.embed(audio, int(chunks[0].rate)), np.float64)
        except InvalidInputError:  # a candidate that came out (nearly) silent
            return silent
        embedding = embedding / (np.linalg.norm(embedding) or 1.0)
        return float(embedding @ self.target), embedding

    def score(self, point: npt.NDArray[np.float64], message: str) -> float:
        """The search phrase's similarity at ``point`` (kept in :attr:`heard`)."""
        value, embedding = self.similarity(point, self.settings.search_text)
        self.heard.append((value, point, embedding))
        self._progress("search", message)
        return value

    def random_start(self) -> None:
        """Hear mixtures drawn around the presets' centre (the first data for the map)."""
        count = len(self.stack)
        centre = np.concatenate([np.full(2 * count, 1.0 / count), np.zeros(len(self.directions))])
        for _ in range(self.settings.initial):
            point = centre + self.settings.spread * self.rng.standard_normal(centre.size)
            self.score(_within_limits(point, count), "Listening to mixtures of the voices")

    def guided_steps(self) -> list[float]:
        """Steps chosen by the linear map mixture → embedding, fitted to everything heard: the
        candidate whose *predicted* embedding is closest to the clip's, within a trust region
        around the best heard (widened after a step that improved, narrowed after one that
        did not). The best score after each step."""
        settings = self.settings
        radius = settings.radius
        history = []
        for step in range(settings.steps):
            best_value, best_point = max(self.heard, key=lambda heard: heard[0])[:2]
            candidate = self._predicted_best(best_point, radius)
            value = self.score(candidate, f"Searching: step {step + 1} of {settings.steps}")
            radius = min(2.0, radius * 1.4) if value > best_value else max(0.05, radius * 0.6)
            history.append(max(value, best_value))
        return history

    def _predicted_best(
        self, centre: npt.NDArray[np.float64], radius: float
    ) -> npt.NDArray[np.float64]:
        points = np.array([point for _value, point, _embedding in self.heard])
        embeddings = np.array([embedding for _value, _point, embedding in self.heard])
        weights, offset = _ridge(points, embeddings)
        spread = self.rng.uniform(-radius, radius, (CANDIDATES, centre.size))
        candidates = _within_limits(centre + spread, len(self.stack))
        predicted = candidates @ weights + offset
        norms = np.linalg.norm(predicted, axis=1)
        cosines = predicted @ self.target / np.where(norms > 0, norms, 1.0)
        return np.asarray(candidates[int(np.argmax(cosines))])

    def final_choice(self) -> tuple[Mixture, float]:
        """Of the best few candidates, the one with the best mean over both phrases.

        The preset that sounded most like the clip is always one of them: a mixture is kept
        only if it beats that preset over both phrases, never for one lucky phrase."""
        ranked = sorted(self.heard, key=lambda heard: -heard[0])
        finalists: list[tuple[float, npt.NDArray[np.float64]]] = []
        for value, point, _embedding in ranked:
            if all(np.abs(point - kept).max() > 1e-6 for _v, kept in finalists):
                finalists.append((value, point))
            if len(finalists) == self.settings.finalists:
                break
        presets = self.heard[: len(self.stack)]  # heard first, in order (derive_style)
        best_preset = max(presets, key=lambda heard: heard[0])
        if all(np.abs(best_preset[1] - kept).max() > 1e-6 for _v, kept in finalists):
            finalists[-1] = (best_preset[0], best_preset[1])
        best: tuple[float, npt.NDArray[np.float64]] = (-2.0, finalists[0][1])
        for value, point in finalists:
            check, _embedding = self.similarity(point, self.settings.check_text)
            self._progress("check", "Checking the best candidates")
            mean = (value + check) / 2.0
            if mean > best[0]:
                best = (mean, point)
        return self.mixture(best[1]), best[0]

    def point(self, index: int) -> npt.NDArray[np.float64]:
        """The point that is base pack ``index`` alone."""
        count = len(self.stack)
        point = np.zeros(2 * count + len(self.directions))
        point[index] = point[count + index] = 1.0
        return point

    def mixture(self, point: npt.NDArray[np.float64]) -> Mixture:
        """The mixture at ``point`` (weights normalised; the extra directions summed)."""
        count = len(self.stack)
        timbre, prosody = point[:count], point[count : 2 * count]
        offset = point[2 * count :] @ self.directions if len(self.directions) else None
        return Mixture(
            (timbre / timbre.sum()).astype(np.float32),
            (prosody / prosody.sum()).astype(np.float32),
            None if offset is None else offset.astype(np.float32),
        )

    def _progress(self, stage: str, message: str) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(stage, self.syntheses, self.total, message))


def _ridge(
    points: npt.NDArray[np.float64], embeddings: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """The least-squares linear map ``points → embeddings`` (lightly regularised), as
    ``(weights [D, 256], offset [256])``."""
    mean_point, mean_embedding = points.mean(axis=0), embeddings.mean(axis=0)
    centred = points - mean_point
    gram = centred.T @ centred + RIDGE * np.eye(points.shape[1])
    weights = np.linalg.solve(gram, centred.T @ (embeddings - mean_embedding))
    return weights, mean_embedding - mean_point @ weights


def _within_limits(points: npt.NDArray[np.float64], count: int) -> npt.NDArray[np.float64]:
    """``points`` (one or rows of them) with each half's ``count`` weights summing to 1 and
    within :data:`WEIGHT_LIMITS` (shifted, clipped, shifted again); the coefficients of the
    extra directions within ±:data:`DIRECTION_LIMIT`."""
    low, high = WEIGHT_LIMITS
    points = np.array(points, np.float64)
    halves = points[..., : 2 * count].reshape(*points.shape[:-1], 2, count)
    for _ in range(4):
        shift = (1.0 - halves.sum(axis=-1, keepdims=True)) / count
        halves = np.clip(halves + shift, low, high)
    points[..., : 2 * count] = halves.reshape(*points.shape[:-1], 2 * count)
    points[..., 2 * count :] = np.clip(points[..., 2 * count :], -DIRECTION_LIMIT, DIRECTION_LIMIT)
    return points
