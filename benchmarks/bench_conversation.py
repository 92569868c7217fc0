"""Conversation benchmark: writes benchmarks/results/conversation.json.

Part ``answer`` (this file so far): a typed question → the time to the first audio of the spoken
answer and to its first lip-synced frame, through :class:`app.conversation.spoken_answer.
SpokenAnswer` as the app runs it — the real SmolLM2-135M (GGUF, fixture ``llm-real``) streams
the answer, the full-size random SpeechT5 + HiFiGAN int8 (``speecht5-bench``) speaks each
sentence as it completes, and the full-size random Wav2Lip int8 (``wav2lip-bench``) with
BlazeFace lip-syncs it on a still image; audio plays into the tests' virtual sound card (a
PulseAudio null sink), so "first audio" is the first sample handed to a real output device.

Random TTS weights never "decide" to stop: the generation config fixes the length ratio to about
what real speech has (as ``bench_voice.py``). Latency is counted from the moment the question is
sent (typed input: the end of the user's speech is that moment); the models are loaded and warm
(one answer first), as in a conversation under way. Whisper's real-time factor and the VAD cost
are the speech-input parts, still to be added.

Run: ``.venv/bin/python benchmarks/bench_conversation.py``.
"""

from __future__ import annotations

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

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "conversation.json"
log = logging.getLogger("bench_conversation")
ROLES = ["llm-real", "speecht5-bench", "wav2lip-bench", "face-detector"]
LENGTH = {"minlenratio": 4.0, "maxlenratio": 4.2, "threshold": 0.5}  # as bench_voice.py
QUESTIONS = [
    "What is the capital of France? Answer in two sentences.",
    "Why is the sky blue? Explain briefly.",
    "Give me one tip for sleeping well.",
]
MAX_NEW_TOKENS = 60
GOALS = {"first_audio_at_most_s": 1.2, "first_frame_at_most_s": 2.0}


class Rig:
    """The services of a conversation on the benchmark models, and a virtual sound card."""

    def __init__(self, root: Path, home: Path) -> None:
        from app.devices import DeviceInfo
        from app.models.registry import ModelRegistry
        from app.performance.metrics import MetricsBus
        from app.services.avatar import AvatarService
        from app.services.chat import ChatService
        from app.services.voice import VoiceService
        from app.settings import Settings
        from app.storage.conversations import ConversationStore
        from tests.audio_device import VirtualSoundCard
        from tests.fixtures.real_models import SMOLLM2_FILE

        cpu = [DeviceInfo("CPU", "CPU")]
        settings = Settings(
            tts_model=root / "speecht5-bench" / "int8",
            lipsync_model=root / "wav2lip-bench" / "int8",
        )
        registry = ModelRegistry(home / "models.json", home / "models")
        self.metrics = MetricsBus()
        self.voice = VoiceService(home / "voices", settings, self.metrics, cpu, registry)
        self.avatar = AvatarService(
            home / "avatar", settings, self.metrics, cpu, registry, self.voice
        )
        self.chat = ChatService(ConversationStore(home / "conversations"), self.metrics, cpu)
        self.chat.load_model(root / "llm-real" / SMOLLM2_FILE, "CPU")
        self.face = home / "astronaut.png"
        self.card = VirtualSoundCard()
        speaker = np.random.default_rng(0).standard_normal(512).astype(np.float32)
        self.speaker = speaker / np.linalg.norm(speaker)

    def __enter__(self) -> Rig:
        import cv2
        from skimage import data

        cv2.imwrite(str(self.face), data.astronaut()[:, :, ::-1])
        self.card.start()
        self.card.attach()
        synthesizer, _ = self.voice._synthesizer("CPU")  # benchmark only: fix the length
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
        from app.conversation.spoken_answer import SpokenAnswer
        from pipelines.chat import GenerationSettings
        from pipelines.core import CancelToken

        conversation = self.chat.new_conversation("Answer briefly.", transient=True)
        generation = CancelToken()
        sent = time.perf_counter()
        spoken = SpokenAnswer(
            self.voice,
            self.speaker,
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


def summary(runs: list[dict[str, Any]]) -> dict[str, float]:
    """Median of each figure over the runs."""
    names = [name for name, value in runs[0].items() if isinstance(value, float)]
    return {
        name: round(statistics.median(run[name] for run in runs if name in run), 1)
        for name in names
    }


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    root = load_builder().ensure_fixtures(ROLES)
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "answer": {
            "models": {
                "llm": "SmolLM2-135M-Instruct Q4_1 GGUF (real weights)",
                "tts": "speecht5-bench int8: random SpeechT5 (speecht5_tts shape) + HiFiGAN",
                "lipsync": "wav2lip-bench int8: full-size Wav2Lip, random weights; BlazeFace",
            },
            "length_config": LENGTH,
            "max_new_tokens": MAX_NEW_TOKENS,
            "questions": QUESTIONS,
        },
    }
    with (
        tempfile.TemporaryDirectory(prefix="bench-conversation-") as name,
        Rig(root, Path(name)) as rig,
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
    audio = results["answer"]["audio_only"]["median"]["first_audio_ms"] / 1000.0
    frame = results["answer"]["with_face"]["median"]["first_frame_ms"] / 1000.0
    results["answer"]["goals"] = {
        **GOALS,
        "first_audio_met": audio <= GOALS["first_audio_at_most_s"],
        "first_frame_met": frame <= GOALS["first_frame_at_most_s"],
    }
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
