"""A tiny VAE decoder (TAESD-class): a denoising step's latent as a full-size preview, fast.

The model is what :mod:`app.models.taesd_torch` converts: ``latent`` ``[B, 4, h, w]`` (the
latent the step callback receives) → ``picture`` ``[B, 3, 8h, 8w]`` in -1..1; its
``config.json`` says ``model_type`` ``taesd``, the latent channels and the scale. Where the
model's own VAE costs about two denoising steps per decode at 512², this decoder costs a
fraction of one, so the previews it makes can be full-size at every step the budget offers
(see :mod:`pipelines.images.preview`). Its pictures are an approximation of the VAE's — good
for watching a picture form, not for keeping.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.contract import ModelPipeline
from pipelines.core import (
    DeviceError,
    InvalidInputError,
    MetricRecord,
    ModelLoadError,
    PipelineError,
)
from pipelines.images.picture_network import compile_picture_network
from pipelines.images.pictures import Picture

MODEL_FILE = "openvino_model.xml"
CONFIG_FILE = "config.json"
MODEL_TYPE = "taesd"
LATENT_CHANNELS = 4
"""What Stable Diffusion 1.x/2.x and its LCMs denoise (SD3 and FLUX have 16: another decoder)."""

EXPORT_DIR = "vae_decoder"
"""Where an optimum-intel export of an ``AutoencoderTiny`` keeps its decoder, beside
``vae_encoder/`` (the layout of ``deinferno/taesd-openvino``); its ``config.json`` there is
diffusers' own."""
TINY_CLASS = "AutoencoderTiny"

log = logging.getLogger(__name__)


def model_file(folder: Path) -> Path:
    """The decoder's IR: the app's conversion's at the top, else an optimum export's."""
    own, exported = folder / MODEL_FILE, folder / EXPORT_DIR / MODEL_FILE
    return exported if not own.is_file() and exported.is_file() else own


def read_decoder_config(folder: Path) -> tuple[int, int]:
    """``(latent channels, scale)`` of the preview decoder in ``folder``, from its config.

    Raises:
        ModelLoadError: no IR, no readable config, not a tiny decoder, or not for SD latents.
    """
    xml = model_file(folder)
    if not xml.is_file():
        raise ModelLoadError(
            f"{folder.name} has no preview decoder model ({MODEL_FILE} is missing)."
        )
    try:
        config = json.loads((xml.parent / CONFIG_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ModelLoadError(
            f"{folder.name} is not a preview decoder: its {CONFIG_FILE} is missing or unreadable."
        ) from error
    if xml.parent != folder and isinstance(config, dict):
        channels, scale = _exported_shape(config, folder)
    elif not isinstance(config, dict) or config.get("model_type") != MODEL_TYPE:
        raise ModelLoadError(
            f"{folder.name} is not a preview decoder: its {CONFIG_FILE} does not say taesd."
        )
    else:
        channels, scale = config.get("latent_channels"), config.get("scale")
    if channels != LATENT_CHANNELS or isinstance(channels, bool):
        raise ModelLoadError(
            f"{folder.name} decodes {channels}-channel latents; previews need a decoder for "
            f"Stable Diffusion's {LATENT_CHANNELS}-channel ones."
        )
    if not isinstance(scale, int) or isinstance(scale, bool) or scale not in (2, 4, 8, 16):
        raise ModelLoadError(f"{folder.name} is not a preview decoder: its scale is {scale!r}.")
    return channels, scale


def _exported_shape(config: dict[str, Any], folder: Path) -> tuple[Any, Any]:
    """An optimum export's latent channels and scale, from diffusers' ``AutoencoderTiny``
    config (its defaults where a field is left out: TAESD's)."""
    if config.get("_class_name") != TINY_CLASS:
        raise ModelLoadError(
            f"{folder.name} is not a preview decoder: its {EXPORT_DIR}/{CONFIG_FILE} names "
            f"{config.get('_class_name')!r}, not {TINY_CLASS}."
        )
    factor = config.get("upsampling_scaling_factor", 2)
    blocks = config.get("decoder_block_out_channels", [64, 64, 64, 64])
    if not isinstance(factor, int) or not isinstance(blocks, list) or not blocks:
        raise ModelLoadError(f"{folder.name} is not a preview decoder: its config is damaged.")
    return config.get("latent_channels", LATENT_CHANNELS), factor ** (len(blocks) - 1)


def check_latent(latent: npt.NDArray[Any], channels: int = LATENT_CHANNELS) -> None:
    """Refuse a latent the decoder cannot read: not ``[batch, channels, h, w]`` floats.

    Raises:
        InvalidInputError: the sentence says why.
    """
    shape = tuple(latent.shape)
    if latent.ndim != 4 or shape[1] != channels or min(shape) < 1:
        raise InvalidInputError(
            f"The preview decoder reads [batch, {channels}, height, width] latents, not {shape}: "
            "this model's latents need its own VAE.",
            field="latent",
        )
    if not np.issubdtype(latent.dtype, np.floating):
        raise InvalidInputError(
            f"The preview decoder reads float latents, not {latent.dtype}.", field="latent"
        )


def as_picture(decoded: npt.NDArray[Any]) -> Picture:
    """The first picture of a decoder output ``[B, 3, H, W]`` in -1..1 as RGB bytes."""
    rgb = np.clip((np.asarray(decoded[0], dtype=np.float32) + 1.0) * 127.5 + 0.5, 0, 255)
    return np.ascontiguousarray(rgb.astype(np.uint8).transpose(1, 2, 0))


class TinyDecoder(ModelPipeline):
    """A TAESD-class decoder on a device, compiled once on first use; one caller at a time.

    Args:
        folder: the converted decoder (``openvino_model.xml`` + ``config.json``).
        device: an OpenVINO device name (the image model's VAE device, else the CPU).
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none.
        properties: OpenVINO compile properties.
    """

    name = "preview-decoder"

    def __init__(
        self,
        folder: Path,
        device: str = "CPU",
        *,
        cache_dir: Path | None = None,
        properties: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(device, cache_dir)
        self.folder = folder
        self._properties = properties or {}
        self._request: Any = None
        self._config: tuple[int, int] | None = None
        self.last_ms = 0.0

    @property
    def scale(self) -> int:
        """Pixels per latent cell (read from the config on first use).

        Raises:
            ModelLoadError: as :func:`read_decoder_config`.
        """
        if self._config is None:
            self._config = read_decoder_config(self.folder)
        return self._config[1]

    def _load(self) -> Any:
        """Read the IR, check it takes SD latents and gives RGB, compile it.

        Raises:
            ModelLoadError: no IR or config, a damaged one, or another kind of network.
            DeviceError: ``device`` could not compile it.
        """
        _ = self.scale
        compiled = compile_picture_network(
            model_file(self.folder),
            what=f"the preview decoder {self.folder.name}",
            device=self.device,
            cache_dir=self.cache_dir,
            properties=self._properties,
            check=self._check_kind,
        )
        self._request = compiled.create_infer_request()
        return compiled

    def _check_kind(self, network: Any, taken: Any, given: Any) -> None:
        """Refuse a network that does not take SD latents and give an RGB picture.

        Raises:
            ModelLoadError: the sentence names the shapes it has.
        """
        shapes = (taken, given)
        if (
            len(network.inputs) != 1
            or len(network.outputs) != 1
            or any(shape.rank.is_dynamic or len(shape) != 4 for shape in shapes)
            or any(
                shape[1].is_dynamic or shape[1].get_length() != size
                for shape, size in zip(shapes, (LATENT_CHANNELS, 3), strict=True)
            )
        ):
            raise ModelLoadError(
                f"{self.folder.name} is not a preview decoder: it should take a "
                f"[batch, {LATENT_CHANNELS}, height, width] latent and give an RGB picture, not "
                f"{taken} → {given}."
            )

    def close(self) -> None:
        """Drop the compiled model and its request."""
        self._request = None
        super().close()

    def decode(self, latent: npt.NDArray[Any]) -> Picture:
        """The first latent of ``latent`` ``[B, 4, h, w]`` as an RGB picture ``scale`` times
        its size.

        Raises:
            InvalidInputError: a latent of another layout (e.g. SD3's or FLUX's 16 channels).
            ModelLoadError, DeviceError: as :meth:`load`.
        """
        check_latent(latent)
        self._loaded_model()
        started = time.perf_counter()
        first = np.ascontiguousarray(latent[:1], dtype=np.float32)
        decoded = self._request.infer({0: first})[0]
        self.last_ms = (time.perf_counter() - started) * 1000.0
        return as_picture(decoded)

    def metrics(self) -> MetricRecord:
        """The load time and the last decode's."""
        return MetricRecord(
            self.name, self.device, {"load_ms": self.load_ms, "decode_ms": self.last_ms}
        )


def open_preview_decoder(
    folder: Path, device: str, vae_scale: int, cache_dir: Path | None = None
) -> tuple[TinyDecoder | None, str]:
    """The preview decoder in ``folder`` compiled on ``device`` (the VAE's), else on the CPU;
    or None and the sentence saying why it is not used — a preview decoder never stops a
    picture from being drawn. ``vae_scale``: the model's VAE's pixels per latent cell, which
    the decoder's must match (its previews would be another size than the picture).
    """
    devices = [device] if device == "CPU" else [device, "CPU"]
    problem: PipelineError | None = None
    for name in devices:  # a dynamic-shape IR may not compile on an NPU: the CPU can
        decoder = TinyDecoder(folder, name, cache_dir=cache_dir if name != "CPU" else None)
        try:
            if decoder.scale != vae_scale:
                raise ModelLoadError(
                    f"it enlarges latents ×{decoder.scale}, this model's VAE ×{vae_scale}"
                )
            decoder.load()
        except DeviceError as error:
            problem = error
            continue
        except PipelineError as error:  # ModelLoadError: no device can help
            problem = error
            break
        return decoder, ""
    log.warning("preview decoder %s not used: %s", folder, problem)
    return None, not_used(folder, str(problem))


def not_used(folder: Path, reason: str) -> str:
    """The note saying the preview decoder in ``folder`` is not used, and why."""
    return (
        f"The preview decoder {folder.name} is not used — {reason.rstrip('.')}; previews are "
        "drawn as before."
    )
