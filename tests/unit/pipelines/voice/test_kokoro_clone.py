"""The Kokoro clone search on stand-ins: a "synthesiser" whose speech is its style and a
"speaker encoder" that hears the style, so the voice to find is known exactly."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from pipelines.core import Cancelled, CancelToken, InvalidInputError, Progress
from pipelines.voice.kokoro_clone import (
    PROSODY,
    SEARCH_TEXT,
    TIMBRE,
    WEIGHT_LIMITS,
    CloneSettings,
    Mixture,
    derive_style,
)
from pipelines.voice.kokoro_voices import PACK_SHAPE

RATE = 24_000
SMALL = CloneSettings(initial=8, steps=16)


@dataclass
class Chunk:
    samples: npt.NDArray[np.float32]
    rate: int = RATE


class StyleSpeaker:
    """Says a pack as its middle row's style (what the encoder below hears)."""

    def __init__(self) -> None:
        self.calls = 0

    def speak(self, text: str, voice: Any, **_kwargs: Any) -> Iterator[Chunk]:
        self.calls += 1
        yield Chunk(np.asarray(voice[200, 0], np.float32).copy())


class StyleEncoder:
    """The heard style, centred and unit length: the cosine rewards the right mixture."""

    def __init__(self, centre: npt.NDArray[np.float32]) -> None:
        self.centre = centre

    def embed(self, samples: npt.NDArray[Any], rate: int = RATE, **_kwargs: Any) -> Any:
        vector = np.asarray(samples, np.float64) - self.centre
        return vector / np.linalg.norm(vector)


@pytest.fixture
def bases() -> dict[str, npt.NDArray[np.float32]]:
    rng = np.random.default_rng(7)
    return {f"v{i}": rng.normal(0, 0.3, PACK_SHAPE).astype(np.float32) for i in range(4)}


def _target(bases: dict[str, npt.NDArray[np.float32]]) -> npt.NDArray[np.float32]:
    """A voice that is no base: timbre mostly v1 and v2, prosody beyond v3 (weight 1.4)."""
    stack = np.stack([bases[name] for name in sorted(bases)])
    mixture = Mixture(
        np.array([0.0, 0.6, 0.4, 0.0], np.float32), np.array([-0.2, 0.0, -0.2, 1.4], np.float32)
    )
    return mixture.pack(stack)[200, 0]


def test_the_search_finds_a_voice_closer_than_every_base(
    bases: dict[str, npt.NDArray[np.float32]],
) -> None:
    encoder = StyleEncoder(np.mean([pack[200, 0] for pack in bases.values()], axis=0))
    result = derive_style(_target(bases), RATE, bases, StyleSpeaker(), encoder, settings=SMALL)
    assert result.pack.shape == PACK_SHAPE and result.pack.dtype == np.float32
    assert result.score > max(result.preset_scores.values()) + 0.1, result
    assert result.score > 0.9
    for weights in (result.mixture.timbre, result.mixture.prosody):
        assert weights.sum() == pytest.approx(1.0, abs=1e-5)
        assert WEIGHT_LIMITS[0] - 1e-5 <= weights.min() and weights.max() <= WEIGHT_LIMITS[1]
    # The two halves are mixed apart: timbre from v1+v2, prosody leaning on v3.
    assert result.mixture.timbre[1] + result.mixture.timbre[2] > 0.7
    assert int(np.argmax(result.mixture.prosody)) == 3
    assert (
        np.isfinite(result.pack[..., TIMBRE]).all() and np.isfinite(result.pack[..., PROSODY]).all()
    )


def test_a_bad_search_is_possible_a_wrong_encoder_finds_nothing(
    bases: dict[str, npt.NDArray[np.float32]],
) -> None:
    """Negative control: a voice outside everything the bases can mix (a random direction)
    scores far lower, so the test above measures the search, not the stand-ins."""
    encoder = StyleEncoder(np.zeros(256, np.float32))
    wrong_target = np.random.default_rng(3).normal(size=256)
    result = derive_style(wrong_target, RATE, bases, StyleSpeaker(), encoder, settings=SMALL)
    assert result.score < 0.5


class LuckyOnThePhrase(StyleSpeaker):
    """Mixtures sound like their style only on the search phrase (phrase-specific luck); on any
    other they sound like its opposite. The presets sound like themselves on every phrase."""

    def __init__(self, bases: dict[str, npt.NDArray[np.float32]]) -> None:
        super().__init__()
        self.presets = [pack[200, 0] for pack in bases.values()]

    def speak(self, text: str, voice: Any, **_kwargs: Any) -> Iterator[Chunk]:
        self.calls += 1
        style = np.asarray(voice[200, 0], np.float32)
        if text != SEARCH_TEXT and not any(np.array_equal(style, p) for p in self.presets):
            style = -style
        yield Chunk(style.copy())


def test_a_mixture_lucky_on_one_phrase_never_beats_the_closest_preset(
    bases: dict[str, npt.NDArray[np.float32]],
) -> None:
    encoder = StyleEncoder(np.mean([pack[200, 0] for pack in bases.values()], axis=0))
    speaker = LuckyOnThePhrase(bases)
    result = derive_style(_target(bases), RATE, bases, speaker, encoder, settings=SMALL)
    closest = max(result.preset_scores, key=lambda name: result.preset_scores[name])
    assert np.array_equal(result.pack, bases[closest])
    assert result.score == pytest.approx(result.preset_scores[closest])


def test_the_same_seed_gives_the_same_voice_and_progress_counts_every_synthesis(
    bases: dict[str, npt.NDArray[np.float32]],
) -> None:
    encoder = StyleEncoder(np.mean([pack[200, 0] for pack in bases.values()], axis=0))
    seen: list[Progress] = []
    speaker = StyleSpeaker()
    first = derive_style(
        _target(bases), RATE, bases, speaker, encoder, settings=SMALL, on_progress=seen.append
    )
    again = derive_style(_target(bases), RATE, bases, StyleSpeaker(), encoder, settings=SMALL)
    other = derive_style(
        _target(bases), RATE, bases, StyleSpeaker(), encoder, settings=CloneSettings(seed=1)
    )
    assert np.array_equal(first.pack, again.pack)
    assert not np.array_equal(first.pack, other.pack)
    total = len(bases) + SMALL.total_steps
    assert speaker.calls == first.syntheses == total
    assert [p.done for p in seen] == list(range(1, total + 1))
    assert {p.total for p in seen} == {total} and all(p.message for p in seen)


def test_cancel_stops_between_syntheses(bases: dict[str, npt.NDArray[np.float32]]) -> None:
    cancel = CancelToken()
    speaker = StyleSpeaker()

    def stop_at_five(progress: Progress) -> None:
        if progress.done == 5:
            cancel.cancel()

    encoder = StyleEncoder(np.zeros(256, np.float32))
    with pytest.raises(Cancelled):
        derive_style(
            _target(bases),
            RATE,
            bases,
            speaker,
            encoder,
            cancel=cancel,
            on_progress=stop_at_five,
        )
    assert speaker.calls == 5


def test_fewer_than_two_voices_to_mix_is_one_sentence(
    bases: dict[str, npt.NDArray[np.float32]],
) -> None:
    one = {"v0": bases["v0"]}
    with pytest.raises(InvalidInputError) as error:
        derive_style(np.ones(256), RATE, one, StyleSpeaker(), StyleEncoder(np.zeros(256)))
    assert error.value.field == "voice" and "fewer than two" in str(error.value)


def test_a_damaged_base_pack_is_refused(bases: dict[str, npt.NDArray[np.float32]]) -> None:
    bases["v2"] = bases["v2"].copy()
    bases["v2"][3, 0, 7] = np.nan
    with pytest.raises(InvalidInputError) as error:
        derive_style(np.ones(256), RATE, bases, StyleSpeaker(), StyleEncoder(np.zeros(256)))
    assert "v2" in str(error.value)
