"""Each stage's device and what compiling there requires, decided over device names."""

from __future__ import annotations

import pytest

from pipelines.core import InvalidInputError
from pipelines.images.placement import (
    StageDevices,
    auto_stages,
    compile_plan,
    parse_stage_spec,
    stage_spec,
    stages_for,
)


@pytest.mark.parametrize(
    ("available", "expected"),
    [
        (["CPU"], StageDevices("CPU", "CPU", "CPU")),
        (["CPU", "GPU"], StageDevices("CPU", "GPU", "GPU")),
        (["CPU", "GPU.0", "GPU.1"], StageDevices("CPU", "GPU.1", "GPU.1")),  # discrete first
        (["CPU", "NPU"], StageDevices("CPU", "CPU", "CPU")),  # an NPU only when named
        (["CPU", "GPU", "NPU"], StageDevices("CPU", "GPU", "GPU")),
    ],
)
def test_auto_puts_the_denoiser_and_vae_on_a_gpu_and_the_text_encoder_on_the_cpu(
    available: list[str], expected: StageDevices
) -> None:
    assert auto_stages(available) == expected
    assert stages_for("auto", available) == expected


def test_a_named_device_runs_every_stage() -> None:
    assert stages_for("gpu.1", ["CPU", "GPU.0", "GPU.1"]) == StageDevices.on("GPU.1")


@pytest.mark.parametrize(
    ("devices", "static", "cache"),
    [
        (StageDevices.on("CPU"), False, False),
        (StageDevices.on("GPU"), False, True),
        (StageDevices("CPU", "GPU.1", "CPU"), False, True),
        (StageDevices.on("NPU"), True, True),
        (StageDevices("CPU", "NPU", "GPU"), True, True),
    ],
)
def test_an_npu_needs_static_shapes_and_accelerators_a_compile_cache(
    devices: StageDevices, static: bool, cache: bool
) -> None:
    plan = compile_plan(devices)
    assert (plan.static_shapes, plan.use_cache) == (static, cache)


def test_the_label_names_stages_only_when_they_differ() -> None:
    assert StageDevices.on("CPU").label() == "CPU"
    assert StageDevices("CPU", "GPU", "GPU").label() == "text CPU · denoise GPU · VAE GPU"
    assert StageDevices("CPU", "NPU", "GPU").names() == ("CPU", "NPU", "GPU")


def test_a_stage_spec_reads_back_what_was_written() -> None:
    stages = StageDevices("CPU", "GPU.1", "GPU.1")
    assert stage_spec(stages) == "text=CPU,denoise=GPU.1,vae=GPU.1"
    assert parse_stage_spec(stage_spec(stages)) == {
        "text": "CPU",
        "denoise": "GPU.1",
        "vae": "GPU.1",
    }
    assert parse_stage_spec(" Denoise = npu , ") == {"denoise": "NPU"}


@pytest.mark.parametrize("spec", ["", ",", "GPU", "unet=GPU", "text=", "vae=CPU,vae=GPU", "=CPU"])
def test_a_stage_spec_that_cannot_be_read_is_one_sentence(spec: str) -> None:
    with pytest.raises(InvalidInputError, match=r"stage|Name a device") as error:
        parse_stage_spec(spec)
    assert error.value.field == "device"
