"""Real conversions of a tiny Qwen2 checkpoint with optimum-intel + NNCF, in the job process."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import psutil
import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.convert import Converter, ConvertProgress, convert_model
from app.models.convert_plan import ConvertRequest, Weights
from app.models.registry import ModelRegistry
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import Cancelled, CancelToken
from pipelines.generation import GenerationSettings, Message

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def converted_registry(tmp_path_factory: pytest.TempPathFactory) -> ModelRegistry:
    home = tmp_path_factory.mktemp("convert-home")
    return ModelRegistry(home / "models.json", home / "models")


def _stray_entries(converted_registry: ModelRegistry) -> list[str]:
    """Anything under the models folder that is not an installed model's folder."""
    installed = {m.folder.name for m in converted_registry.models()}
    if not converted_registry.models_dir.exists():
        return []
    return sorted(p.name for p in converted_registry.models_dir.iterdir() if p.name not in installed)


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

    def stop_when_exporting(progress: ConvertProgress) -> None:
        if progress.stage == "export":
            children.extend(p.pid for p in psutil.Process().children(recursive=True))
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


def test_an_unsupported_architecture_is_named(converted_registry: ModelRegistry, tmp_path: Path) -> None:
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
