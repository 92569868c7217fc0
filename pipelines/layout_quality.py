"""Whether a re-laid-out model still answers like the original: perplexity and greedy agreement.

Both models read the same fixed text (Python's own documentation of its ``json`` module, as
``pydoc`` renders it: ships with every Python, no download) in chunks through their stateful
OpenVINO model, and the candidate is compared with the reference at every position:

* **perplexity** on the text (how surprised each model is by the next token);
* **clear-choice agreement**: where the reference's first choice leads its second by at least
  :data:`CLEAR_MARGIN` (logits; 1.65 times as likely), the share of positions where the
  candidate's first choice is the same token — greedy decoding picks exactly that token, and
  near-ties are left out because any rounding flips them.

The thresholds were measured on SmolLM2-135M's Q4_1 GGUF (``benchmarks/bench_engines.py``):
re-laying out only its 8-bit output layer, channel-wise, raised perplexity 0.7% and kept 99.75%
of clear choices (every disagreement was a near-tie), while re-quantising the 4-bit matrices
(a second 4-bit rounding) raised it 18% (groups of 32, 90% of clear choices kept) and 227%
(channel-wise, 62%). :data:`MAX_PERPLEXITY_RISE` and :data:`MIN_CLEAR_AGREEMENT` accept the
first kind of change and refuse the second.
"""

from __future__ import annotations

import math
import pydoc
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.core import Cancelled, CancelToken, InvalidInputError, Progress

MAX_PERPLEXITY_RISE = 0.02
"""A candidate's perplexity may exceed the reference's by at most this share."""
MIN_CLEAR_AGREEMENT = 0.99
"""A candidate must keep at least this share of the reference's clear greedy choices."""
CLEAR_MARGIN = 0.5
"""A choice is clear when its logit leads the runner-up's by this much."""
TEXT_TOKENS = 2048
CHUNK_TOKENS = 128
"""The text is fed in chunks: logits for 128 positions at a time bound the memory."""

OnProgress = Callable[[Progress], None]


@dataclass(frozen=True)
class Reading:
    """How one model read the text: per position (but the last), the negative log-likelihood
    of the next token, the first choice and its lead over the second."""

    nll: np.ndarray
    choice: np.ndarray
    margin: np.ndarray

    @property
    def perplexity(self) -> float:
        return float(math.exp(float(np.mean(self.nll))))


@dataclass(frozen=True)
class QualityCheck:
    """A candidate against the reference, and whether it keeps quality."""

    reference_perplexity: float
    perplexity: float
    clear_agreement: float
    """Share of the reference's clear choices the candidate makes too."""
    agreement: float
    """Share of all positions with the same first choice (near-ties included)."""
    tokens: int

    @property
    def perplexity_rise(self) -> float:
        return self.perplexity / self.reference_perplexity - 1.0

    @property
    def passed(self) -> bool:
        return (
            self.perplexity_rise <= MAX_PERPLEXITY_RISE
            and self.clear_agreement >= MIN_CLEAR_AGREEMENT
        )

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "perplexity_rise": self.perplexity_rise, "passed": self.passed}


def reference_text() -> str:
    """The fixed text both models read: ``pydoc``'s plain-text page of the ``json`` module."""
    import json

    plain_text = pydoc.plaintext  # type: ignore[attr-defined]  # in pydoc, not its stubs
    return str(pydoc.plain(pydoc.render_doc(json, renderer=plain_text)))


def text_tokens(tokenizer_folder: Path) -> np.ndarray:
    """The text's first :data:`TEXT_TOKENS` tokens by the model's own tokenizer.

    Raises:
        InvalidInputError: the tokenizer makes fewer than 64 tokens of it.
    """
    import openvino_genai as ov_genai

    tokenizer = ov_genai.Tokenizer(str(tokenizer_folder))
    ids: np.ndarray = np.asarray(tokenizer.encode(reference_text()).input_ids.data)[0]
    if ids.size < 64:
        raise InvalidInputError("The model's tokenizer reads too little of the text.")
    return ids[:TEXT_TOKENS].astype(np.int64)


def read_text(
    model: Any,
    ids: np.ndarray,
    cancel: CancelToken,
    on_progress: OnProgress,
    *,
    threads: int = 1,
) -> Reading:
    """Run ``model`` (an ``ov.Model`` or an IR path, stateful: ``input_ids``,
    ``attention_mask``, ``position_ids``, ``beam_idx``) over ``ids`` on the CPU.

    ``threads``: the inference threads (1 by default: a background check leaves the other
    cores to the model that is answering meanwhile).

    Raises:
        Cancelled: ``cancel`` was set.
    """
    import openvino as ov

    compiled = ov.Core().compile_model(
        model,
        "CPU",
        {"INFERENCE_NUM_THREADS": str(threads), "INFERENCE_PRECISION_HINT": "f32"},
    )
    names = {name for port in compiled.inputs for name in port.get_names()}
    request = compiled.create_infer_request()
    request.reset_state()
    nll, choice, margin = [], [], []
    total = len(ids)
    for start in range(0, total, CHUNK_TOKENS):
        if cancel.cancelled:
            raise Cancelled()
        chunk = ids[start : start + CHUNK_TOKENS]
        inputs = {"input_ids": chunk[None], "attention_mask": np.ones((1, start + len(chunk)))}
        inputs["attention_mask"] = inputs["attention_mask"].astype(np.int64)
        if "position_ids" in names:
            inputs["position_ids"] = np.arange(start, start + len(chunk), dtype=np.int64)[None]
        if "beam_idx" in names:
            inputs["beam_idx"] = np.zeros(1, dtype=np.int32)
        request.infer(inputs)
        logits = np.asarray(request.get_output_tensor(0).data)[0].astype(np.float64)
        following = ids[start + 1 : start + 1 + len(chunk)]
        logits = logits[: len(following)]
        top = np.max(logits, axis=-1, keepdims=True)
        log_total = np.log(np.exp(logits - top).sum(axis=-1)) + top[:, 0]
        nll.append(log_total - logits[np.arange(len(following)), following])
        two = np.partition(logits, -2, axis=-1)[:, -2:]
        choice.append(np.argmax(logits, axis=-1))
        margin.append(two[:, 1] - two[:, 0])
        on_progress(Progress("quality", min(start + CHUNK_TOKENS, total), total))
    return Reading(np.concatenate(nll), np.concatenate(choice), np.concatenate(margin))


def compare(reference: Reading, candidate: Reading) -> QualityCheck:
    """The candidate's reading against the reference's."""
    same = candidate.choice == reference.choice
    clear = reference.margin >= CLEAR_MARGIN
    return QualityCheck(
        reference_perplexity=reference.perplexity,
        perplexity=candidate.perplexity,
        clear_agreement=float(np.mean(same[clear])) if clear.any() else 1.0,
        agreement=float(np.mean(same)),
        tokens=int(reference.nll.size) + 1,
    )
