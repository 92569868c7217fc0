"""A voice made from a clip, spoken by the real Kokoro-82M: its Kokoro form is derived from the
stored clip on demand (a job with progress and Stop), stored in the voice's folder for that
model, and then the voice speaks and gets a likeness figure like any other; a damaged form, a
form of another model and a clip that cannot be used are each one sentence."""

from __future__ import annotations

import dataclasses
import io
import json
import stat
from pathlib import Path

import numpy as np
import pytest

from app.core.errors import UserError
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.models.registry import ModelRegistry
from app.voice.jobs import make_kokoro_voice_job
from app.voice.kokoro_forms import (
    FORM_FILE,
    FormState,
    form_state,
    kokoro_model_id,
    read_form,
    write_form,
)
from app.voice.kokoro_making import make_kokoro_voice
from app.voice.library import Voice
from app.voice.service import VoiceService
from pipelines.core import Cancelled, CancelToken, Progress
from pipelines.voice.audio import MODEL_RATE, read_clip
from pipelines.voice.kokoro import KOKORO_RATE
from pipelines.voice.kokoro_clone import CloneSettings
from tests.audio_samples import write_clip
from tests.integration.voice.test_service import CPU

pytestmark = pytest.mark.integration

QUICK = CloneSettings(
    initial=2,
    steps=1,
    finalists=1,
    search_text="Hello there, how are you today?",
    check_text="Good morning to you.",
)
"""A search small enough for a test (nine short syntheses): the plumbing, not the quality
(that is tests/integration/voice/test_kokoro_clone.py and the benchmark)."""


@pytest.fixture
def service(
    app_home: AppPaths, converted_kokoro: Path, speaker_similarity_dir: Path, metrics: MetricsBus
) -> VoiceService:
    folders = {
        ModelTask.TTS: converted_kokoro,
        ModelTask.SPEAKER_SIMILARITY: speaker_similarity_dir,
    }
    settings = Settings(models=ModelChoices().with_folders(folders))
    registry = ModelRegistry(app_home.model_registry, app_home.models_dir)
    return VoiceService(app_home.voices_dir, settings, metrics, [CPU], registry)


@pytest.fixture
def joe(service: VoiceService, speaker_similarity_dir: Path, tmp_path: Path) -> Voice:
    """A library voice made from real speech (Piper's "joe", ≈ 8 s; its x-vector a stand-in:
    Kokoro does not use it)."""
    folder = speaker_similarity_dir / "clips"
    samples = np.concatenate([read_clip(folder / f"piper-joe-{i}.wav").samples for i in range(3)])
    wav = write_clip(tmp_path / "joe.wav", samples)
    embedding = np.full(512, 1 / np.sqrt(512), np.float32)
    return service.library.add("Joe", embedding, wav, samples.size / MODEL_RATE)


def _spoken(service: VoiceService, text: str, voice: str) -> np.ndarray:
    chunks = list(service.speak(text, voice))
    assert {chunk.rate for chunk in chunks} == {KOKORO_RATE}
    return np.concatenate([chunk.samples for chunk in chunks])


def test_a_voice_speaks_with_kokoro_once_its_form_is_made_and_gets_a_likeness(
    service: VoiceService, joe: Voice, converted_kokoro: Path
) -> None:
    with pytest.raises(UserError) as error:
        service.speak("Hello.", "Joe")
    assert "“Joe” has no Kokoro form yet: make it first" in str(error.value)
    assert error.value.field == "voice"
    assert "Joe" not in service.voice_names() and service.likeness.pending() == []
    model = kokoro_model_id(converted_kokoro)
    assert form_state(joe, model)[0] is FormState.MISSING

    seen: list[Progress] = []
    form = make_kokoro_voice_job(service, "Joe", None, CancelToken(), seen.append, QUICK)

    assert [p.done for p in seen] == list(range(1, seen[0].total + 1)) and seen[0].total == 9
    assert form.model == model and 0.0 < form.score <= 1.0
    assert stat.S_IMODE((joe.folder / FORM_FILE).stat().st_mode) == 0o600
    stored = read_form(joe.folder)
    assert stored is not None and np.array_equal(stored.pack, form.pack)
    assert form_state(joe, model) == (FormState.READY, "")
    assert service.voice_names()[-1] == "Joe"
    audio = _spoken(service, "The bakery sells fresh bread.", "joe")
    assert 1.0 < audio.size / KOKORO_RATE < 5.0

    # The likeness figure applies to the Kokoro form as to any voice.
    assert [voice.name for voice in service.likeness.pending()] == ["Joe"]
    assert service.likeness.measure_pending() == 1
    figure = service.likeness.figures([joe])[joe.id]
    assert figure is not None and 0.3 < figure <= 1.0

    # A form made for another Kokoro model is not this one's: it is made again.
    write_form(joe.folder, dataclasses.replace(form, model="kokoro:0123456789abcdef"))
    with pytest.raises(UserError, match="no Kokoro form yet"):
        service.speak("Hello.", "Joe")


def _npz(**arrays: object) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


GOOD_META = np.frombuffer(
    b'{"version": 1, "model": "kokoro:x", "encoder": "ge2e:x", "score": 0.9, "created": 1}',
    np.uint8,
)
PACK = np.zeros((510, 1, 256), np.float32)
NAN_PACK = PACK.copy()
NAN_PACK[5, 0, 5] = np.nan
DAMAGES = {
    "not-npz": b"this is not a saved voice" * 40,
    "cut-short": _npz(pack=PACK, meta=GOOD_META)[:4000],
    "wrong-shape": _npz(pack=np.zeros((10, 256), np.float32), meta=GOOD_META),
    "nan": _npz(pack=NAN_PACK, meta=GOOD_META),
    "float64": _npz(pack=PACK.astype(np.float64), meta=GOOD_META),
    "pickle": _npz(pack=np.array([{"a": 1}], dtype=object), meta=GOOD_META),
    "no-record": _npz(pack=PACK),
    "bad-record": _npz(pack=PACK, meta=np.frombuffer(b"[1, 2]", np.uint8)),
    "huge": b"\0" * (5 << 20),
}


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_damaged_form_is_one_sentence(
    service: VoiceService, joe: Voice, converted_kokoro: Path, damage: str
) -> None:
    (joe.folder / FORM_FILE).write_bytes(DAMAGES[damage])
    with pytest.raises(UserError) as error:
        service.speak("Hello.", "Joe")
    message = str(error.value)
    assert message.startswith("The Kokoro form of “Joe” is damaged (") and message.endswith(
        "; make it again."
    )
    assert message.count(".") <= 3 and "\n" not in message, message
    assert form_state(joe, kokoro_model_id(converted_kokoro))[0] is FormState.DAMAGED
    assert "Joe" not in service.voice_names()
    assert [voice.name for voice in service.library.voices()] == ["Joe"]  # the voice is fine


def test_a_damaged_form_is_made_again(service: VoiceService, joe: Voice) -> None:
    (joe.folder / FORM_FILE).write_bytes(DAMAGES["not-npz"])
    make_kokoro_voice(service, "Joe", settings=QUICK)
    assert _spoken(service, "Good night.", "Joe").size > 0


@pytest.mark.parametrize(
    ("clip", "expected"),
    [
        ("silent", "The clip of “Joe” cannot be used: "),
        ("two-seconds", "The clip of “Joe” cannot be used: "),
        ("missing", "The clip of “Joe” is missing, so no Kokoro form can be made of it."),
    ],
)
def test_a_clip_that_cannot_be_used_makes_no_form(
    service: VoiceService, joe: Voice, clip: str, expected: str
) -> None:
    if clip == "missing":
        joe.reference.unlink()
    else:
        seconds = 10.0 if clip == "silent" else 2.0
        samples = np.zeros(int(seconds * MODEL_RATE), np.float32)
        if clip == "two-seconds":
            samples = read_clip(joe.reference).samples[: samples.size]
        write_clip(joe.reference, samples)
    before = sorted(path.name for path in joe.folder.iterdir())
    with pytest.raises(UserError) as error:
        make_kokoro_voice(service, "Joe", settings=QUICK)
    assert str(error.value).startswith(expected) and error.value.field == "reference"
    assert sorted(path.name for path in joe.folder.iterdir()) == before


def test_stop_writes_nothing_and_frees_the_models(service: VoiceService, joe: Voice) -> None:
    cancel = CancelToken()

    def stop_at_two(progress: Progress) -> None:
        if progress.done == 2:
            cancel.cancel()

    before = sorted(path.name for path in joe.folder.iterdir())
    with pytest.raises(Cancelled):
        make_kokoro_voice_job(service, "Joe", None, cancel, stop_at_two, QUICK)
    assert sorted(path.name for path in joe.folder.iterdir()) == before
    assert not service.busy
    assert _spoken(service, "Hello there.", "jm_kumo").size > 0


def test_the_cli_makes_a_kokoro_form_and_says_what_is_wrong(
    joe: Voice,
    converted_kokoro: Path,
    speaker_similarity_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from app.cli.main import main
    from pipelines.voice import kokoro_clone

    monkeypatch.setenv("OV_STUDIO_MODELS__TTS__FOLDER", str(converted_kokoro))
    monkeypatch.setenv("OV_STUDIO_MODELS__SPEAKER_SIMILARITY__FOLDER", str(speaker_similarity_dir))
    monkeypatch.setattr(kokoro_clone, "CloneSettings", lambda: QUICK)  # the search's size only

    assert main(["voices", "make-kokoro", "Nobody"]) == 2
    refused = capsys.readouterr().err
    assert refused.count("\n") == 1 and "Nobody" in refused

    assert main(["voices", "make-kokoro", "Joe", "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["name"] == "Joe" and 0.0 < made["search_score"] <= 1.0
    assert made["model"] == kokoro_model_id(converted_kokoro)
    assert main(["voices", "list"]) == 0
    assert any(line.startswith("Joe ") for line in capsys.readouterr().out.splitlines())
