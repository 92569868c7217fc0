"""Converting voice models in the model manager's job: SpeechT5 + vocoder, x-vector encoder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.convert import convert_model
from app.models.convert_plan import ConvertRequest, Weights, plan_conversion
from app.models.inspect import detect_task
from app.models.registry import ModelRegistry
from pipelines.voice.speaker import SpeakerEncoder
from pipelines.voice.tts import SpeechSynthesizer

pytestmark = pytest.mark.integration


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "home" / "models.json", tmp_path / "home" / "models")


@pytest.fixture
def xvector_checkpoint(tmp_path: Path) -> Path:
    """A speechbrain-layout checkpoint folder (random weights, small channels)."""
    torch = pytest.importorskip("torch")
    from app.models.xvector_torch import XVector

    torch.manual_seed(3)
    model = XVector([32, 32, 32, 32, 96], [5, 3, 3, 1, 1], [1, 2, 3, 1, 1])
    folder = tmp_path / "spkrec-xvect"
    folder.mkdir()
    torch.save(model.state_dict(), folder / "embedding_model.ckpt")
    (folder / "hyperparams.yaml").write_text("tdnn_dilations: [1, 2, 3, 1, 1]\n")
    return folder


def _leftovers(registry: ModelRegistry) -> list[str]:
    installed = {m.folder.name for m in registry.models()}
    return sorted(p.name for p in registry.models_dir.iterdir() if p.name not in installed)


def test_speecht5_with_its_vocoder_converts_and_speaks(
    speecht5_checkpoints: Path, registry: ModelRegistry
) -> None:
    request = ConvertRequest(
        str(speecht5_checkpoints / "tts"),
        Weights.INT8,
        vocoder=str(speecht5_checkpoints / "vocoder"),
        name="speecht5-test",
    )
    model = convert_model(request, registry)
    assert model.task is ModelTask.TTS and model.usable
    assert detect_task(model.folder) is ModelTask.TTS
    synthesizer = SpeechSynthesizer(model.folder)
    chunks = list(synthesizer.speak("Hi.", np.full(512, 0.04, np.float32)))
    assert chunks[0].samples.size > 0
    assert _leftovers(registry) == []


def test_speecht5_task_is_detected_from_its_config(speecht5_checkpoints: Path) -> None:
    from app.models.convert_plan import detect_checkpoint_task

    assert detect_checkpoint_task(speecht5_checkpoints / "tts") is ModelTask.TTS


def test_speaker_encoder_converts_with_int8_weights(
    xvector_checkpoint: Path, registry: ModelRegistry
) -> None:
    request = ConvertRequest(
        str(xvector_checkpoint), Weights.INT8, task=ModelTask.SPEAKER_ENCODER, name="xvec"
    )
    model = convert_model(request, registry)
    assert model.task is ModelTask.SPEAKER_ENCODER and model.usable
    assert model.precision == "int8"
    vector = SpeakerEncoder(model.folder).embed(np.random.default_rng(0).standard_normal(32000))
    assert vector.shape == (512,)
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-5)
    assert _leftovers(registry) == []


def test_speaker_encoder_from_a_checkpoint_that_is_not_one(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    torch = pytest.importorskip("torch")
    folder = tmp_path / "other"
    folder.mkdir()
    torch.save({"encoder.weight": torch.zeros(4, 4)}, folder / "model.ckpt")
    request = ConvertRequest(str(folder), Weights.INT8, task=ModelTask.SPEAKER_ENCODER)
    with pytest.raises(UserError, match="no TDNN layers"):
        convert_model(request, registry)
    assert _leftovers(registry) == []


@pytest.mark.parametrize(
    ("request_kwargs", "message", "field"),
    [
        ({"weights": Weights.INT4}, "int8 or fp16", "weights"),
        ({"vocoder": "x/y"}, "vocoder applies to text-to-speech", "vocoder"),
    ],
)
def test_speaker_encoder_options_are_checked_first(
    xvector_checkpoint: Path,
    registry: ModelRegistry,
    request_kwargs: dict[str, object],
    message: str,
    field: str,
) -> None:
    kwargs: dict[str, object] = {"weights": Weights.INT8, **request_kwargs}
    request = ConvertRequest(
        str(xvector_checkpoint),
        task=ModelTask.SPEAKER_ENCODER,
        **kwargs,  # type: ignore[arg-type]
    )
    with pytest.raises(UserError, match=message) as caught:
        plan_conversion(request, registry)
    assert caught.value.field == field


def test_folder_without_a_checkpoint_is_refused(tmp_path: Path, registry: ModelRegistry) -> None:
    (tmp_path / "empty").mkdir()
    request = ConvertRequest(str(tmp_path / "empty"), Weights.INT8, task=ModelTask.LIPSYNC)
    with pytest.raises(UserError, match="no torch checkpoint"):
        plan_conversion(request, registry)


def test_wav2lip_checkpoint_converts_with_its_licence_notice(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    torch = pytest.importorskip("torch")
    from app.models.wav2lip_torch import Wav2Lip
    from pipelines.lipsync.model import LipsyncModel

    torch.manual_seed(0)
    state = {f"module.{key}": value for key, value in Wav2Lip().state_dict().items()}
    checkpoint = tmp_path / "wav2lip_gan.pth"
    torch.save({"state_dict": state, "global_step": 1}, checkpoint)  # the published layout
    request = ConvertRequest(str(checkpoint), Weights.INT8, task=ModelTask.LIPSYNC)
    stages: list[str] = []
    model = convert_model(request, registry, on_progress=lambda p: stages.append(p.message))
    assert model.id == "wav2lip_gan-int8-ov"
    assert model.task is ModelTask.LIPSYNC and model.usable and model.precision == "int8"
    assert "non-commercial" in model.licence
    # int8 weights *and* activations, kept because they stayed close to the float model.
    config = json.loads((model.folder / "config.json").read_text(encoding="utf-8"))
    assert config["activations"] == "int8" and config["int8_check_snr_db"] >= 30
    assert any(stage.startswith("Int8 weights and activations kept") for stage in stages)
    faces = np.random.default_rng(0).random((3, 6, 96, 96), dtype=np.float32)
    out = LipsyncModel(model.folder).infer(np.zeros((3, 1, 80, 16), np.float32), faces)
    assert out.shape == (3, 3, 96, 96) and out.min() >= 0.0 and out.max() <= 1.0
    assert _leftovers(registry) == []


def test_lipsync_checkpoint_of_another_network_is_refused(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    torch = pytest.importorskip("torch")
    torch.save({"state_dict": {"conv.weight": torch.zeros(2, 2)}}, tmp_path / "other.pth")
    request = ConvertRequest(str(tmp_path / "other.pth"), Weights.FP16, task=ModelTask.LIPSYNC)
    with pytest.raises(UserError, match="do not fit Wav2Lip's layers"):
        convert_model(request, registry)
    assert _leftovers(registry) == []


def test_speecht5_is_converted_with_int8_or_fp16_only(
    speecht5_checkpoints: Path, registry: ModelRegistry
) -> None:
    for weights in (Weights.INT4, Weights.NPU):
        request = ConvertRequest(
            str(speecht5_checkpoints / "tts"), weights, task=ModelTask.TTS, name="speecht5-x"
        )
        with pytest.raises(UserError, match="int8 or fp16") as raised:
            plan_conversion(request, registry)
        assert raised.value.field == "weights"


def test_wav2lip_fp16_weights_are_stored_as_fp16(tmp_path: Path, registry: ModelRegistry) -> None:
    torch = pytest.importorskip("torch")
    from app.models.wav2lip_torch import Wav2Lip

    torch.manual_seed(0)
    network = Wav2Lip()
    torch.save({"state_dict": network.state_dict()}, tmp_path / "wav2lip.pth")
    request = ConvertRequest(str(tmp_path / "wav2lip.pth"), Weights.FP16, task=ModelTask.LIPSYNC)
    model = convert_model(request, registry)
    assert model.precision == "fp16"
    config = json.loads((model.folder / "config.json").read_text(encoding="utf-8"))
    assert config["weights"] == "fp16" and "activations" not in config
    parameters = sum(p.numel() for p in network.parameters())
    size = (model.folder / "openvino_model.bin").stat().st_size
    # Two bytes a weight, not four (batch norms fold into their convolutions: a few fewer).
    assert 1.9 * parameters <= size < 2.2 * parameters
