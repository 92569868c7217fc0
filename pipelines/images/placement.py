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
  Why: the denoiser runs once or twice per step and is nearly all of a picture's time, so it
  is what a GPU is for; the VAE decodes a 64× larger tensor than the latent and a GPU does it
  several times faster than a laptop CPU, with no copy of the latent back to the CPU between
  the two; the text encoder runs once per picture (a 123M-parameter CLIP for SD 1.5: tens of
  milliseconds on a CPU), so on the GPU it would only add a compile and device memory.

A person may place each stage by hand: a stage spec, ``text=CPU,denoise=GPU,vae=GPU``
(:func:`parse_stage_spec`; a stage left out is placed as AUTO would).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pipelines.core import InvalidInputError

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


STAGE_KEYS = ("text", "denoise", "vae")
"""A stage spec's names for the text encoder, the denoiser and the VAE decoder."""


def is_stage_spec(value: str) -> bool:
    """Whether a device value places the stages one by one (``text=CPU,…``)."""
    return "=" in value


def parse_stage_spec(value: str) -> dict[str, str]:
    """``text=CPU,denoise=GPU,vae=GPU`` as ``{"text": "CPU", …}`` (names upper-cased; a stage
    left out is not in the result).

    Raises:
        InvalidInputError: (field ``device``) not ``stage=DEVICE`` pairs, an unknown stage, a
            stage named twice, or an empty device.
    """
    placed: dict[str, str] = {}
    for part in value.split(","):
        if not part.strip():
            continue
        stage, equals, device = (piece.strip() for piece in part.partition("="))
        key = stage.lower()
        if not equals or key not in STAGE_KEYS or not device or key in placed:
            raise InvalidInputError(
                f"“{part.strip()}” is not a stage's device: write text=, denoise= and vae= "
                "with a device each, e.g. text=CPU,denoise=GPU,vae=GPU.",
                field="device",
            )
        placed[key] = device.upper()
    if not placed:
        raise InvalidInputError(
            "Name a device for at least one stage, e.g. denoise=GPU.", field="device"
        )
    return placed


def stage_spec(stages: StageDevices) -> str:
    """``stages`` written as a stage spec (what :func:`parse_stage_spec` reads back)."""
    return ",".join(f"{key}={name}" for key, name in zip(STAGE_KEYS, stages.names(), strict=True))
