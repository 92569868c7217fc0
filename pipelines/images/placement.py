"""Where each stage of an image model runs, and how it must be compiled there.

OpenVINO GenAI compiles a diffusion model's stages separately —
``compile(text_encode_device, denoise_device, vae_device, **properties)`` — so the denoiser, run
once or twice per step, can go to a GPU while the text encoder (once per picture, small) stays
on the CPU. The decisions that follow from the devices are made here, as plain functions over
device names, so they are tested without the hardware:

- an NPU compiles static shapes only: the pipeline is ``reshape``-d to the picture's size, count
  and guidance before ``compile`` (and compiled again for another size);
- a GPU or NPU compile takes seconds to minutes: its blobs go to ``CACHE_DIR``;
- AUTO puts the denoiser and the VAE on a GPU when there is one, the text encoder on the CPU;
  an NPU is used only when asked for by name (a static shape per size is a poor default).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

AUTO = "AUTO"
ACCELERATORS = ("GPU", "NPU")
STATIC_ONLY = ("NPU",)


@dataclass(frozen=True)
class StageDevices:
    """The device of each stage (concrete names: ``CPU``, ``GPU.1``, ``NPU``; never AUTO)."""

    text_encoder: str = "CPU"
    denoiser: str = "CPU"
    vae: str = "CPU"

    @classmethod
    def on(cls, device: str) -> StageDevices:
        """Every stage on ``device``."""
        return cls(device, device, device)

    def names(self) -> tuple[str, str, str]:
        """(text encoder, denoiser, VAE): the order ``compile`` takes them in."""
        return self.text_encoder, self.denoiser, self.vae

    def label(self) -> str:
        """``CPU`` when all agree, else ``text CPU · denoise GPU · VAE GPU``."""
        if len(set(self.names())) == 1:
            return self.denoiser
        return f"text {self.text_encoder} · denoise {self.denoiser} · VAE {self.vae}"


@dataclass(frozen=True)
class CompilePlan:
    """How a pipeline is compiled for its stages' devices."""

    devices: StageDevices
    static_shapes: bool
    """``reshape(count, height, width, guidance)`` before ``compile``: a different size,
    count or guidance needs a new compile."""
    use_cache: bool
    """Pass ``CACHE_DIR`` (when the caller has one)."""


def kind_of(device: str) -> str:
    """``GPU`` for ``GPU.1``; upper case."""
    return device.split(".", 1)[0].strip().upper()


def compile_plan(devices: StageDevices) -> CompilePlan:
    """What compiling on ``devices`` requires (see the module docstring)."""
    kinds = {kind_of(name) for name in devices.names()}
    return CompilePlan(
        devices=devices,
        static_shapes=any(kind in STATIC_ONLY for kind in kinds),
        use_cache=any(kind in ACCELERATORS for kind in kinds),
    )


def auto_stages(available: Sequence[str]) -> StageDevices:
    """The stages' devices AUTO chooses among ``available`` (OpenVINO's device names): the
    first GPU (a discrete ``GPU.1`` before an integrated ``GPU.0``: OpenVINO lists the
    integrated GPU first, as ``GPU`` or ``GPU.0``) for the denoiser and the VAE, the CPU for the
    text encoder; the CPU for all without a GPU."""
    gpus = [name for name in available if kind_of(name) == "GPU"]
    if not gpus:
        return StageDevices.on("CPU")
    discrete = [name for name in gpus if name.upper() not in ("GPU", "GPU.0")]
    gpu = (discrete or gpus)[0]
    return StageDevices("CPU", gpu, gpu)


def stages_for(requested: str, available: Sequence[str]) -> StageDevices:
    """The stages for one device picker's value: AUTO by :func:`auto_stages`, anything else
    on every stage."""
    if requested.strip().upper() == AUTO:
        return auto_stages(available)
    return StageDevices.on(requested.strip().upper())
