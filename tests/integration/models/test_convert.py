"""Real conversions in the model manager's job process: a tiny Qwen2 checkpoint with optimum-intel
+ NNCF; voice models (SpeechT5 + vocoder, the x-vector encoder) and Wav2Lip."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import psutil
import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.convert import Converter, ConvertProgress, convert_model
from app.models.convert_plan import ConvertRequest, Weights, plan_conversion
from app.models.inspect import detect_task
from app.models.registry import ModelRegistry
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import Cancelled, CancelToken
from pipelines.generation import GenerationSettings, Message
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


@pytest.fixture(scope="module")
def converted_registry(tmp_path_factory: pytest.TempPathFactory) -> ModelRegistry:
    home = tmp_path_factory.mktemp("convert-home")
    return ModelRegistry(home / "models.json", home / "models")


def _stray_entries(converted_registry: ModelRegistry) -> list[str]:
    """Anything under the models folder that is not an installed model's folder."""
    installed = {m.folder.name for m in converted_registry.models()}
    if not converted_registry.models_dir.exists():
        return []
    return sorted(
        p.name for p in converted_registry.models_dir.iterdir() if p.name not in installed
    )


def _compression(folder: Path) -> dict[str, str]:
    """NNCF's record of how the weights were compressed (rt_info at the end of the IR)."""
    text = (folder / "openvino_model.xml").read_text(encoding="utf-8")
    section = text[text.rindex("<weight_compression>") : text.rindex("</weight_compression>")]
    return dict(re.findall(r'<(\w+) value="([^"]*)"', section))


@pytest.mark.parametrize(
    ("request_", "precision", "compression"),
    [
        (ConvertRequest("", Weights.INT8), "int8", {"mode": "int8_asym"}),
        (
            ConvertRequest("", Weights.INT4, group_size=32, ratio=1.0),
            "int4",
            {"mode": "int4_asym", "group_size": "32", "ratio": "1.0"},
        ),
        (
            ConvertRequest("", Weights.NPU),
            "int4",
            {"mode": "int4_sym", "group_size": "-1", "ratio": "1.0"},
        ),
    ],
    ids=["int8", "int4", "npu"],
)
def test_converted_models_are_registered_and_generate(
    tiny_checkpoint: Path,
    converted_registry: ModelRegistry,
    request_: ConvertRequest,
    precision: str,
    compression: dict[str, str],
) -> None:
    stages: list[ConvertProgress] = []
    request = ConvertRequest(
        str(tiny_checkpoint), request_.weights, None, request_.group_size, request_.ratio
    )
    model = convert_model(request, converted_registry, on_progress=stages.append)

    assert [p.stage for p in stages] == ["check", "export", "compress", "validate", "done"]
    assert [p.step for p in stages] == sorted(p.step for p in stages)
    assert stages[-1].step == stages[-1].steps
    assert model.id == f"llm-tiny-hf-{request_.weights.value}-ov"
    assert (model.task, model.precision, model.source) == (ModelTask.CHAT, precision, "converted")
    assert model.usable and model.owned and model.size_bytes > 0
    assert converted_registry.deletes_files(model)  # marked as the app's: Remove deletes it
    assert converted_registry.get(model.id).folder == converted_registry.models_dir / model.id
    assert compression.items() <= _compression(model.folder).items()
    assert _stray_entries(converted_registry) == []

    pipe = ChatPipeline(ChatModelConfig(model.folder, "CPU"))
    pipe.load()
    settings = GenerationSettings(max_new_tokens=4, temperature=0.0, ignore_eos=True)
    result = pipe.generate([Message("user", "Hello")], settings, CancelToken(), lambda _: None)
    assert result.metrics.values["output_tokens"] == 4 and not result.stopped


def test_cancel_midway_kills_the_job_and_leaves_nothing(
    tiny_checkpoint: Path, converted_registry: ModelRegistry
) -> None:
    cancel = CancelToken()
    children: list[int] = []
    # Processes an earlier test left for the session (a database server, a stand-in hub) are
    # not the job's: only those started since are.
    before = {p.pid for p in psutil.Process().children(recursive=True)}

    def stop_when_exporting(progress: ConvertProgress) -> None:
        if progress.stage == "export":
            now = psutil.Process().children(recursive=True)
            children.extend(p.pid for p in now if p.pid not in before)
            cancel.cancel()

    request = ConvertRequest(str(tiny_checkpoint), Weights.FP16, name="cancelled")
    with pytest.raises(Cancelled):
        Converter(converted_registry).convert(request, cancel, stop_when_exporting)
    assert children and not any(psutil.pid_exists(pid) for pid in children)
    assert "cancelled" not in [m.id for m in converted_registry.models()]
    assert _stray_entries(converted_registry) == []


def test_a_skipped_tokenizer_is_caught(
    tiny_checkpoint: Path, converted_registry: ModelRegistry, tmp_path: Path
) -> None:
    """optimum exports the model and silently skips a tokenizer it cannot convert."""
    broken = tmp_path / "broken-tokenizer"
    shutil.copytree(tiny_checkpoint, broken)
    (broken / "tokenizer.json").write_text('{"model": {"type": "Nope"}}', encoding="utf-8")
    with pytest.raises(UserError, match="tokenizer did not"):
        convert_model(ConvertRequest(str(broken), Weights.FP16), converted_registry)
    assert _stray_entries(converted_registry) == []


def test_a_group_size_that_does_not_fit_says_what_to_choose(
    tiny_checkpoint: Path, converted_registry: ModelRegistry
) -> None:
    request = ConvertRequest(str(tiny_checkpoint), Weights.INT4, group_size=128, name="g128")
    with pytest.raises(UserError, match=r"layers as narrow as 64.*smaller group size"):
        convert_model(request, converted_registry)
    assert _stray_entries(converted_registry) == []


def test_an_unsupported_architecture_is_named(
    converted_registry: ModelRegistry, tmp_path: Path
) -> None:
    folder = tmp_path / "xlnet"
    folder.mkdir()
    config = {"model_type": "xlnet", "architectures": ["XLNetLMHeadModel"]}
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "model.safetensors").write_bytes(b"\0" * 16)
    (folder / "spiece.model").write_bytes(b"\0" * 16)
    with pytest.raises(UserError, match="cannot convert “xlnet” models"):
        convert_model(ConvertRequest(str(folder), Weights.INT8, ModelTask.CHAT), converted_registry)
    assert _stray_entries(converted_registry) == []


def test_a_hub_id_offline_is_one_sentence_without_an_errno(
    converted_registry: ModelRegistry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Offline, huggingface_hub (1.21) retries with the client it closed: the job says the hub
    cannot be reached, as downloads do, instead of crashing on that RuntimeError."""
    monkeypatch.setenv("HF_ENDPOINT", "http://nonexistent.invalid")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    request = ConvertRequest("someone/some-model", Weights.INT8, ModelTask.CHAT)
    with pytest.raises(UserError) as caught:
        convert_model(request, converted_registry)
    assert str(caught.value) == (
        "Can't reach the model hub at http://nonexistent.invalid — check your connection or "
        "proxy; HF_ENDPOINT is http://nonexistent.invalid."
    )
    assert _stray_entries(converted_registry) == []


def test_a_diffusers_inpainting_pipeline_converts_and_repaints(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    # A tiny random Stable Diffusion inpainting pipeline as diffusers saves it (no config.json
    # at its top): found to be one, exported for inpainting, registered, and it repaints.
    pytest.importorskip("diffusers")
    from pipelines.images import ImageGenerator, ImageModelConfig, ImageRequest

    folder = tmp_path / "tiny-inpaint"
    # Written in a child process, as the fixture builder runs (torch and diffusers stay there).
    fixtures = Path(__file__).parents[2] / "fixtures"
    write = (
        "from diffusion_models import write_pipeline as w; w(Path(sys.argv[1]), inpainting=True)"
    )
    subprocess.run(
        [sys.executable, "-c", f"import sys; from pathlib import Path; {write}", str(folder)],
        cwd=fixtures,
        check=True,
        capture_output=True,
    )
    stages: list[ConvertProgress] = []
    request = ConvertRequest(str(folder), Weights.INT8)
    model = convert_model(request, registry, on_progress=stages.append)
    assert (model.id, model.task) == ("tiny-inpaint-int8-ov", ModelTask.IMAGE_GENERATION)
    assert model.usable and stages[-1].stage == "done"
    picture = np.full((64, 64, 3), 200, np.uint8)
    mask = np.zeros((64, 64), np.uint8)
    mask[16:48, 16:48] = 255
    with ImageGenerator(ImageModelConfig(model.folder)) as images:
        result = images.inpaint(ImageRequest("a red door", steps=2, seed=1), picture, mask)
    repainted = result.pictures[0]
    assert repainted.shape == (64, 64, 3)
    assert (repainted[:8, :8] == 200).all()  # outside the mask: the user's own pixels
    assert _leftovers(registry) == []
