"""The two text-to-speech engines behind one voice service: SpeechT5 and Kokoro.

The TTS model the user chose decides the engine: a SpeechT5 export (its encoder, decoder and
vocoder) speaks the voices made from clips, through their speaker embeddings; a Kokoro folder
(converted by :mod:`pipelines.voice.kokoro_convert`, ``config.json`` saying ``"kokoro"``, or
the installed ONNX with its vocabulary and voice file) speaks its own preset voices, each a style
pack, and blends of two of them.

Each engine's sentences keep its own rate (``SpeechChunk.rate``: Kokoro 24 kHz, SpeechT5
16 kHz) all the way to the speaker, the saved wav, the server's reply and the Avatar panel's
clip: resampling Kokoro down to 16 kHz would cut what it says above 8 kHz (the hiss of an "s").
Only what needs 16 kHz (lip-sync's mel frames, the likeness measure) resamples for itself.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.errors import UserError
from app.core.texts import tr
from app.engines.host import LoadRequest
from app.models.kokoro_install import convert_installed
from pipelines.contract import ModelPipeline
from pipelines.core import CancelToken, ModelLoadError
from pipelines.voice.kokoro import MAX_SPEED, MIN_SPEED, KokoroSynthesizer
from pipelines.voice.kokoro_voices import KokoroVoice, StylePack, VoiceBlend
from pipelines.voice.tts import SpeechChunk, SpeechSynthesizer

Synthesizer = SpeechSynthesizer | KokoroSynthesizer

BLEND_MARK = "+"
"""Joins two preset names into a blend's name: ``jf_alpha+jm_kumo@0.30`` (``@`` the share of the
second)."""
WEIGHT_MARK = "@"


OPENAI_VOICES: dict[str, str] = {
    **dict.fromkeys(("alloy", "coral", "nova", "sage", "shimmer"), "f"),
    **dict.fromkeys(("ash", "ballad", "echo", "fable", "onyx", "verse"), "m"),
}
"""OpenAI's speech voices, each with the gender of its sound ("f"/"m"): a client asking for one
gets a preset of that gender (Kokoro names its presets ``<language><gender>_<name>``)."""


class TtsEngine(StrEnum):
    """Which engine a TTS model folder is for."""

    SPEECHT5 = "speecht5"
    KOKORO = "kokoro"


def tts_engine(folder: Path) -> TtsEngine:
    """The engine of the TTS model in ``folder`` (SpeechT5 unless it is a Kokoro folder)."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        config = {}
    if isinstance(config, dict) and config.get("model_type") == "kokoro":
        return TtsEngine.KOKORO
    if (folder / "vocab.json").is_file() and any(folder.glob("*.onnx")):
        return TtsEngine.KOKORO  # installed, not converted yet: readable as it is (slower)
    return TtsEngine.SPEECHT5


def load_tts(request: LoadRequest, *, models_dir: Path | None = None) -> ModelPipeline:
    """The engine loader of the TTS task: SpeechT5 or Kokoro, by the folder's files.

    An installed Kokoro folder (its ONNX, not yet converted) is converted on this first load
    into ``models_dir`` (≈ 11 s once; every later load and sentence is faster:
    :mod:`app.models.kokoro_install`); None reads it as it is.
    """
    model: ModelPipeline
    if tts_engine(request.folder) is TtsEngine.KOKORO:
        folder = request.folder
        if models_dir is not None:
            folder = convert_installed(folder, models_dir)
        model = KokoroSynthesizer(folder, request.device, cache_dir=request.cache_dir)
    else:
        model = SpeechSynthesizer(request.folder, request.device, cache_dir=request.cache_dir)
    model.load()
    return model


def preset_names(folder: Path) -> list[str]:
    """The preset voices of a Kokoro model folder, sorted ([] for SpeechT5 or an unreadable
    voice file: the model's load says why)."""
    if tts_engine(folder) is not TtsEngine.KOKORO:
        return []
    from pipelines.voice.kokoro import KokoroFiles
    from pipelines.voice.kokoro_voices import read_voice_packs

    try:
        return sorted(read_voice_packs(KokoroFiles.in_folder(folder).voices))
    except (ModelLoadError, OSError, ValueError):
        return []


@dataclasses.dataclass(frozen=True)
class PresetVoice:
    """A Kokoro preset, or a blend of two: ``second`` given, ``weight`` its share."""

    first: str
    second: str = ""
    weight: float = 0.0

    @property
    def name(self) -> str:
        if not self.second:
            return self.first
        return f"{self.first}{BLEND_MARK}{self.second}{WEIGHT_MARK}{self.weight:.2f}"

    @property
    def label(self) -> str:
        """How the voice is named to the user ("jf_alpha with 30% of jm_kumo"), where
        :attr:`name` is how it is stored."""
        if not self.second:
            return self.first
        return tr("{first} with {share}% of {second}").format(
            first=self.first, share=round(100 * self.weight), second=self.second
        )


@dataclasses.dataclass(frozen=True)
class ClonedVoice:
    """A voice made from a clip, in its Kokoro form (:mod:`app.voice.kokoro_forms`)."""

    name: str
    pack: StylePack = dataclasses.field(repr=False)


Speaker = npt.NDArray[np.float32] | PresetVoice | ClonedVoice
"""What an engine speaks with: a speaker embedding (SpeechT5), a preset or blend or a voice's
Kokoro form (Kokoro)."""


def parse_preset(name: str, presets: list[str]) -> PresetVoice | None:
    """``name`` as a preset or a blend of two presets (None: it names neither).

    Raises:
        UserError: a blend of an unknown preset, or a share outside 0–1 (``field="voice"``).
    """
    if BLEND_MARK not in name:
        found = _preset(name, presets)
        return PresetVoice(found) if found else None
    pair, _, share = name.partition(WEIGHT_MARK)
    first, _, second = pair.partition(BLEND_MARK)
    try:
        weight = float(share) if share else 0.5
    except ValueError:
        weight = -1.0
    known_first, known_second = _preset(first, presets), _preset(second, presets)
    if not known_first or not known_second or not 0.0 <= weight <= 1.0:
        raise UserError(
            tr(
                "“{name}” is not a blend of two of this model's voices ({voices}) with a share "
                "from 0 to 1, such as {example}."
            ).format(
                name=name,
                voices=", ".join(presets),
                example=PresetVoice(presets[0], presets[-1], 0.3).name if presets else "",
            ),
            field="voice",
        )
    return PresetVoice(known_first, known_second, weight)


def _preset(name: str, presets: list[str]) -> str:
    wanted = name.strip().casefold()
    return next((preset for preset in presets if preset.casefold() == wanted), "")


def kokoro_preset(voice_name: str, presets: list[str]) -> PresetVoice:
    """``voice_name`` as one of a Kokoro model's presets or a blend of two.

    Raises:
        UserError: it names neither (``field="voice"``), with the model's voices.
    """
    preset = parse_preset(voice_name, presets)
    if preset is not None:
        return preset
    raise UserError(
        tr(
            "The Kokoro voice model speaks its own voices ({voices}), not “{name}”: choose "
            "one of them (voices made from a clip speak with a SpeechT5 model)."
        ).format(voices=", ".join(presets), name=voice_name),
        field="voice",
    )


def engine_speech(
    synthesizer: Synthesizer,
    speaker: Speaker,
    text: str,
    cancel: CancelToken | None,
    speed: float = 1.0,
    *,
    short_lead: bool = True,
) -> Iterator[SpeechChunk]:
    """``text``'s sentences from the engine ``synthesizer``, at its rate; ``speed`` is Kokoro's
    pace (SpeechT5 has none: see :func:`speaks_at_speed`); ``short_lead`` as the engines'
    ``speak``.

    Raises:
        UserError: the speaker is not for this engine (the model changed meanwhile).
    """
    if isinstance(speaker, PresetVoice) and isinstance(synthesizer, KokoroSynthesizer):
        voice = kokoro_voice(synthesizer, speaker)
        yield from synthesizer.speak(
            text, voice, speed=speed, cancel=cancel, short_lead=short_lead
        )  # at 24 kHz
    elif isinstance(speaker, ClonedVoice) and isinstance(synthesizer, KokoroSynthesizer):
        yield from synthesizer.speak(
            text, speaker.pack, speed=speed, cancel=cancel, short_lead=short_lead
        )
    elif isinstance(speaker, np.ndarray) and isinstance(synthesizer, SpeechSynthesizer):
        yield from synthesizer.speak(text, speaker, cancel=cancel, short_lead=short_lead)
    else:
        raise UserError(tr("The voice model changed; speak again."), field="voice")


def check_speed(speed: float) -> None:
    """Raise unless Kokoro can speak at ``speed``.

    Raises:
        UserError: out of 0.5–2 (``field="speed"``).
    """
    if not MIN_SPEED <= speed <= MAX_SPEED:
        raise UserError(
            tr("The speed goes from {low} to {high}, not {speed}.").format(
                low=f"{MIN_SPEED:g}", high=f"{MAX_SPEED:g}", speed=f"{speed:g}"
            ),
            field="speed",
        )


def speaks_at_speed(engine: TtsEngine, speed: float) -> bool:
    """Whether ``engine`` speaks at ``speed`` itself (Kokoro's duration model, 0.5–2×); else a
    caller that must honour it time-stretches the audio (the server does)."""
    return engine is TtsEngine.KOKORO and MIN_SPEED <= speed <= MAX_SPEED


def kokoro_voice(synthesizer: KokoroSynthesizer, preset: PresetVoice) -> KokoroVoice:
    """The style pack (or blend) of ``preset`` in the model's voice file.

    Raises:
        UserError: the preset is not in this model's voices (``field="voice"``).
    """
    packs = synthesizer.voices()
    names = [name for name in (preset.first, preset.second) if name]
    missing = [name for name in names if name not in packs]
    if missing:
        raise UserError(
            tr("This Kokoro model has no voice “{name}”.").format(name=missing[0]), field="voice"
        )
    if not preset.second:
        return packs[preset.first]
    return VoiceBlend(packs[preset.first], packs[preset.second], preset.weight)


def openai_preset(requested: str, presets: list[str]) -> str:
    """The preset an OpenAI voice name stands for among ``presets`` ("" when ``requested`` is
    not one of OpenAI's names, or no preset fits). The same name gets the same preset every
    time, and OpenAI's names of one gender are spread over that gender's presets."""
    gender = OPENAI_VOICES.get(requested.strip().casefold())
    if gender is None:
        return ""
    fitting = [name for name in presets if len(name) > 2 and name[1] == gender] or presets
    if not fitting:
        return ""
    same_gender = [name for name, sound in OPENAI_VOICES.items() if sound == gender]
    return fitting[same_gender.index(requested.strip().casefold()) % len(fitting)]
