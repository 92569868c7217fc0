"""ESRGAN-family checkpoints: read in every published layout, refused when they are not one,
and converted through the real conversion job into an upscaler the registry recognises."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.convert import convert_model
from app.models.convert_plan import ConvertRequest, Weights, plan_conversion
from app.models.inspect import detect_task
from app.models.registry import ModelRegistry
from tests.fixtures.upscale_models import TINY, save_checkpoint, tiny_rrdbnet

torch = pytest.importorskip("torch")
esrgan = pytest.importorskip("app.models.esrgan_torch")

pytestmark = pytest.mark.integration


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "home" / "models.json", tmp_path / "home" / "models")


def _picture(height: int, width: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).random((1, 3, height, width), dtype=np.float32)


def _torch_output(network: object, picture: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return network(torch.from_numpy(picture)).numpy()  # type: ignore[operator,no-any-return]


@pytest.mark.parametrize("layout", ["params_ema", "params", "bare", "esrgan", "safetensors"])
@pytest.mark.parametrize("scale", [2, 4])
def test_every_published_layout_loads_with_its_shape(
    tmp_path: Path, layout: str, scale: int
) -> None:
    network = tiny_rrdbnet(scale, seed=scale)
    suffix = ".safetensors" if layout == "safetensors" else ".pth"
    checkpoint = save_checkpoint(network, tmp_path / f"model{suffix}", layout)
    loaded, shape = esrgan.load_checkpoint(checkpoint)
    assert shape == esrgan.RRDBShape(scale, **TINY)
    picture = _picture(12, 16)
    np.testing.assert_array_equal(_torch_output(loaded, picture), _torch_output(network, picture))


def test_params_ema_is_preferred_over_params(tmp_path: Path) -> None:
    ema, trained = tiny_rrdbnet(4, seed=1), tiny_rrdbnet(4, seed=2)
    checkpoint = tmp_path / "both.pth"
    torch.save({"params": trained.state_dict(), "params_ema": ema.state_dict()}, checkpoint)
    loaded, _ = esrgan.load_checkpoint(checkpoint)
    picture = _picture(8, 8)
    np.testing.assert_array_equal(_torch_output(loaded, picture), _torch_output(ema, picture))


def test_the_shape_is_read_from_the_weights(tmp_path: Path) -> None:
    network = esrgan.RRDBNet(esrgan.RRDBShape(4, num_feat=16, num_block=3, num_grow_ch=8))
    checkpoint = save_checkpoint(network, tmp_path / "wider.pth")
    _, shape = esrgan.load_checkpoint(checkpoint)
    assert shape == esrgan.RRDBShape(4, num_feat=16, num_block=3, num_grow_ch=8)


class _Payload:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (print, ("code ran",))


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (lambda path: path.write_bytes(b"\x00not a checkpoint" * 40), "not a torch checkpoint"),
        (
            lambda path: path.write_bytes(pickle.dumps(_Payload(), protocol=2)),
            "cannot be read safely",
        ),
        (lambda path: torch.save([1, 2, 3], path), "no state dict of tensors"),
        (
            lambda path: torch.save({"conv.weight": torch.zeros(2, 2)}, path),
            "not an ESRGAN-family RRDBNet",
        ),
        (
            lambda path: torch.save(
                {k: v for k, v in tiny_rrdbnet(4).state_dict().items() if "conv_hr" not in k},
                path,
            ),
            "2 missing (e.g. conv_hr.weight)",
        ),
        (
            lambda path: torch.save(
                {**tiny_rrdbnet(4).state_dict(), "conv_first.weight": torch.zeros(8, 48, 3, 3)},
                path,
            ),
            "an ×1 or non-RGB model",
        ),
        (
            lambda path: torch.save(
                {**tiny_rrdbnet(4).state_dict(), "conv_up3.weight": torch.zeros(8, 8, 3, 3)},
                path,
            ),
            "×8",
        ),
    ],
    ids=["garbage", "pickled-code", "a-list", "another-network", "missing", "x1", "x8"],
)
def test_what_is_not_an_rrdbnet_is_refused_in_a_sentence(
    tmp_path: Path, write: object, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "model.pth"
    write(checkpoint)  # type: ignore[operator]
    with pytest.raises(esrgan.CheckpointError, match=re.escape(message)) as raised:
        esrgan.load_checkpoint(checkpoint)
    assert "\n" not in str(raised.value)
    assert "code ran" not in capsys.readouterr().out


def test_a_damaged_safetensors_file_is_refused(tmp_path: Path) -> None:
    checkpoint = save_checkpoint(tiny_rrdbnet(2), tmp_path / "x2.safetensors", "safetensors")
    checkpoint.write_bytes(checkpoint.read_bytes()[:200])
    with pytest.raises(esrgan.CheckpointError, match="not a readable safetensors file"):
        esrgan.load_checkpoint(checkpoint)


@pytest.mark.parametrize(("scale", "weights"), [(4, Weights.FP16), (2, Weights.INT8)])
def test_a_checkpoint_converts_to_an_upscaler_close_to_torch(
    tmp_path: Path, registry: ModelRegistry, scale: int, weights: Weights
) -> None:
    import openvino as ov

    network = tiny_rrdbnet(scale, seed=7)
    checkpoint = save_checkpoint(network, tmp_path / f"RealESRGAN_x{scale}plus.pth")
    stages: list[str] = []
    model = convert_model(
        ConvertRequest(str(checkpoint), weights, task=ModelTask.UPSCALE),
        registry,
        on_progress=lambda progress: stages.append(progress.message),
    )
    assert model.id == f"RealESRGAN_x{scale}plus-{weights.value}-ov"
    assert model.task is ModelTask.UPSCALE and model.usable
    assert model.precision == weights.value
    assert detect_task(model.folder) is ModelTask.UPSCALE
    config = json.loads((model.folder / "config.json").read_text(encoding="utf-8"))
    assert config == {
        "model_type": "rrdbnet",
        "task": "upscale",
        "weights": weights.value,
        "scale": scale,
        **TINY,
    }
    assert "Converting the upscaler to OpenVINO" in stages
    # Any size: the IR's height and width are dynamic (a ×2 model's must be even).
    compiled = ov.Core().compile_model(str(model.folder / "openvino_model.xml"), "CPU")
    for height, width in ((24, 40), (18, 10)):
        picture = _picture(height, width, seed=height)
        expected = _torch_output(network, picture)
        got = compiled(picture)[0]
        assert got.shape == (1, 3, height * scale, width * scale)
        # Close, not equal: fp16 or int8 weights. Against the output's spread, so a model
        # that drew anything else (or nothing) fails.
        spread = float(expected.std())
        assert spread > 0.05
        tolerance = 0.02 if weights is Weights.FP16 else 0.05
        assert float(np.abs(got - expected).max()) < tolerance * max(1.0, spread * 10)
        assert float(np.abs(got - expected).mean()) < tolerance * spread
    assert sorted(p.name for p in registry.models_dir.iterdir()) == [model.id]


def test_another_network_is_refused_by_the_job_and_leaves_nothing(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    torch.save({"params_ema": {"conv.weight": torch.zeros(2, 2)}}, tmp_path / "other.pth")
    request = ConvertRequest(str(tmp_path / "other.pth"), Weights.FP16, task=ModelTask.UPSCALE)
    with pytest.raises(UserError, match=r"^Not an upscaler checkpoint: the weights are not"):
        convert_model(request, registry)
    assert not registry.models_dir.exists() or list(registry.models_dir.iterdir()) == []


def test_upscalers_convert_with_int8_or_fp16_only(tmp_path: Path, registry: ModelRegistry) -> None:
    checkpoint = save_checkpoint(tiny_rrdbnet(4), tmp_path / "x4.pth")
    for weights in (Weights.INT4, Weights.NPU):
        request = ConvertRequest(str(checkpoint), weights, task=ModelTask.UPSCALE)
        with pytest.raises(UserError, match="int8 or fp16") as raised:
            plan_conversion(request, registry)
        assert raised.value.field == "weights"
    # A name that looks like a hub id is still a file the user gave: never looked up.
    request = ConvertRequest("xinntao/RealESRGAN_x4plus", Weights.FP16, task=ModelTask.UPSCALE)
    with pytest.raises(UserError, match="There is no file or folder"):
        plan_conversion(request, registry)
