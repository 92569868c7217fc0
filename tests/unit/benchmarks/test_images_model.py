"""The image benchmark's model is SD 1.5-shaped: what it takes from diffusers' defaults is
still SD 1.5's, and a change of shapes rebuilds the cached model."""

from __future__ import annotations

import inspect

import pytest

from benchmarks.images_model import component_configs, config_stamp


@pytest.mark.filterwarnings("ignore:CUDA is not available:UserWarning")  # diffusers' import
def test_the_unet_defaults_it_relies_on_are_stable_diffusion_1_5s() -> None:
    from diffusers import UNet2DConditionModel

    defaults = {
        name: parameter.default
        for name, parameter in inspect.signature(UNet2DConditionModel.__init__).parameters.items()
    }
    unet = component_configs("sd15")["unet"]

    assert defaults["block_out_channels"] == (320, 640, 1280, 1280)
    assert defaults["layers_per_block"] == 2
    assert defaults["attention_head_dim"] == 8
    assert defaults["norm_num_groups"] == 32
    assert "block_out_channels" not in unet  # taken from the defaults checked above
    assert unet["cross_attention_dim"] == 768
    assert unet["time_cond_proj_dim"] == 256


def test_other_shapes_have_another_stamp() -> None:
    assert config_stamp("sd15") == config_stamp("sd15")
    assert config_stamp("sd15") != config_stamp("tiny")
