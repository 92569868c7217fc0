"""Speaker similarity with the real GE2E encoder, against resemblyzer's own embeddings.

The ``speaker-similarity`` fixture holds the IR the app converted (no torch), clips of five
speakers (four espeak-ng voices and the Piper VITS voice ``joe``) and the embeddings
resemblyzer 0.1.4 itself computed for them with torch and librosa. Nothing here needs torch.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import InvalidInputError, ModelLoadError
from pipelines.voice.audio import read_clip
from pipelines.voice.similarity_features import MAX_PARTIALS
from pipelines.voice.speaker_similarity import EMBEDDING_SIZE, SpeakerSimilarity, cosine

pytestmark = pytest.mark.integration
RATE = 16_000
PAUSED_CLIP = "espeak-us-m-3"


@pytest.fixture(scope="module")
def measure(speaker_similarity_dir: Path) -> SpeakerSimilarity:
    encoder = SpeakerSimilarity(speaker_similarity_dir)
    encoder.load()
    return encoder


@pytest.fixture(scope="module")
def reference(speaker_similarity_dir: Path) -> dict[str, np.ndarray]:
    with np.load(speaker_similarity_dir / "reference.npz") as data:
        return {key: data[key] for key in data.files}


@pytest.fixture(scope="module")
def clips(speaker_similarity_dir: Path, reference: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    folder = speaker_similarity_dir / "clips"
    return {str(name): read_clip(folder / f"{name}.wav").samples for name in reference["names"]}


@pytest.fixture(scope="module")
def embeddings(measure: SpeakerSimilarity, clips: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    return {name: measure.embed(samples) for name, samples in clips.items()}


def _speaker(name: str) -> str:
    return name.rsplit("-", 1)[0]


def test_embeddings_equal_resemblyzers(
    measure: SpeakerSimilarity, clips: dict[str, np.ndarray], reference: dict[str, np.ndarray]
) -> None:
    for name, expected in zip(reference["names"], reference["core"], strict=True):
        mine = measure.embed(clips[str(name)], trim=False)
        assert mine.shape == (EMBEDDING_SIZE,)
        assert abs(float(np.linalg.norm(mine)) - 1.0) < 1e-5
        assert cosine(mine, expected) >= 0.999, name


def test_pause_trimming_stands_in_for_webrtcvad(
    measure: SpeakerSimilarity,
    clips: dict[str, np.ndarray],
    embeddings: dict[str, np.ndarray],
    reference: dict[str, np.ndarray],
) -> None:
    names = [str(name) for name in reference["names"]]
    for name, expected in zip(names, reference["full"], strict=True):
        assert cosine(embeddings[name], expected) >= 0.995, name
    # On the clip with a 1.5 s pause, cutting it brings the embedding to resemblyzer's.
    paused = reference["full"][names.index(PAUSED_CLIP)]
    untrimmed = measure.embed(clips[PAUSED_CLIP], trim=False)
    assert cosine(embeddings[PAUSED_CLIP], paused) > cosine(untrimmed, paused) + 0.005


def separation(vectors: Sequence[np.ndarray], speakers: Sequence[str]) -> float:
    """The worst margin by which a clip is closer to its own speaker's other clips (mean)
    than to any other speaker's clips (mean): positive when every speaker is told apart."""
    matrix = np.array(vectors) @ np.array(vectors).T
    labels = np.array(speakers)
    margins = []
    for index, speaker in enumerate(labels):
        own = (labels == speaker) & (np.arange(labels.size) != index)
        others = [matrix[index, labels == other].mean() for other in set(labels) - {speaker}]
        margins.append(matrix[index, own].mean() - max(others))
    return float(min(margins))


def test_same_speaker_is_closer_than_any_other(embeddings: dict[str, np.ndarray]) -> None:
    names = [name for name in sorted(embeddings) if name != PAUSED_CLIP]
    vectors = [embeddings[name] for name in names]
    speakers = [_speaker(name) for name in names]
    assert len(set(speakers)) == 5
    assert separation(vectors, speakers) > 0.02
    # Negative control: the same vectors with their speakers shuffled are not told apart.
    shuffled = np.random.default_rng(3).permutation(len(vectors))
    assert separation([vectors[index] for index in shuffled], speakers) < 0


def test_piper_voice_is_nearest_to_itself(embeddings: dict[str, np.ndarray]) -> None:
    joe = [vector for name, vector in embeddings.items() if name.startswith("piper-joe")]
    others = [vector for name, vector in embeddings.items() if not name.startswith("piper")]
    same = min(cosine(a, b) for index, a in enumerate(joe) for b in joe[index + 1 :])
    assert same > max(cosine(a, b) for a in joe for b in others)


def test_a_ten_minute_clip_is_measured_from_capped_partials(
    measure: SpeakerSimilarity, clips: dict[str, np.ndarray], embeddings: dict[str, np.ndarray]
) -> None:
    voice = np.concatenate([clips[f"piper-joe-{index}"] for index in range(3)])
    ten_minutes = np.resize(voice, 600 * RATE)
    vector = measure.embed(ten_minutes)
    assert measure.last_partials == MAX_PARTIALS
    assert cosine(vector, embeddings["piper-joe-0"]) > 0.9
    assert measure.metrics().values["partials"] == MAX_PARTIALS


def test_other_rates_are_resampled(
    measure: SpeakerSimilarity, clips: dict[str, np.ndarray], embeddings: dict[str, np.ndarray]
) -> None:
    from pipelines.voice.sample_rates import resample

    at_44k = resample(clips["piper-joe-1"], RATE, 44_100)
    assert cosine(measure.embed(at_44k, 44_100), embeddings["piper-joe-1"]) > 0.99


@pytest.mark.parametrize(
    ("make", "rate", "words"),
    [
        (lambda clip: np.zeros(5 * RATE, np.float32), RATE, "silent"),
        (lambda clip: clip[: RATE // 5], RATE, "0.2 s long"),
        (lambda clip: np.where(np.arange(clip.size) == 800, np.nan, clip), RATE, "NaN"),
        (lambda clip: clip, 1_000_000, "1,000,000 Hz"),
        (lambda clip: clip, 100, "100 Hz"),
        (lambda clip: np.stack([clip, clip], axis=1), RATE, "mono"),
        (lambda clip: (clip * 32767).astype(np.int16), RATE, "floating-point"),
        (lambda clip: np.concatenate([clip[: RATE // 2], np.zeros(9 * RATE)]), RATE, "of voice"),
        (lambda clip: np.resize(clip, 16 * 60 * 8_000), 8_000, "16 minutes long"),
    ],
    ids=[
        *("silent", "0.2s", "nan", "rate-too-high", "rate-too-low", "stereo", "int16", "pause"),
        "16min",
    ],
)
def test_unmeasurable_clips_are_refused_in_one_sentence(
    measure: SpeakerSimilarity,
    clips: dict[str, np.ndarray],
    make: object,
    rate: int,
    words: str,
) -> None:
    bad = make(clips["piper-joe-0"])  # type: ignore[operator]
    with pytest.raises(InvalidInputError) as caught:
        measure.embed(bad, rate)
    message = str(caught.value)
    assert caught.value.field == "voice"
    assert words in message
    assert message.count(". ") == 0 and message.endswith(".")


def test_a_model_without_the_contract_is_refused(tmp_path: Path) -> None:
    import openvino as ov
    import openvino.opset13 as ops

    mels = ops.parameter([-1, -1, 24], np.float32, name="mels")
    ov.save_model(ov.Model([ops.relu(mels)], [mels]), str(tmp_path / "openvino_model.xml"))
    with pytest.raises(ModelLoadError, match="speaker-similarity contract"):
        SpeakerSimilarity(tmp_path).load()
    with pytest.raises(ModelLoadError, match=r"openvino_model\.xml is missing"):
        SpeakerSimilarity(tmp_path / "absent").load()
