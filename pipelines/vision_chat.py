"""Streaming chat with images over ``openvino_genai.VLMPipeline``.

:class:`VisionChatPipeline` keeps the contract of :class:`pipelines.chat.ChatPipeline` (no I/O
in the constructor, ``load(cancel)``, ``close()``, ``metrics()``, a streaming callback, Stop
returns the partial answer, the same :class:`~pipelines.generation.GenerationSettings`, device,
compile properties and ``CACHE_DIR``) and adds ``images`` to :meth:`VisionChatPipeline.generate`.

Images are uint8 RGB arrays of shape ``[H, W, 3]`` (the caller decodes files: pipelines do no
image I/O); GenAI rejects grayscale and float input with cryptic errors, so they are refused
here in plain words.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pipelines.chat import ChatModelConfig, ChatPipeline, ChatResult
from pipelines.contract import compile_properties, load_with, require_files
from pipelines.core import CancelToken, InvalidInputError, MetricRecord
from pipelines.engine_options import load_properties
from pipelines.generation import GenerationSettings, Message, validate_messages

log = logging.getLogger(__name__)

#: Files an OpenVINO GenAI vision-language folder must hold (optimum-intel export layout).
#: ``preprocessor_config.json`` is listed because without it GenAI loads the model and then
#: fails on the first image with a shape error deep in the vision encoder.
REQUIRED_VLM_FILES = (
    "openvino_language_model.xml",
    "openvino_tokenizer.xml",
    "openvino_detokenizer.xml",
    "preprocessor_config.json",
)

Image = NDArray[np.uint8]
"""One image as the model takes it: uint8 RGB, ``[height, width, 3]``."""


class VisionChatPipeline(ChatPipeline):
    """A vision-language chat model: answers a conversation turn about zero or more images.

    Only the last user message's images are sent: GenAI attaches the images of a call to the
    last user message and refuses references to images of earlier turns, so earlier turns
    are replayed as text. REPL use::

        pipe = VisionChatPipeline(ChatModelConfig(Path("models/InternVL2-1B-int4-ov")))
        pipe.load()
        result = pipe.generate([Message("user", "What is this?")], GenerationSettings(),
                               CancelToken(), lambda text: None, images=[rgb_array])
    """

    continues_answers = False
    """VLMPipeline templates the images into the prompt itself: a prompt it is given already
    templated, with an answer's beginning, would lose them."""

    def __init__(self, config: ChatModelConfig) -> None:
        super().__init__(config)
        self._images = 0

    def _load(self) -> Any:
        """Read and compile the vision-language model on the configured device.

        Raises:
            ModelLoadError: the folder lacks a file, or OpenVINO could not read the model.
            DeviceError: OpenVINO could not compile the model for the device.
        """
        import openvino_genai as ov_genai

        path = self.config.model_path
        require_files(path, REQUIRED_VLM_FILES, "an OpenVINO vision-chat model")
        properties = {
            **compile_properties(self.cache_dir, self.config.properties),
            **load_properties(self.config.engine),  # the options EngineOptions.check allows
        }
        pipe = load_with(
            lambda: ov_genai.VLMPipeline(str(path), self.config.device, **properties),
            what=path.name,
            device=self.config.device,
        )
        log.info("loaded vision model %s on %s", path, self.config.device)
        return pipe

    def generate(
        self,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        images: Sequence[Image] = (),
        *,
        answer_start: str = "",
    ) -> ChatResult:
        """Answer the last user message of ``messages`` about ``images``, streaming text.

        ``images`` belong to the last user message (earlier turns' images are not sent; see
        the class docstring). Cancelling returns the partial answer with ``stopped=True``.

        Raises:
            InvalidInputError: no user message last, an image that is not uint8 RGB, or an
                ``answer_start`` (see :attr:`continues_answers`).
            DeviceError: generation failed on the device.
        """
        import openvino as ov

        if answer_start:
            raise InvalidInputError(
                "A vision model cannot go on from where an answer stopped.", field="prompt"
            )
        pipe = self._require_loaded()
        validate_messages(messages)
        settings.validate()
        tensors = [ov.Tensor(np.ascontiguousarray(check_image(image))) for image in images]
        self._images = len(tensors)
        return self._stream(pipe, messages, settings, cancel, on_text, {"images": tensors})

    def _metrics(self, perf: Any, wall_ms: float) -> MetricRecord:
        record = super()._metrics(perf, wall_ms)
        values = dict(record.values)
        values["images"] = float(self._images)
        vision_ms = float(perf.get_vision_encoding_duration().mean)
        values["vision_encode_ms"] = 0.0 if math.isnan(vision_ms) else vision_ms
        return MetricRecord(pipeline=record.pipeline, device=record.device, values=values)


def check_image(image: Image) -> Image:
    """``image`` if it is uint8 ``[H, W, 3]``; else :class:`InvalidInputError` (``images``)."""
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise InvalidInputError(
            f"An image must be 8-bit RGB (height × width × 3), not {image.dtype} "
            f"{'×'.join(str(size) for size in image.shape)}.",
            field="images",
        )
    if min(image.shape[:2]) < 1:
        raise InvalidInputError("An image is empty (0 pixels).", field="images")
    return image


def is_vision_folder(path: Path) -> bool:
    """Whether ``path`` looks like an exported vision-language model (cheap: file names)."""
    return (path / "openvino_vision_embeddings_model.xml").is_file()
