"""Full int8 quantization (weights and activations) of a sentence-embedding model with NNCF.

Why not optimum's weight-only ``--weight-format int8``: an encoder like MiniLM is bound by
compute, not by memory, and weight-only compression only adds a decompression step — it ran
26% slower than the uncompressed export (261 vs 353 chunks/s here). Post-training
quantization of the activations too lets the CPU run int8 matrix multiplications (VNNI on
Intel AI PC laptops, AMX on Xeons): as fast as bf16 on this Xeon, the fastest choice where
there is no bf16, a quarter of the fp32 size, and the vectors stay within 0.985 cosine of fp32.

Run in a separate process (``python -m app.models.quantize SRC DST``): it imports NNCF, part
of the conversion extra, which the app itself never loads.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

CALIBRATION_TEXTS = 300
"""NNCF's default subset size: enough for stable activation ranges of a small encoder."""

SEED = 20261122


def calibration_texts(tokenizer_json: Path, count: int = CALIBRATION_TEXTS) -> list[str]:
    """Passages of 20–120 real words of the model's own vocabulary, grouped in topics.

    No dataset download is needed (the app works offline), and the lengths span what ingest
    embeds (chunks up to 128 tokens) and what people type as queries.
    """
    vocab = json.loads(tokenizer_json.read_text(encoding="utf-8"))["model"]["vocab"]
    words = np.array(sorted(w for w in vocab if w.isascii() and w.isalpha() and len(w) >= 3))
    rng = np.random.default_rng(SEED)
    glue = np.array(["the", "of", "and", "to", "in", "is", "for", "on", "with", "as", "a"])
    texts = []
    for _ in range(count):
        topic = rng.choice(words, size=30, replace=False)
        length = int(rng.integers(3, 120)) if rng.random() < 0.2 else int(rng.integers(20, 120))
        picked = np.where(
            rng.random(length) < 0.7, rng.choice(topic, size=length), rng.choice(glue, size=length)
        )
        texts.append(" ".join(picked).capitalize() + ".")
    return texts


def quantize_embedder(source: Path, target: Path, max_tokens: int = 256) -> None:
    """Write ``target/openvino_model.{xml,bin}``: ``source``'s fp32/fp16 IR quantized to int8.

    Raises:
        FileNotFoundError: ``source`` has no openvino_model.xml or tokenizer.json.
    """
    import nncf
    import openvino as ov
    from tokenizers import Tokenizer

    model = ov.Core().read_model(source / "openvino_model.xml")
    names = {port.get_any_name() for port in model.inputs}
    tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_tokens)

    def example(text: str) -> dict[str, np.ndarray]:
        encoded = tokenizer.encode(text)
        inputs = {
            "input_ids": np.array([encoded.ids], np.int64),
            "attention_mask": np.array([encoded.attention_mask], np.int64),
            "token_type_ids": np.array([encoded.type_ids], np.int64),
        }
        return {name: value for name, value in inputs.items() if name in names}

    texts = calibration_texts(source / "tokenizer.json")
    quantized = nncf.quantize(
        model,
        nncf.Dataset([example(text) for text in texts]),
        model_type=nncf.ModelType.TRANSFORMER,
        subset_size=len(texts),
    )
    # The source weights are memory-mapped while the model lives: write elsewhere, then move
    # the files over (writing in place when target == source crashes with a bus error).
    target.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".quantized-", dir=target))
    try:
        ov.save_model(quantized, scratch / "openvino_model.xml")
        del model, quantized
        for name in ("openvino_model.bin", "openvino_model.xml"):  # xml last: it names the bin
            (scratch / name).replace(target / name)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m app.models.quantize SRC DST`` (DST may be SRC: the model is replaced)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("source", type=Path)
    parser.add_argument("target", type=Path)
    args = parser.parse_args(argv)
    quantize_embedder(args.source, args.target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
