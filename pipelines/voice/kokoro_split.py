"""Kokoro run in two parts, so that the costly part sees only a few input lengths.

Kokoro's graph turns phoneme tokens into per-token durations (BERT, a few LSTMs: cheap),
expands the token features to audio frames by those durations (an alignment matrix), and runs
the decoder and vocoder over the frames (≈ 90 % of the time). OpenVINO's CPU plugin prepares
its kernels for each new input shape, and every sentence has a new frame count: that cost
0.2–0.8 s a sentence here, on top of 0.7–1 s of compute (``benchmarks/results/kokoro.json``).

:func:`split_at_durations` cuts the model where the alignment is made: the *durations* part
ends with the durations and the token features, the *decoder* part starts from the features
already expanded to frames. :class:`SplitKokoro` expands them in numpy (``np.repeat`` is what
the alignment product computes) and gives the decoder a frame count from a short list of
buckets (:func:`bucket_frames`, 20 % apart): the sentence's final pause token is held for the
extra frames and the audio of those frames is cut off again. Kernels prepared for a bucket are
reused by every later sentence of that bucket; the shortest buckets are prepared at load.

Why the final pause and not zero frames: the decoder normalises each channel over the whole
utterance (AdaIN), so frames of zeros shift every statistic and change the whole sentence;
a longer pause is an utterance the model was trained on. The kept audio is a slightly different
rendition (as different as the CPU's bf16 and f32 renditions are; the benchmark compares them).

**Not done: a shorter opening pause.** The model gives the opening pad token ≈ 0.4 s, and
holding it for 0.1 s would start every piece sooner and save that much decoder work; but the
first word was then swallowed ("The library opens…" heard as "Library opens…", WER 0.33 on the
intelligibility test), so the durations are kept as predicted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

SAMPLES_PER_FRAME = 600
"""Kokoro's decoder turns one alignment frame into 25 ms of 24 kHz audio."""
BUCKET_RATIO = 1.2
SMALLEST_BUCKET = 24
WARM_FRAMES = (40, 90)
"""The buckets of 1–2.25 s of audio are prepared at load (five of them, a few seconds): a
first sentence's first piece is that long (:data:`pipelines.voice.kokoro.LEAD_CHARS`), and it
is the one the listener waits for; other buckets are prepared on first use."""
TEXT_FEATURES, PROSODY_FEATURES = "text_frames", "prosody_frames"


def bucket_frames(frames: int) -> int:
    """The smallest bucket of at least ``frames`` (≥ 1): 24, 29, 35, 41… each 20 % above the
    last, so padding wastes under a fifth (a tenth on average)."""
    steps = max(0.0, math.log(max(frames, 1) / SMALLEST_BUCKET) / math.log(BUCKET_RATIO))
    bucket = round(SMALLEST_BUCKET * BUCKET_RATIO ** math.floor(steps))
    while bucket < frames:
        steps = math.floor(steps) + 1
        bucket = round(SMALLEST_BUCKET * BUCKET_RATIO**steps)
    return bucket


def warm_buckets() -> list[int]:
    """The buckets prepared at load."""
    buckets = [bucket_frames(WARM_FRAMES[0])]
    while (following := bucket_frames(buckets[-1] + 1)) <= WARM_FRAMES[1]:
        buckets.append(following)
    return buckets


@dataclass
class SplitModels:
    """The two parts of one Kokoro model (``openvino.Model`` each)."""

    durations: Any
    """``tokens, style, speed`` → ``durations`` [1, T] (frames per token), ``text_features``
    [1, 512, T], ``prosody_features`` [1, T, 640]."""
    decoder: Any
    """``text_frames`` [1, 512, F], ``prosody_frames`` [1, 640, F], ``style`` → audio."""


def split_at_durations(model: Any) -> SplitModels | None:
    """``model`` (an ``openvino.Model`` of Kokoro, used up: it becomes the decoder's graph) cut
    at its alignment; None when the graph does not have the expected shape (the caller then
    runs the model whole, read again)."""
    import openvino as ov
    import openvino.opset13 as ops

    found = _alignment(model)
    if found is None:
        return None
    alignment, products, durations = found
    parameters = {param.get_friendly_name(): param for param in model.get_parameters()}
    if set(parameters) != {"tokens", "style", "speed"}:
        return None
    # The operand of each product that is not the alignment: the token-level features.
    token_features = [product.input_value(0) for product in products]
    front_outputs = [ops.result(durations), *(ops.result(port) for port in token_features)]
    front = ov.Model(
        front_outputs,
        [parameters["tokens"], parameters["style"], parameters["speed"]],
        "kokoro_durations",
    )
    names = ["durations", *(_feature_name(product) for product in products)]
    for output, name in zip(front.outputs, names, strict=True):
        output.get_tensor().set_names({name})
    front = front.clone()  # its own copy: the products are rewired below
    frame_inputs = []
    for product in products:
        channels = product.get_output_partial_shape(0)[1]
        name = TEXT_FEATURES if _feature_name(product) == "text_features" else PROSODY_FEATURES
        parameter = ops.parameter([1, channels, -1], ov.Type.f32, name=name)
        parameter.output(0).get_tensor().set_names({name})
        product.output(0).replace(parameter.output(0))
        frame_inputs.append(parameter)
    del alignment
    try:
        decoder = ov.Model(
            model.get_results(), [*frame_inputs, parameters["style"]], "kokoro_decoder"
        )
        decoder.validate_nodes_and_infer_types()
    except RuntimeError:  # the decoder still reads the tokens or the speed some other way
        return None
    return SplitModels(front, decoder)


def _alignment(model: Any) -> tuple[Any, list[Any], Any] | None:
    """The float alignment matrix (a ``Convert`` of the frame-in-token test), the two products
    that expand token features with it (``[1, C, T] @ A`` and ``[1, T, C]ᵀ @ A``), and the
    integer durations ``[1, T]`` behind its cumulative sum."""
    for node in model.get_ordered_ops():
        if node.get_type_name() != "Convert" or node.input_value(0).get_node().get_type_name() != (
            "LogicalAnd"
        ):
            continue
        consumers = [port.get_node() for port in node.output(0).get_target_inputs()]
        if len(consumers) != 2 or any(c.get_type_name() != "MatMul" for c in consumers):
            continue
        if any(c.input_value(1).get_node() is not node for c in consumers):
            continue
        durations = _durations_behind(node)
        if durations is not None:
            return node, consumers, durations
    return None


def _durations_behind(alignment: Any) -> Any:
    """The ``[1, T]`` integer durations whose cumulative sum the alignment compares against."""
    pending, seen = [alignment], set()
    while pending:
        node = pending.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.get_type_name() == "CumSum":
            source = node.input_value(0)
            if source.get_node().get_type_name() == "Gather":  # [1, T] → [T]
                source = source.get_node().input_value(0)
            shape = source.get_partial_shape()
            if shape.rank.is_static and shape.rank.get_length() == 2:
                return source
            return None
        pending.extend(node.input_value(i).get_node() for i in range(node.get_input_size()))
    return None


def _feature_name(product: Any) -> str:
    """Which features a product expands: the text encoder's ``[1, 512, T] @ A`` or the
    prosody ``[1, T, 640]ᵀ @ A``."""
    return "prosody_features" if product.get_attributes().get("transpose_a") else "text_features"


class SplitKokoro:
    """The two compiled parts run as one model. Not thread-safe (one request each)."""

    def __init__(self, durations: Any, decoder: Any) -> None:
        self.durations = durations.create_infer_request()
        self.decoder = decoder.create_infer_request()

    def warm_up(self, style: npt.NDArray[np.float32]) -> None:
        """Prepare the decoder's kernels for the short buckets (:func:`warm_buckets`)."""
        for frames in warm_buckets():
            self.decoder.infer(
                {
                    TEXT_FEATURES: np.zeros((1, 512, frames), dtype=np.float32),
                    PROSODY_FEATURES: np.zeros((1, 640, frames), dtype=np.float32),
                    "style": style,
                }
            )

    def infer(
        self, tokens: npt.NDArray[np.int64], style: npt.NDArray[np.float32], speed: float
    ) -> npt.NDArray[np.float32]:
        """Audio for ``tokens`` ([1, n] with the pads), as the whole model would give it."""
        self.durations.infer(
            {"tokens": tokens, "style": style, "speed": np.array([speed], dtype=np.float32)}
        )
        durations = np.asarray(self.durations.get_tensor("durations").data).reshape(-1)
        durations = durations.astype(np.int64)  # a copy: the request's buffer is reused
        frames = int(durations.sum())
        durations[-1] += bucket_frames(frames) - frames
        text = np.asarray(self.durations.get_tensor("text_features").data)
        prosody = np.asarray(self.durations.get_tensor("prosody_features").data)
        self.decoder.infer(
            {
                TEXT_FEATURES: np.repeat(text, durations, axis=2),
                PROSODY_FEATURES: np.repeat(prosody.transpose(0, 2, 1), durations, axis=2),
                "style": style,
            }
        )
        audio = np.asarray(self.decoder.get_output_tensor(0).data).reshape(-1)
        return audio[: frames * SAMPLES_PER_FRAME].astype(np.float32)
