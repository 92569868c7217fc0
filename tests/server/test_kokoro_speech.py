"""``/v1/audio/speech`` on the real Kokoro-82M, with the official ``openai`` client: OpenAI's voice
names stand for presets of the same gender, presets and blends are voices, and the speech is
heard back by the real Whisper tiny.en through ``/v1/audio/transcriptions`` of the same server."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import openai
import pytest
import soundfile

from app.voice import TtsEngine, openai_preset, speaks_at_speed
from tests.app_process import models_env
from tests.server.audio_serving import client, serve_models
from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

PRESETS = ["jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]
TEXT = "The train to the airport leaves every quarter of an hour."


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, converted_kokoro: Path, whisper_model_dir: Path
) -> Iterator[RunningServer]:
    home = tmp_path_factory.mktemp("kokoro-home")
    environ = models_env(tts=converted_kokoro, speech_to_text=whisper_model_dir)
    running = serve_models(home, environ)
    yield next(running)
    running.close()


def heard(server: RunningServer, wav: bytes) -> str:
    upload = ("speech.wav", io.BytesIO(wav), "audio/wav")
    text = client(server).audio.transcriptions.create(model="whisper-1", file=upload).text
    return text.lower()


@pytest.mark.parametrize("voice", ["nova", "onyx", "jm_kumo", "jf_alpha+jm_kumo@0.30"])
def test_openai_names_presets_and_blends_speak_and_are_heard(
    server: RunningServer, voice: str
) -> None:
    wav = client(server).audio.speech.create(
        model="tts-1", voice=voice, input=TEXT, response_format="wav"
    )
    words = heard(server, wav.read())
    assert "airport" in words and "quarter" in words


def test_openai_names_map_to_presets_of_their_gender() -> None:
    assert openai_preset("onyx", PRESETS) == openai_preset("echo", PRESETS) == "jm_kumo"
    female = {openai_preset(name, PRESETS) for name in ("alloy", "coral", "nova", "sage")}
    assert female == {"jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro"}
    assert openai_preset("NOVA ", PRESETS) == openai_preset("nova", PRESETS)
    assert openai_preset("nova", ["jm_kumo"]) == "jm_kumo"  # no preset of that gender
    assert openai_preset("Ada", PRESETS) == ""


@pytest.mark.parametrize(
    ("voice", "expected"),
    [
        ("Ada", "There is no voice named 'Ada'; the voices are: jf_alpha, "),
        ("jf_alpha+nobody@0.5", "“jf_alpha+nobody@0.5” is not a blend of two of this model's"),
    ],
)
def test_a_voice_the_model_does_not_have_is_a_400_naming_it(
    server: RunningServer, voice: str, expected: str
) -> None:
    with pytest.raises(openai.BadRequestError) as error:
        client(server).audio.speech.create(model="tts-1", voice=voice, input=TEXT)
    assert error.value.status_code == 400
    body = error.value.body
    assert isinstance(body, dict)
    assert str(body["message"]).startswith(expected)
    assert body["param"] == "voice"


def test_speed_is_kokoros_own_pace_and_stretched_beyond_it(server: RunningServer) -> None:
    def seconds(speed: float) -> float:
        wav = client(server).audio.speech.create(
            model="tts-1", voice="jm_kumo", input=TEXT, response_format="wav", speed=speed
        )
        return float(soundfile.info(io.BytesIO(wav.read())).duration)

    own, faster, fastest = seconds(1.0), seconds(1.5), seconds(4.0)
    assert 0.5 < faster / own < 0.8  # Kokoro's durations at 1.5×
    assert 0.15 < fastest / own < 0.35  # beyond its 2×: time-stretched to 4×


def test_only_kokoro_in_its_range_speaks_at_a_speed_itself() -> None:
    assert speaks_at_speed(TtsEngine.KOKORO, 0.5) and speaks_at_speed(TtsEngine.KOKORO, 2.0)
    assert not speaks_at_speed(TtsEngine.KOKORO, 2.5)
    assert not speaks_at_speed(TtsEngine.SPEECHT5, 1.5)
